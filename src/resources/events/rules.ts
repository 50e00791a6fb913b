// Data events (POST /events, GET /events): kept per app in arrival order under a cap, the oldest out
// first. Each person's events also form a timeline ordered by created_at (links on the records), and
// each (person, name) pair a running summary, so submitting, evicting, paging and summarising never
// walk the app: eviction unlinks one record, a page follows links from where the last one stopped.

import { randomBytes } from 'node:crypto';
import { ApiError, apiError, invalid, missing, notFound } from '../../core/errors.js';
import { normalEmail } from '../../core/normal-text.js';
import { MAX_METADATA_SENT } from './shapes.js';
import type { AppState } from '../../engine/app-state.js';
import { addBytes, appBytes, keptBytes, type ByteBudgets } from '../../engine/byte-budget.js';
import type { Customer } from '../../engine/types.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { eventBodySchema } from './shapes.js';

/** A metadata value: text, a number, a rich link or a monetary amount (surface E1). */
export type EventMetadataValue = string | number | { url: string; value: string } | { amount: number; currency: string };
export type EventMetadata = Record<string, EventMetadataValue>;

/** An accepted event as the fixture document carries it (arrival order). */
export interface EventRecord {
  id: string;
  customer_id: string;
  event_name: string;
  created_at: number;
  metadata: EventMetadata;
  /** Its place in the app's log (the `_<n>` of a `before` cursor); the export writes it so a seed keeps cursors. */
  seq?: number;
}

/** The app's log bounds: the place of its oldest slot and the next place; slots of deleted people's events count. */
export interface EventLog {
  first: number;
  next: number;
}

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
export interface EventSummaryRecord {
  customer_id: string;
  name: string;
  count: number;
  first: number;
  last: number;
}

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

const FIRST = 'events:first';
const NEXT = 'events:next';
/** Set in a seeded base: events placed before it are the base's (kept there whatever an app evicts). */
const SEEDED = 'events:seeded';

// Joined, not concatenated: the engine keeps a concatenation of 13 characters or more as a chain of
// pieces (four 32-byte links for a duplicate key, kept with its event), which hashing and comparing
// the key have to walk; an array join makes one flat string.
const dedupeKey = (customerId: string, name: string, createdAt: number): string => [customerId, name, createdAt].join('\u0000');
const summaryKey = (customerId: string, name: string): string => [customerId, name].join('\u0000');

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

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

/**
 * The first ten members, each checked: text, a finite number (an integer Unix time for keys ending
 * `_date`), a rich link `{url, value}` or a monetary amount `{amount, currency}`; any other value
 * (booleans, null, arrays, other objects: the API keeps no nested JSON) is refused with the others.
 */
export function checkMetadata(value: unknown, app?: AppState): EventMetadata {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw invalid('metadata', 'metadata must be an object of at most 100 members.');
  const problems: { field: string; message: string }[] = [];
  const coerced: string[] = [];
  const out: EventMetadata = {};
  let n = 0;
  for (const key of Object.keys(value)) {
    if (++n > MAX_METADATA_SENT) {
      // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent, every caller (POST /events, bulk items) checks the body schema first, which refuses this (maxProperties)
      problems.push({ field: 'metadata', message: `metadata carries at most ${MAX_METADATA_SENT} members (the first ${MAX_METADATA_KEPT} are kept).` });
      break;
    }
    let checked = metadataValue(key, value[key]);
    if (checked instanceof CoercedBoolean) {
      // Strict mode refuses it in its place among the other members' problems.
      if (app?.requestWarnings?.refuses('coerced_value')) checked = problem(NOT_A_VALUE);
      else {
        coerced.push(key);
        checked = String(checked.value);
      }
    }
    if (key === '') problems.push({ field: 'metadata.', message: 'metadata names cannot be empty.' });
    else if (checked instanceof MetadataProblem) problems.push({ field: `metadata.${key}`, message: `metadata.${key} ${checked.text}` });
    else if (n > MAX_METADATA_KEPT) continue;
    // Defined, not assigned: a member named __proto__ is kept as data, not taken as the prototype.
    // Only that one: defining every member cost a descriptor object and the engine's slow path per event.
    else if (key === '__proto__') Object.defineProperty(out, key, { value: checked, enumerable: true, writable: true, configurable: true });
    else out[key] = checked;
  }
  if (problems.length > 0) throw new ApiError(problems.slice(0, 20).map((p) => ({ code: 'parameter_invalid' as const, ...p })));
  for (const key of coerced) {
    const text = String((value as Record<string, unknown>)[key]);
    app?.warn('coerced_value', `metadata.${key} ${NOT_A_VALUE.slice(0, -1)}: ${text} was read as "${text}".`, `metadata.${key}`, `metadata.${key} ${NOT_A_VALUE}`);
  }
  return out;
}

