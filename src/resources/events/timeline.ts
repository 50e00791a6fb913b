// Each person's events as a timeline ordered by created_at (links on the records, a skip list) and
// each (person, name) pair's running summary, kept by adding and evicting, so submitting, evicting,
// paging and summarising never walk the app.

import { randomBytes } from 'node:crypto';
import { addBytes } from '../../engine/byte-budget.js';
import { type EventMaps, type EventPerson, type EventRecord, type EventSummary, FIRST, NEXT, SEEDED, type StoredEvent, dedupeKey, eventAt, eventBytes, firstSeq, nextSeq, summaryKey } from './log.js';

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
export function seek(maps: EventMaps, person: EventPerson, newerThanPlace: (e: StoredEvent) => boolean): { newer: (StoredEvent | undefined)[]; older: (StoredEvent | undefined)[] } {
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
