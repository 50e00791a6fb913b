// The data events' log: the records, the maps that hold them, and the log's places (first and
// next) kept in the app's tallies. Each person's timeline over it is timeline.ts's.

import type { Stored } from '../../engine/types.js';
import type { eventLogSchema, eventRecordSchema, eventSummarySchema } from '../../fixtures/schema.js';
import { keptBytes } from '../../engine/byte-budget.js';

/** A metadata value: text, a number, a rich link or a monetary amount (surface E1). */
export type EventMetadata = EventRecord['metadata'];
export type EventMetadataValue = EventMetadata[string];

/** An accepted event as the fixture document carries it (arrival order). */
export type EventRecord = Stored<typeof eventRecordSchema, 'seq'>;

/** The app's log bounds: the place of its oldest slot and the next place; slots of deleted people's events count. */
export type EventLog = Stored<typeof eventLogSchema>;

/** As stored: the record plus its place in the app's log and in its person's timeline. */
export interface StoredEvent extends EventRecord {
  seq: number;
  /** The next older event of the same person (by created_at, then arrival); 0: none. */
  older: number;
  /** The next newer one; 0: none. */
  newer: number;
  /** Skip links above the timeline: [older, newer] at level 1, then level 2, ... (its height: links.length / 2). */
  links?: number[];
  /** Its duplicate key, the very string eventKeys holds once the event is keyed (heldAlready): evicting it neither rebuilds nor hashes that key again. */
  dedupe: string;
  /** What it counts against the app's events bytes (eventBytes), given back as it is at eviction. */
  bytes: number;
}

/** A person's anchors: both ends of the timeline, and the ends of the summary list (names in first-seen order). */
export interface EventPerson {
  newest: number;
  oldest: number;
  /** The newest event at skip level 1, 2, ... (0: none). */
  tops?: number[];
  /** Events added to this timeline so far: the next one's index, which picks its skip height. */
  added?: number;
  first_name: string | null;
  last_name: string | null;
}

/** Running tally of one (person, name): every event accepted while the entry lived; `kept` of them still held. */
export interface EventSummary {
  name: string;
  count: number;
  first: number;
  last: number;
  kept: number;
  prev: string | null;
  next: string | null;
}

/** An exported summary entry. */
export type EventSummaryRecord = Stored<typeof eventSummarySchema>;

/** The maps behind the events: CowMaps of a live app, or plain Maps while a seeded base is built. */
export interface EventMaps {
  /** By place in the log: a number, so no key is made or hashed as text. */
  events: MapLike<StoredEvent, number>;
  eventKeys: MapLike<number>;
  eventIds: MapLike<number>;
  eventPeople: MapLike<EventPerson>;
  eventSummaries: MapLike<EventSummary>;
  tallies: MapLike<number>;
}

interface MapLike<V, K = string> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
  delete(key: K): unknown;
}

export const DEFAULT_MAX_EVENTS = 100_000;
export const MAX_METADATA_KEPT = 10;
export const MAX_METADATA_TEXT = 2048;
/** The real list only shows events of the last 90 days. */
export const LIST_WINDOW_SECONDS = 90 * 86_400;

export const FIRST = 'events:first';
export const NEXT = 'events:next';
/** Set in a seeded base: events placed before it are the base's (kept there whatever an app evicts). */
export const SEEDED = 'events:seeded';

// Joined, not concatenated: the engine keeps a concatenation of 13 characters or more as a chain of
// pieces (four 32-byte links for a duplicate key, kept with its event), which hashing and comparing
// the key have to walk; an array join makes one flat string.
export const dedupeKey = (customerId: string, name: string, createdAt: number): string => [customerId, name, createdAt].join('\u0000');
export const summaryKey = (customerId: string, name: string): string => [customerId, name].join('\u0000');

/** Anything holding the log's tallies: live or seeded maps, or a base being checked. */
type LogTallies = { tallies: { get(key: string): number | undefined } };

export function firstSeq(maps: LogTallies): number {
  return maps.tallies.get(FIRST) ?? 1;
}

export function nextSeq(maps: LogTallies): number {
  return maps.tallies.get(NEXT) ?? 1;
}

export const eventCount = (maps: LogTallies): number => nextSeq(maps) - firstSeq(maps);

/** Events read by link (a timeline step), counted so tests can pin that nothing walks a person's history. */
export const eventWork = { reads: 0 };

export function eventAt(maps: EventMaps, seq: number): StoredEvent | undefined {
  if (seq === 0) return undefined;
  eventWork.reads++;
  return maps.events.get(seq);
}

/**
 * What one event keeps: its metadata and texts, the record and its links, and its three map
 * entries (place, id, duplicate key); the summary entry is bounded by the events, counted in this.
 */
export const eventBytes = (e: EventRecord): number => keptBytes(e.metadata) + 4 * (e.customer_id.length + e.event_name.length) + 2 * e.id.length + 400;

/**
 * Puts the id of every event held into eventIds, which a new event's id is checked against. A
 * stream that runs on never draws an id again, so only two kinds of held ids can come back: the
 * seeded document's (a seed rewinds the streams; seedEvents puts those in the base's eventIds), and
 * those of a state restored without rewinding the streams (a snapshot restored with ids=fresh: the
 * streams may not have drawn its events' ids yet). The second call this, once per such restore:
 * O(the events held). Every other event stays out of eventIds, so adding and evicting one writes
 * nothing there.
 */
export function guardEventIds(maps: EventMaps): void {
  for (let seq = firstSeq(maps); seq < nextSeq(maps); seq++) {
    const e = maps.events.get(seq);
    if (e && maps.eventIds.get(e.id) === undefined) maps.eventIds.set(e.id, seq);
  }
}