/** What is wrong with a metadata value; a class, so a kept value (text, number or plain object) is never mistaken for it. */
class MetadataProblem {
  constructor(readonly text: string) {}
}

/** A boolean read as its text. */
class CoercedBoolean {
  constructor(readonly value: boolean) {}
}

const problem = (text: string): MetadataProblem => new MetadataProblem(text);

/** Whether the object's own keys are exactly the two names (the order the client sent them in is free). */
const keysAre = (v: Record<string, unknown>, a: string, b: string): boolean => {
  const keys = Object.keys(v);
  return keys.length === 2 && ((keys[0] === a && keys[1] === b) || (keys[0] === b && keys[1] === a));
};

/** The value as kept, or what is wrong with it (no wrapper for a kept one: every member of every event passes here). */
function metadataValue(key: string, v: unknown): EventMetadataValue | MetadataProblem | CoercedBoolean {
  if (key.endsWith('_date')) {
    return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : problem('is a date: an integer Unix timestamp in seconds.');
  }
  if (typeof v === 'number') return Number.isFinite(v) ? v : problem('must be a finite number.');
  if (typeof v === 'string') return v.length <= MAX_METADATA_TEXT ? v : problem(`must be at most ${MAX_METADATA_TEXT} characters.`);
  if (isRecord(v)) {
    if (keysAre(v, 'url', 'value') && isText(v.url, MAX_METADATA_TEXT) && typeof v.value === 'string' && v.value.length <= MAX_METADATA_TEXT) {
      return { url: v.url, value: v.value };
    }
    if (keysAre(v, 'amount', 'currency') && typeof v.amount === 'number' && Number.isSafeInteger(v.amount) && isText(v.currency, 3)) {
      return { amount: v.amount, currency: v.currency };
    }
    return problem('must be a rich link {"url","value"} or a monetary amount {"amount" (integer cents), "currency"}; other nested objects are not kept.');
  }
  // Java's README sends a boolean (putMetadata("new_signup", true)): kept as its text, reported
  // once the other members are known to be good [I].
  if (typeof v === 'boolean') return new CoercedBoolean(v);
  return problem(NOT_A_VALUE);
}

const NOT_A_VALUE = 'must be text, a number, a rich link or a monetary amount.';

export interface PersonKeys {
  id?: string | null;
  user_id?: string | null;
  email?: string | null;
}

const present = (v: string | null | undefined): v is string => typeof v === 'string' && v !== '';

/**
 * The person an event is about: `id` names a user or a lead (leads are addressed by id only);
 * `user_id` and `email` name users. Checked in that order; the first given decides.
 */
export function eventPerson(app: AppState, keys: PersonKeys, field = 'user_id'): Customer {
  const unknown = () => notFound('User Not Found');
  if (present(keys.id)) {
    const c = app.data.customers.get(keys.id);
    if (!c || c.type === 'visitor') throw unknown();
    return c;
  }
  if (present(keys.user_id)) {
    const c = app.customerByUserId(keys.user_id);
    if (!c || c.type !== 'user') throw unknown();
    return c;
  }
  if (present(keys.email)) {
    const users = app.customersByEmail(keys.email).filter((c) => c.type === 'user');
    if (users.length > 1) {
      throw apiError('conflict', `Multiple existing users match this email address ${normalEmail(keys.email)} - must be more specific using user_id`, 'email');
    }
    if (users[0]) return users[0];
    throw unknown();
  }
  throw missing(field, 'An event needs the user_id, email or id of the person it is about.');
}

/** What the request sends, as its schema declares it. */
export type EventInput = StaticOf<typeof eventBodySchema>;

/**
 * What one event keeps: its metadata and texts, the record and its links, and its three map
 * entries (place, id, duplicate key); the summary entry is bounded by the events, counted in this.
 */
export const eventBytes = (e: EventRecord): number => keptBytes(e.metadata) + 4 * (e.customer_id.length + e.event_name.length) + 2 * e.id.length + 400;

