// A seed's events, summaries and log bounds (store/events.ts, seedEvents): each bad entry refused
// with 400 parameter_invalid naming it, the app left unseeded; a good one exported back with its
// places, its bounds and its summaries in the order the document gave.

import { describe, expect, it } from 'vitest';
import { errorCodes, mock, TEST_NOW, type TestMock } from '../helpers.js';

const T = TEST_NOW - 3600;
const U1 = 'u0000000000000000000000a';
const U2 = 'u0000000000000000000000b';
const VISITOR = 'u0000000000000000000000c';
const GONE = 'a0000000000000000000000a';

type Doc = Record<string, any>;

const doc = (extra: Doc): Doc => ({
  app: { id: 'evs', tokens: ['evs-token'] },
  customers: [
    { id: U1, user_id: 'one' },
    { id: U2, type: 'contact', user_id: 'lead-1' },
    { id: VISITOR, type: 'visitor', user_id: 'visitor-1' },
  ],
  archived_customers: [{ id: GONE, user_id: 'gone-1' }],
  ...extra,
});

const ev = (id: string, customer_id: string, event_name: string, created_at: number, seq?: number): Doc =>
  seq === undefined ? { id, customer_id, event_name, created_at } : { id, customer_id, event_name, created_at, seq };

const seed = (m: TestMock, body: Doc) => m.call('POST', '/__admin/seed', { token: null, body });
const exported = async (m: TestMock) => (await m.call('GET', '/__admin/state?app=evs', { token: null })).body;
const places = (state: Doc) => state.events.map((e: Doc) => [e.id, e.seq]);

async function refused(extra: Doc, field: string): Promise<void> {
  const m = mock();
  const res = await seed(m, doc(extra));
  expect(res.status, res.text).toBe(400);
  expect(errorCodes(res)).toEqual(['parameter_invalid']);
  expect(res.body.errors[0].field).toBe(field);
  expect((await m.call('GET', '/__admin/state?app=evs', { token: null })).status).toBe(404);
}

async function seeded(extra: Doc): Promise<Doc> {
  const m = mock();
  const res = await seed(m, doc(extra));
  expect(res.status, res.text).toBe(200);
  return exported(m);
}

describe('POST /__admin/seed: events refused, naming the entry', () => {
  const s = (customer_id: string, name: string, count: number, first: number, last: number): Doc => ({ customer_id, name, count, first, last });
  const two = [ev('e-1', U1, 'a', T - 20), ev('e-2', U1, 'a', T - 10)];
  const cases: [string, Doc, string][] = [
    ['a log whose next comes before its first', { event_log: { first: 5, next: 4 } }, 'event_log.next'],
    // Refused on the log before any event is read, so not on the event's place.
    ['a log whose next comes before its first, with a placed event', { event_log: { first: 5, next: 4 }, events: [ev('e-1', U1, 'a', T, 5)] }, 'event_log.next'],
    ['an event of a person the document lacks', { events: [ev('e-1', U1, 'a', T), ev('e-2', 'u00000000000000000000099', 'a', T)] }, 'events[1].customer_id'],
    ['an event of a visitor', { events: [ev('e-1', VISITOR, 'a', T)] }, 'events[0].customer_id'],
    ['a duplicate event id', { events: [ev('e-1', U1, 'a', T), ev('e-1', U1, 'b', T)] }, 'events[1].id'],
    ['a second event of the same person, name and time', { events: [ev('e-1', U1, 'a', T), ev('e-2', U1, 'a', T)] }, 'events[1]'],
    ['places that go back', { events: [ev('e-1', U1, 'a', T, 5), ev('e-2', U1, 'b', T, 4)] }, 'events[1].seq'],
    ['a place taken twice', { events: [ev('e-1', U1, 'a', T, 5), ev('e-2', U1, 'b', T, 5)] }, 'events[1].seq'],
    ['a place after an unplaced event that took it', { events: [ev('e-1', U1, 'a', T), ev('e-2', U1, 'b', T, 1)] }, 'events[1].seq'],
    ['a place at the log\'s next', { event_log: { first: 1, next: 3 }, events: [ev('e-1', U1, 'a', T, 3)] }, 'events[0].seq'],
    ['more events than the log holds', { event_log: { first: 1, next: 2 }, events: two }, 'event_log.next'],
    ['a summary of a name with no event', { events: two, event_summaries: [s(U1, 'b', 1, T, T)] }, 'event_summaries[0]'],
    ['a summary of another person', { events: two, event_summaries: [s(U2, 'a', 2, T - 20, T - 10)] }, 'event_summaries[0]'],
    ['a count under the events kept', { events: two, event_summaries: [s(U1, 'a', 1, T - 20, T - 10)] }, 'event_summaries[0]'],
    ['a first after the oldest kept', { events: two, event_summaries: [s(U1, 'a', 2, T - 19, T - 10)] }, 'event_summaries[0]'],
    ['a last before the newest kept', { events: two, event_summaries: [s(U1, 'a', 2, T - 20, T - 11)] }, 'event_summaries[0]'],
    ['a second summary of one name', { events: two, event_summaries: [s(U1, 'a', 2, T - 20, T - 10), s(U1, 'a', 3, T - 30, T - 10)] }, 'event_summaries[1]'],
  ];
  for (const [what, extra, field] of cases) it(`refuses ${what}`, () => refused(extra, field));
});

