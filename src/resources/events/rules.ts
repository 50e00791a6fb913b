// Data events (POST /events, GET /events): kept per app in arrival order under a cap, the oldest out
// first. Each person's events also form a timeline ordered by created_at (links on the records), and
// each (person, name) pair a running summary, so submitting, evicting, paging and summarising never
// walk the app: eviction unlinks one record, a page follows links from where the last one stopped.

import { apiError, invalid, missing, notFound } from '../../core/errors.js';
import { normalEmail } from '../../core/normal-text.js';
import type { AppState } from '../../state/app-state.js';
import { appBytes, type ByteBudgets } from '../../engine/byte-budget.js';
import type { Customer } from '../../engine/types.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { eventBodySchema } from './shapes.js';
import { type EventLog, type EventMaps, type EventRecord, type EventSummary, type EventSummaryRecord, FIRST, LIST_WINDOW_SECONDS, NEXT, SEEDED, type StoredEvent, dedupeKey, eventAt, eventBytes, eventCount, firstSeq, nextSeq, summaryKey } from './log.js';
import { addEvent, evictOldest, seek } from './timeline.js';
import { checkMetadata, isText } from './metadata.js';
import { customerByUserId, customersByEmail } from '../customers/indexes.js';

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
    const c = customerByUserId(app, keys.user_id);
    if (!c || c.type !== 'user') throw unknown();
    return c;
  }
  if (present(keys.email)) {
    const users = customersByEmail(app, keys.email).filter((c) => c.type === 'user');
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