/** Whether the event was stored (false: a duplicate of one held, still accepted). */
export function submitEvent(app: AppState, input: EventInput, maxEvents: number, budgets?: ByteBudgets): boolean {
  if (!isText(input.event_name, 255)) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: equivalent, every caller (POST /events, bulk items) checks the body schema first, which refuses this
    throw input.event_name === undefined || input.event_name === '' ? missing('event_name') : invalid('event_name', 'event_name must be text of 1 to 255 characters.');
  }
  const createdAt = input.created_at;
  if (createdAt === undefined || createdAt === null) throw missing('created_at');
  if (typeof createdAt !== 'number' || !Number.isSafeInteger(createdAt) || createdAt < 0 || createdAt > 253_402_300_799) {
    // Stryker disable next-line StringLiteral: equivalent, every caller (POST /events, bulk items) checks the body schema first, which refuses this
    throw invalid('created_at', 'created_at must be a Unix timestamp in seconds (an integer).');
  }
  const person = eventPerson(app, input);
  const metadata = checkMetadata(input.metadata, app);
  const maps = app.data;
  const dedupe = dedupeKey(person.id, input.event_name, createdAt);
  // Stryker disable next-line BooleanLiteral: equivalent, both callers (POST /events, bulk items) answer the same for a duplicate and ignore this
  if (heldAlready(maps, person.id, input.event_name, createdAt, dedupe)) return false;
  // The log's bounds read once: each eviction moves its start on by one.
  const next = nextSeq(maps);
  for (let first = firstSeq(maps); next - first >= maxEvents; first++) evictOldest(maps, first);
  let id = app.random.uuid();
  // Ids a stream can draw again while their events are held (see guardEventIds) are skipped.
  while (maps.eventIds.get(id) !== undefined) id = app.random.uuid();
  const record = { id, customer_id: person.id, event_name: input.event_name, created_at: createdAt, metadata };
  const bytes = eventBytes(record);
  if (budgets) makeRoom(app, budgets, bytes);
  addEvent(maps, record, bytes, dedupe);
  // Stryker disable next-line BooleanLiteral: equivalent, both callers (POST /events, bulk items) ignore the answer
  return true;
}

/**
 * Whether the person holds an event of this name created at this second (the duplicate rule). An
 * event newer than all of its person's (events as they happen) has none, without a lookup; the
 * newest itself is compared; every other event held is in eventKeys (addEvent keys an event once
 * a newer one of its person's arrives, and a backdated one at once; a seeded base keys all), so
 * one lookup decides, whatever the timeline holds.
 */
function heldAlready(maps: EventMaps, cid: string, name: string, at: number, dedupe: string): boolean {
  const person = maps.eventPeople.get(cid);
  const newest = person === undefined ? undefined : eventAt(maps, person.newest);
  if (newest === undefined || newest.created_at < at) return false;
  if (newest.created_at === at && newest.event_name === name) return true;
  return maps.eventKeys.get(dedupe) !== undefined;
}

/**
 * The events of every app share one byte budget: past it this app's oldest go first, as past the
 * count; what other apps hold is theirs, so an app with nothing left to give is refused.
 */
function makeRoom(app: AppState, budgets: ByteBudgets, bytes: number): void {
  const over = budgets.excess(app, 'events', bytes);
  if (over === 0) return;
  // Seeded events stay in the base whatever the app gives up, so only its own additions can make room.
  const target = appBytes(app, 'events') - over;
  while (target >= 0 && eventCount(app.data) > 0 && appBytes(app, 'events') > target) evictOldest(app.data);
  // Counted now that the room is made (exact: the recount above saw every app).
  if (target < 0 || appBytes(app, 'events') > target || !budgets.fits(app, 'events', bytes)) {
    throw apiError(
      'resource_limit_exceeded',
      `The events of every app already hold close to ${budgets.limits.events} bytes, the most the mock keeps, and this app has no older event left to give up; reset apps, or send smaller metadata.`,
    );
  }
}

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