describe('POST /__admin/seed: events kept', () => {
  it('a log whose next equals its first holds no event, and the app counts from there', async () => {
    const m = mock();
    expect((await seed(m, doc({ event_log: { first: 7, next: 7 } }))).status).toBe(200);
    expect((await exported(m)).event_log).toEqual({ first: 7, next: 7 });
    const res = await m.call('POST', '/events', { token: 'evs-token', body: { event_name: 'n', created_at: T, user_id: 'one' } });
    expect(res.status).toBe(202);
    const after = await exported(m);
    expect(after.event_log).toEqual({ first: 7, next: 8 });
    expect(after.events.map((e: Doc) => e.seq)).toEqual([7]);
  });

  it('places given without a log set the bounds from the first place; gaps stay empty', async () => {
    const state = await seeded({ events: [ev('e-1', U1, 'a', T - 2, 5), ev('e-2', U2, 'a', T - 1, 8), ev('e-3', GONE, 'a', T)] });
    expect(state.event_log).toEqual({ first: 5, next: 10 });
    expect(places(state)).toEqual([['e-1', 5], ['e-2', 8], ['e-3', 9]]);
  });

  it('the export leaves out the events of a person deleted since, keeping their places in the bounds', async () => {
    const m = mock();
    expect((await seed(m, doc({ events: [ev('e-1', U1, 'a', T - 2), ev('e-2', U2, 'a', T - 1)] }))).status).toBe(200);
    expect((await m.call('POST', '/user_delete_requests', { token: 'evs-token', body: { intercom_user_id: U1 } })).status).toBe(200);
    const state = await exported(m);
    expect(places(state)).toEqual([['e-2', 2]]);
    expect(state.event_summaries.map((s: Doc) => s.customer_id)).toEqual([U2]);
    expect(state.event_log).toEqual({ first: 1, next: 3 });
  });

  it('the cap pushes out an empty place of a seeded log as it would an event', async () => {
    const m = mock({ limits: { events: 5 } });
    expect((await seed(m, doc({ events: [ev('e-1', U1, 'a', T - 3, 5), ev('e-2', U1, 'b', T - 2, 8), ev('e-3', U1, 'c', T - 1, 9)] }))).status).toBe(200);
    // Five places (5 to 9) at a cap of 5: each new event pushes out place 5, then the empty 6.
    for (const name of ['d', 'e']) expect((await m.call('POST', '/events', { token: 'evs-token', body: { event_name: name, created_at: T, user_id: 'one' } })).status).toBe(202);
    const state = await exported(m);
    expect(state.event_log).toEqual({ first: 7, next: 12 });
    expect(places(state)).toEqual([['e-2', 8], ['e-3', 9], [state.events[2].id, 10], [state.events[3].id, 11]]);
  });

  it('a log wider than its events keeps its bounds', async () => {
    const state = await seeded({ event_log: { first: 3, next: 20 }, events: [ev('e-1', U1, 'a', T - 1), ev('e-2', U1, 'a', T, 12)] });
    expect(state.event_log).toEqual({ first: 3, next: 20 });
    expect(places(state)).toEqual([['e-1', 3], ['e-2', 12]]);
  });

  it('the summaries keep the document\'s figures and order; names it leaves out follow in first-seen order', async () => {
    const events = [ev('e-1', U1, 'a', T - 30), ev('e-2', U1, 'b', T - 20), ev('e-3', U1, 'c', T - 10), ev('e-4', U1, 'd', T - 5), ev('e-5', U2, 'x', T)];
    // At the edges: the count equal to the kept events, first and last those of the events.
    const given = [
      { customer_id: U1, name: 'c', count: 1, first: T - 10, last: T - 10 },
      { customer_id: U1, name: 'a', count: 4, first: T - 100, last: T - 30 },
    ];
    const state = await seeded({ events, event_summaries: given });
    expect(state.event_summaries).toEqual([
      ...given,
      { customer_id: U1, name: 'b', count: 1, first: T - 20, last: T - 20 },
      { customer_id: U1, name: 'd', count: 1, first: T - 5, last: T - 5 },
      { customer_id: U2, name: 'x', count: 1, first: T, last: T },
    ]);
  });

  it('the summary list stays linked once reordered: a new name goes last, an evicted one leaves its neighbours joined', async () => {
    const m = mock({ limits: { events: 3 } });
    const events = [ev('e-1', U1, 'a', T - 30), ev('e-2', U1, 'b', T - 20), ev('e-3', U1, 'c', T - 10)];
    const given = [
      { customer_id: U1, name: 'c', count: 1, first: T - 10, last: T - 10 },
      { customer_id: U1, name: 'a', count: 1, first: T - 30, last: T - 30 },
      { customer_id: U1, name: 'b', count: 1, first: T - 20, last: T - 20 },
    ];
    expect((await seed(m, doc({ events, event_summaries: given }))).status).toBe(200);
    // The fourth event pushes out the oldest (a, in the middle of the list): c and b are joined.
    expect((await m.call('POST', '/events', { token: 'evs-token', body: { event_name: 'e', created_at: T, user_id: 'one' } })).status).toBe(202);
    const summaries = await m.call('GET', '/events?type=user&user_id=one&summary=true', { token: 'evs-token' });
    expect(summaries.body.events.map((e: Doc) => e.name)).toEqual(['c', 'b', 'e']);
    expect((await exported(m)).event_summaries.map((e: Doc) => e.name)).toEqual(['c', 'b', 'e']);
  });
});