/** Appends one event to the log, its person's timeline and its summary; O(1) unless it is backdated. */
export function addEvent(maps: EventMaps, record: EventRecord, bytes = eventBytes(record), dedupe = dedupeKey(record.customer_id, record.event_name, record.created_at)): void {
  const seq = nextSeq(maps);
  maps.tallies.set(NEXT, seq + 1);
  if (maps.tallies.get(FIRST) === undefined) maps.tallies.set(FIRST, seq);
  const cid = record.customer_id;
  const person = maps.eventPeople.get(cid) ?? { newest: 0, oldest: 0, first_name: null, last_name: null };
  const added = person.added ?? 0;
  const height = levelOf(cid, added);
  const { older, newer } = placeOf(maps, person, record.created_at, height);
  // Literals of one shape, not spreads: a spread of records from several callers (requests, bulk
  // items, fixtures) goes the engine's slow generic copy, the costliest line of a POST /events.
  const stored: StoredEvent = {
    id: record.id,
    customer_id: cid,
    event_name: record.event_name,
    created_at: record.created_at,
    metadata: record.metadata,
    seq,
    older: older[0]?.seq ?? 0,
    newer: newer[0]?.seq ?? 0,
    dedupe,
    bytes,
  };
  if (height > 0) {
    stored.links = [];
    for (let l = 1; l <= height; l++) stored.links.push(older[l]?.seq ?? 0, newer[l]?.seq ?? 0);
  }
  maps.events.set(seq, stored);
  addBytes(maps.tallies, 'events', bytes);
  const relinks = new Relinks(maps);
  const personNext: EventPerson = { newest: person.newest, oldest: older[0] ? person.oldest : seq, added: added + 1, first_name: person.first_name, last_name: person.last_name };
  if (person.tops !== undefined) personNext.tops = person.tops;
  for (let l = 0; l <= height; l++) {
    const o = older[l];
    const n = newer[l];
    if (o) relinks.setNewer(o, l, seq);
    if (n) relinks.setOlder(n, l, seq);
    else setNewestAt(personNext, l, seq);
  }
  relinks.write();
  // Every event but its person's newest is keyed (heldAlready): the one it follows as the newest
  // now, or itself when it is backdated.
  const previous = older[0];
  if (newer[0] !== undefined) maps.eventKeys.set(dedupe, seq);
  else if (previous !== undefined) maps.eventKeys.set(previous.dedupe, previous.seq);
  const key = summaryKey(cid, record.event_name);
  const summary = maps.eventSummaries.get(key);
  if (summary) {
    const counted = copySummary(summary);
    counted.count++;
    counted.first = Math.min(summary.first, record.created_at);
    counted.last = Math.max(summary.last, record.created_at);
    counted.kept++;
    maps.eventSummaries.set(key, counted);
  } else {
    appendSummary(maps, personNext, cid, { name: record.event_name, count: 1, first: record.created_at, last: record.created_at, kept: 1, prev: null, next: null });
  }
  maps.eventPeople.set(cid, personNext);
}

// A person's timeline is a skip list: every event is on level 0 (older/newer), and one in 4^l
// also on level l (links), chosen by a keyed hash of the person and the event's index in that
// person's timeline. Finding where an event goes, or where a bare `before=<ms>` starts, descends
// the levels from the newest end: O(log k) reads in the person's k events, expected whatever the
// order of their times. With levels a client could compute, it could give the events of level 0
// (three in four) the oldest times and make every descent into that stretch walk them.
const MAX_LEVEL = 9;

/**
 * The key of the level hash: drawn from the OS once per process, the one value of the mock not
 * derived from its seed. Levels decide only how many records a descent reads, never what an answer
 * holds (a restored or re-seeded app keeps or recomputes them alike), so responses stay a function
 * of seed and requests while no client knows which events the levels skip.
 */
let levelKey = randomBytes(4).readUInt32LE(0);

/** Sets the level key (tests that count reads, or play a client that guessed it); returns the last one. */
export function setLevelKey(key: number): number {
  const was = levelKey;
  levelKey = key >>> 0;
  return was;
}

/** The skip levels the `index`-th event of person `cid` is on above level 0 (a quarter per level up). */
export function levelOf(cid: string, index: number, key = levelKey): number {
  let seed = (index ^ key) >>> 0;
  for (let i = 0; i < cid.length; i++) seed = Math.imul(seed ^ cid.charCodeAt(i), 0x01000193);
  let h = Math.imul(seed ^ (seed >>> 16), 0x45d9f3b) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0;
  let level = 0;
  while (level < MAX_LEVEL && (h & 3) === 0) {
    level++;
    h >>>= 2;
  }
  return level;
}

// Stryker disable next-line OptionalChaining: equivalent, above level 0 it is only asked of events on that level (seek descends from one, evictOldest stops at the height), which hold links
const olderAt = (e: StoredEvent, l: number): number => (l === 0 ? e.older : (e.links?.[2 * (l - 1)] ?? 0));
// Stryker disable next-line OptionalChaining: equivalent, above level 0 it is only asked of events on that level (evictOldest stops at the height), which hold links
const newerAt = (e: StoredEvent, l: number): number => (l === 0 ? e.newer : (e.links?.[2 * (l - 1) + 1] ?? 0));
const newestAt = (p: EventPerson, l: number): number => (l === 0 ? p.newest : (p.tops?.[l - 1] ?? 0));

/** Writes of one change: each touched event copied once (links too), whatever levels it changes on. */
class Relinks {
  /**
   * The copies in the order made: a change touches one event a level it is on (mostly one in all),
   * so a scan of this short list finds a copy; a Map and its iteration cost more than the copy.
   */
  private readonly copies: StoredEvent[] = [];
  constructor(private readonly maps: EventMaps) {}
  private copy(e: StoredEvent): StoredEvent {
    for (const c of this.copies) if (c.seq === e.seq) return c;
    // A literal of addEvent's shape, not a spread: an event in order copies its older neighbour.
    // prettier-ignore
    const c: StoredEvent = { id: e.id, customer_id: e.customer_id, event_name: e.event_name, created_at: e.created_at, metadata: e.metadata, seq: e.seq, older: e.older, newer: e.newer, dedupe: e.dedupe, bytes: e.bytes };
    if (e.links) c.links = [...e.links];
    this.copies.push(c);
    return c;
  }
  setOlder(e: StoredEvent, l: number, seq: number): void {
    const c = this.copy(e);
    if (l === 0) c.older = seq;
    else (c.links as number[])[2 * (l - 1)] = seq;
  }
  setNewer(e: StoredEvent, l: number, seq: number): void {
    const c = this.copy(e);
    if (l === 0) c.newer = seq;
    else (c.links as number[])[2 * (l - 1) + 1] = seq;
  }
  write(): void {
    for (const e of this.copies) this.maps.events.set(e.seq, e);
  }
}

function setNewestAt(p: EventPerson, l: number, seq: number): void {
  if (l === 0) p.newest = seq;
  else {
    const tops = [...(p.tops ?? [])];
    while (tops.length < l) tops.push(0);
    tops[l - 1] = seq;
    p.tops = tops;
  }
}

/**
 * The neighbours, at every level, of the place after every event for which `newerThanPlace` is
 * true (they come first, newest first, along the timeline): `newer[l]` the oldest of those on
 * level l, `older[l]` the newest of the others.
 */
function seek(maps: EventMaps, person: EventPerson, newerThanPlace: (e: StoredEvent) => boolean): { newer: (StoredEvent | undefined)[]; older: (StoredEvent | undefined)[] } {
  // Stryker disable next-line ArrayDeclaration: equivalent, the loop below writes every level from MAX_LEVEL down to 0 before anything reads one
  const newer: (StoredEvent | undefined)[] = [];
  // Stryker disable next-line ArrayDeclaration: equivalent, as newer's
  const older: (StoredEvent | undefined)[] = [];
  let cur: StoredEvent | undefined;
  for (let l = MAX_LEVEL; l >= 0; l--) {
    const first = cur ? olderAt(cur, l) : newestAt(person, l);
    let next = first === 0 ? undefined : eventAt(maps, first);
    while (next && newerThanPlace(next)) {
      cur = next;
      const o = olderAt(cur, l);
      next = o === 0 ? undefined : eventAt(maps, o);
    }
    newer[l] = cur;
    older[l] = next;
  }
  return { newer, older };
}

/**
 * Where an event created at `at` goes in a person's timeline, on every level up to `height`: after
 * every event created at or before it, before every later one. An event newer than all (events as
 * they happen) costs a read a level it is on; any other a descent of the skip levels, O(log k).
 */
function placeOf(maps: EventMaps, person: EventPerson, at: number, height: number): { newer: (StoredEvent | undefined)[]; older: (StoredEvent | undefined)[] } {
  const newest = eventAt(maps, person.newest);
  // Stryker disable next-line BlockStatement: equivalent, without this shortcut seek finds the same place (after every event created at or before `at`) at about the same cost, one read a level
  if (!newest || newest.created_at <= at) {
    // Stryker disable next-line ArrayDeclaration: equivalent, the loop writes every level from 0 up before anything reads one
    const older: (StoredEvent | undefined)[] = [];
    for (let l = 0; l <= height; l++) {
      const seq = newestAt(person, l);
      older[l] = l === 0 ? newest : seq === 0 ? undefined : eventAt(maps, seq);
    }
    return { newer: [], older };
  }
  return seek(maps, person, (e) => e.created_at > at);
}

/** Links a new summary entry at the end of its person's list; `person` is updated in place (a fresh copy). */
function appendSummary(maps: EventMaps, person: EventPerson, cid: string, entry: EventSummary): void {
  const last = person.last_name;
  maps.eventSummaries.set(summaryKey(cid, entry.name), { ...entry, prev: last, next: null });
  if (last !== null) {
    const tail = maps.eventSummaries.get(summaryKey(cid, last));
    if (tail) maps.eventSummaries.set(summaryKey(cid, last), { ...tail, next: entry.name });
  } else {
    person.first_name = entry.name;
  }
  person.last_name = entry.name;
}

/** Drops the oldest event of the app (`seq`, the log's first place): one record unlinked from its timeline, its summary counted down. */
export function evictOldest(maps: EventMaps, seq = firstSeq(maps)): void {
  maps.tallies.set(FIRST, seq + 1);
  const gone = eventAt(maps, seq);
  if (!gone) return;
  maps.events.delete(seq);
  // A seeded event stays in the base's maps: only the API's own additions give back their bytes.
  if (seq >= (maps.tallies.get(SEEDED) ?? 0)) addBytes(maps.tallies, 'events', -gone.bytes);
  maps.eventKeys.delete(gone.dedupe);
  maps.eventIds.delete(gone.id);
  const cid = gone.customer_id;
  const person = maps.eventPeople.get(cid);
  const next: EventPerson | undefined = person ? copyPerson(person) : undefined;
  // Unlinked on every level it is on: O(its levels), never a search.
  const relinks = new Relinks(maps);
  const height = (gone.links?.length ?? 0) / 2;
  for (let l = 0; l <= height; l++) {
    const o = olderAt(gone, l);
    const n = newerAt(gone, l);
    const older = o === 0 ? undefined : eventAt(maps, o);
    const newer = n === 0 ? undefined : eventAt(maps, n);
    if (older) relinks.setNewer(older, l, n);
    if (newer) relinks.setOlder(newer, l, o);
    else if (next) setNewestAt(next, l, o);
    if (l === 0 && !older && next) next.oldest = n;
  }
  relinks.write();
  // Stryker disable next-line LogicalOperator: equivalent, next is a copy of person: both are defined or neither
  if (!person || !next) return;
  const key = summaryKey(cid, gone.event_name);
  const summary = maps.eventSummaries.get(key);
  if (summary && summary.kept > 1) {
    const left = copySummary(summary);
    left.kept--;
    maps.eventSummaries.set(key, left);
  } else if (summary) unlinkSummary(maps, next, cid, summary);
  if (next.newest === 0) maps.eventPeople.delete(cid);
  else maps.eventPeople.set(cid, next);
}

/** A fresh summary entry to change before it is stored: a literal of one shape, not a spread. */
const copySummary = (s: EventSummary): EventSummary => ({ name: s.name, count: s.count, first: s.first, last: s.last, kept: s.kept, prev: s.prev, next: s.next });

/** A literal of addEvent's shape (every stored person has `added`), not a spread, which takes the engine's generic copy. */
function copyPerson(p: EventPerson): EventPerson {
  const c: EventPerson = { newest: p.newest, oldest: p.oldest, added: p.added, first_name: p.first_name, last_name: p.last_name };
  if (p.tops !== undefined) c.tops = p.tops;
  return c;
}

function unlinkSummary(maps: EventMaps, person: EventPerson, cid: string, entry: EventSummary): void {
  maps.eventSummaries.delete(summaryKey(cid, entry.name));
  if (entry.prev !== null) {
    const prev = maps.eventSummaries.get(summaryKey(cid, entry.prev));
    if (prev) maps.eventSummaries.set(summaryKey(cid, entry.prev), { ...prev, next: entry.next });
  } else {
    person.first_name = entry.next;
  }
  if (entry.next !== null) {
    const next = maps.eventSummaries.get(summaryKey(cid, entry.next));
    if (next) maps.eventSummaries.set(summaryKey(cid, entry.next), { ...next, prev: entry.prev });
  } else {
    person.last_name = entry.prev;
  }
}

/** Where a page starts: `before=<ms>` (events created strictly earlier) or the exact `<ms>_<seq>` a next link carries. */
export interface Cursor {
  ms: number;
  seq?: number;
}

const CURSOR = /^([0-9]{1,16})(?:_([0-9]{1,15}))?$/;

export function parseCursor(value: unknown): Cursor | undefined {
  if (value === undefined) return undefined;
  const m = typeof value === 'string' ? CURSOR.exec(value) : null;
  if (!m) throw invalid('before', 'before must be the value a next link carries: a time in milliseconds, optionally followed by _ and a number.');
  return m[2] === undefined ? { ms: Number(m[1]) } : { ms: Number(m[1]), seq: Number(m[2]) };
}

export const cursorOf = (e: StoredEvent): string => `${e.created_at * 1000}_${e.seq}`;

/** Whether `e` comes after (is older than) the cursor in newest-first order. */
function pastCursor(e: StoredEvent, c: Cursor): boolean {
  const ms = e.created_at * 1000;
  if (c.seq === undefined) return ms < c.ms;
  return ms < c.ms || (ms === c.ms && e.seq < c.seq);
}

/**
 * One page of a person's events, newest first, and whether more follow. A cursor naming an event
 * still held (what a next link carries) starts at its older neighbour: the page costs its own
 * length. Otherwise the timeline is read from the newest until the cursor is passed.
 */
export function eventPage(
  maps: EventMaps,
  customerId: string,
  cursor: Cursor | undefined,
  perPage: number,
  now: number,
  // The API lists the last 90 days; the console (Infinity) every event held.
  windowSeconds = LIST_WINDOW_SECONDS,
): { items: StoredEvent[]; more: boolean } {
  const oldest = now - windowSeconds;
  let e: StoredEvent | undefined;
  const anchor = cursor?.seq === undefined ? undefined : eventAt(maps, cursor.seq);
  if (cursor && anchor && anchor.customer_id === customerId && anchor.created_at * 1000 === cursor.ms) {
    e = eventAt(maps, anchor.older);
  } else {
    const person = maps.eventPeople.get(customerId);
    // A bare time (or a cursor whose event is gone) descends the skip levels: O(log k).
    if (!person) e = undefined;
    else if (cursor) e = seek(maps, person, (x) => !pastCursor(x, cursor)).older[0];
    else e = eventAt(maps, person.newest);
  }
  const items: StoredEvent[] = [];
  while (e && e.created_at >= oldest && items.length < perPage) {
    items.push(e);
    e = eventAt(maps, e.older);
  }
  return { items, more: e !== undefined && e.created_at >= oldest };
}

/** A person's summary entries, names in the order first seen. */
export function summariesOf(maps: EventMaps, customerId: string): EventSummary[] {
  const out: EventSummary[] = [];
  let name = maps.eventPeople.get(customerId)?.first_name ?? null;
  while (name !== null) {
    const s = maps.eventSummaries.get(summaryKey(customerId, name));
    if (!s) break;
    out.push(s);
    name = s.next;
  }
  return out;
}

/**
 * The events in arrival order with their places in the log, the log's bounds, and the summaries
 * person by person in their list order, for the fixture document. Events of people deleted since
 * (a permanent deletion, a deleted or merged lead) stay in the log until they age out, but nothing
 * can read them, so the document leaves them out; the bounds keep their slots, which still count
 * against the cap.
 */
export function exportEvents(
  maps: EventMaps,
  isPerson: (id: string) => boolean,
): { events: EventRecord[]; summaries: EventSummaryRecord[]; log: EventLog | undefined } {
  const events: EventRecord[] = [];
  const summaries: EventSummaryRecord[] = [];
  const seen = new Set<string>();
  for (let seq = firstSeq(maps); seq < nextSeq(maps); seq++) {
    const e = eventAt(maps, seq);
    if (!e || !isPerson(e.customer_id)) continue;
    events.push({ id: e.id, customer_id: e.customer_id, event_name: e.event_name, created_at: e.created_at, metadata: e.metadata, seq });
    if (seen.has(e.customer_id)) continue;
    seen.add(e.customer_id);
    for (const s of summariesOf(maps, e.customer_id)) summaries.push({ customer_id: e.customer_id, name: s.name, count: s.count, first: s.first, last: s.last });
  }
  const log = maps.tallies.get(NEXT) === undefined ? undefined : { first: firstSeq(maps), next: nextSeq(maps) };
  return { events, summaries, log };
}

type Problem = { path: string; problem: string } | undefined;

/**
 * Builds the event maps of a seeded base: the log bounds set, the events replayed in order (each
 * at its `seq` when given, else at the next place), then the exported summaries laid over the
 * derived ones and put in the document's order. Returns the problem of the first bad entry.
 */
export function seedEvents(
  maps: EventMaps,
  doc: { events: readonly EventRecord[]; event_summaries: readonly EventSummaryRecord[]; event_log?: EventLog | undefined },
  isPerson: (id: string) => boolean,
): Problem {
  const { events, event_summaries: summaries, event_log: log } = doc;
  if (log) {
    if (log.next < log.first) return { path: 'event_log.next', problem: 'next cannot come before first' };
    maps.tallies.set(FIRST, log.first);
    maps.tallies.set(NEXT, log.first);
  }
  for (const [i, e] of events.entries()) {
    if (!isPerson(e.customer_id)) return { path: `events[${i}].customer_id`, problem: `unknown user or lead "${e.customer_id}"` };
    if (maps.eventIds.get(e.id) !== undefined) return { path: `events[${i}].id`, problem: `duplicate id "${e.id}"` };
    if (maps.eventKeys.get(dedupeKey(e.customer_id, e.event_name, e.created_at)) !== undefined) {
      return { path: `events[${i}]`, problem: 'a duplicate of an earlier event (same person, event_name and created_at)' };
    }
    if (e.seq !== undefined) {
      // An empty log's next place is 1, below every place (they start at 1).
      if (e.seq < nextSeq(maps)) return { path: `events[${i}].seq`, problem: 'places in the log must increase along the list' };
      if (log && e.seq >= log.next) return { path: `events[${i}].seq`, problem: 'past event_log.next' };
      // addEvent takes this place, and makes it the log's first if the log has none.
      maps.tallies.set(NEXT, e.seq);
    }
    const { seq: _place, ...record } = e;
    const dedupe = dedupeKey(e.customer_id, e.event_name, e.created_at);
    addEvent(maps, record, eventBytes(record), dedupe);
    // A seeded base keys every event: its own duplicates are found here, and a rewound stream's ids skipped.
    maps.eventKeys.set(dedupe, nextSeq(maps) - 1);
    maps.eventIds.set(e.id, nextSeq(maps) - 1);
  }
  if (log) {
    if (nextSeq(maps) > log.next) return { path: 'event_log.next', problem: 'the events take more places than the log holds' };
    maps.tallies.set(NEXT, log.next);
  }
  maps.tallies.set(SEEDED, nextSeq(maps));
  const order = new Map<string, string[]>();
  const listed = new Set<string>();
  for (const [i, s] of summaries.entries()) {
    const key = summaryKey(s.customer_id, s.name);
    const entry = maps.eventSummaries.get(key);
    if (!entry) return { path: `event_summaries[${i}]`, problem: `no event of "${s.name}" for "${s.customer_id}" in events` };
    if (s.count < entry.kept || s.first > entry.first || s.last < entry.last) {
      return { path: `event_summaries[${i}]`, problem: 'count, first and last must cover the events of that name' };
    }
    if (listed.has(key)) return { path: `event_summaries[${i}]`, problem: `a second entry of "${s.name}" for "${s.customer_id}"` };
    listed.add(key);
    maps.eventSummaries.set(key, { ...entry, count: s.count, first: s.first, last: s.last });
    const names = order.get(s.customer_id);
    if (names) names.push(s.name);
    else order.set(s.customer_id, [s.name]);
  }
  for (const [cid, names] of order) relinkSummaries(maps, cid, names);
  return undefined;
}

/**
 * Puts a person's summary list in the order given (names first seen before their first kept event
 * was evicted keep their place), the names not given after them in the order the events gave.
 */
function relinkSummaries(maps: EventMaps, cid: string, listed: readonly string[]): void {
  const person = maps.eventPeople.get(cid);
  if (!person) return;
  const given = new Set(listed);
  const names = [...listed, ...summariesOf(maps, cid).flatMap((s) => (given.has(s.name) ? [] : [s.name]))];
  names.forEach((name, i) => {
    const key = summaryKey(cid, name);
    const entry = maps.eventSummaries.get(key);
    if (entry) maps.eventSummaries.set(key, { ...entry, prev: names[i - 1] ?? null, next: names[i + 1] ?? null });
  });
  maps.eventPeople.set(cid, { ...person, first_name: names[0] ?? null, last_name: names[names.length - 1] ?? null });
}
