// Data events (POST /events, GET /events, summary=true): metadata rules, the duplicate rule, the
// people an event may name, the newest-first list and its cursor, and the per-app cap.

import { describe, expect, it } from 'vitest';
import { ADA, GRACE, LEAD, LINUS, VISITOR } from '../../fixture-ids.js';
import { errorCodes, expectRejected, mock, stateText, TEST_NOW, type TestMock } from '../../helpers.js';

const T = TEST_NOW - 3600;
const post = (m: TestMock, body: unknown) => m.call('POST', '/events', { body });
const list = async (m: TestMock, query: string) => (await m.call('GET', `/events?type=user&${query}`)).body;
const names = async (m: TestMock, query: string) => ((await list(m, query)).events as { event_name: string }[]).map((e) => e.event_name);

describe('POST /events', () => {
  it('answers 202 with no body and the event shows in the person\'s list', async () => {
    const m = mock();
    const res = await post(m, { event_name: 'invited-friend', created_at: T, user_id: 'ada-1' });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    const body = await list(m, 'user_id=ada-1');
    expect(body).toEqual({
      type: 'event.list',
      events: [{ type: 'event', id: expect.stringMatching(/^[0-9a-f-]{36}$/), event_name: 'invited-friend', created_at: T, user_id: 'ada-1', email: 'ada@example.com', intercom_user_id: ADA, metadata: {} }],
      pages: {},
    });
  });

  it('keeps the first 10 metadata members in the order sent, with rich links and monetary amounts', async () => {
    const m = mock();
    const metadata: Record<string, unknown> = {
      order_date: 1392036272,
      stripe_invoice: 'inv_3434343434',
      order_number: { value: '3434-3434', url: 'https://example.org/orders/3434-3434' },
      price: { currency: 'usd', amount: 2999 },
    };
    for (let i = 0; i < 10; i++) metadata[`k${i}`] = i;
    expect((await post(m, { event_name: 'placed-order', created_at: T, email: 'grace@example.com', metadata })).status).toBe(202);
    const [event] = (await list(m, 'email=grace@example.com')).events;
    expect(Object.keys(event.metadata)).toEqual(['order_date', 'stripe_invoice', 'order_number', 'price', 'k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
    expect(event.metadata.order_number).toEqual({ url: 'https://example.org/orders/3434-3434', value: '3434-3434' });
    expect(event.metadata.price).toEqual({ amount: 2999, currency: 'usd' });
  });

  it('refuses nested objects, booleans, a _date that is not Unix seconds and an ISO created_at, changing nothing', async () => {
    const m = mock();
    const res = await expectRejected(
      m,
      'POST',
      '/events',
      // A boolean is read as its text unless the request is strict (test/resources/events/event-metadata-values.test.ts).
      { body: { event_name: 'x', created_at: T, user_id: 'ada-1', metadata: { deep: { a: { b: 1 } }, flag: true, ship_date: '2019-10-08', ok: 'fine' } }, headers: { 'x-mock-strict': 'true' } },
      400,
      ['parameter_invalid', 'parameter_invalid', 'parameter_invalid'],
    );
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['metadata.deep', 'metadata.flag', 'metadata.ship_date']);
    const lenient = await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T, user_id: 'ada-1', metadata: { deep: { a: { b: 1 } }, flag: true, ship_date: '2019-10-08' } } }, 400, ['parameter_invalid', 'parameter_invalid']);
    expect(lenient.body.errors.map((e: { field: string }) => e.field)).toEqual(['metadata.deep', 'metadata.ship_date']);
    const iso = await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: '2019-10-08T13:36:11.475+03:00', user_id: 'ada-1' } }, 400, ['parameter_invalid']);
    expect(iso.body.errors[0].field).toBe('created_at');
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
    await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T, user_id: 'ada-1', metadata: many } }, 400, ['parameter_invalid']);
  });

  it('answers 400 parameter_not_found without event_name, created_at or a person', async () => {
    const m = mock();
    expect(errorCodes(await post(m, { created_at: T, user_id: 'ada-1' }))).toEqual(['parameter_not_found']);
    expect(errorCodes(await post(m, { event_name: 'x', user_id: 'ada-1' }))).toEqual(['parameter_not_found']);
    const none = await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T } }, 400, ['parameter_not_found']);
    expect(none.body.errors[0].field).toBe('user_id');
  });

  it('stores a duplicate (same person, name and created_at) once and still answers 202', async () => {
    const m = mock();
    for (const key of [{ user_id: 'ada-1' }, { email: 'ada@example.com' }, { id: ADA }]) {
      expect((await post(m, { event_name: 'login', created_at: T, ...key, metadata: { n: 1 } })).status).toBe(202);
    }
    expect(await names(m, 'user_id=ada-1')).toEqual(['login']);
    const summary = await list(m, 'user_id=ada-1&summary=true');
    expect(summary.events).toEqual([{ name: 'login', first: new Date(T * 1000).toISOString(), last: new Date(T * 1000).toISOString(), count: 1, description: null }]);
  });

  it('answers 404 User Not Found for an unknown person, a visitor and a lead named by user_id or email', async () => {
    const m = mock();
    for (const key of [{ user_id: 'nobody' }, { email: 'nobody@example.com' }, { id: VISITOR }, { id: 'ffffffffffffffffffffffff' }, { email: 'lead@example.com' }]) {
      const res = await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T, ...key } }, 404, ['not_found']);
      expect(res.body.errors[0].message).toBe('User Not Found');
    }
  });

  it('takes a lead by id, and answers 409 for an email two users share, naming email', async () => {
    const m = mock();
    expect((await post(m, { event_name: 'lead-event', created_at: T, id: LEAD })).status).toBe(202);
    expect(await names(m, `intercom_user_id=${LEAD}`)).toEqual(['lead-event']);
    const shared = await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T, email: 'shared@example.com' } }, 409, ['conflict']);
    expect(shared.body.errors[0].field).toBe('email');
  });

  it('answers 404 for a lead named by its user_id: leads are addressed by id only', async () => {
    const m = mock();
    await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T, user_id: '8a88a590-e1c3-41e2-a502-e0649dbf721c' } }, 404, ['not_found']);
  });

  it('skips an empty id or user_id and takes the next key given', async () => {
    const m = mock();
    expect((await post(m, { event_name: 'by-user-id', created_at: T, id: '', user_id: 'ada-1' })).status).toBe(202);
    expect((await post(m, { event_name: 'by-email', created_at: T, id: '', user_id: '', email: 'ada@example.com' })).status).toBe(202);
    expect(await names(m, 'user_id=ada-1')).toEqual(['by-email', 'by-user-id']);
  });

  it('an archived user is not found; restored, its events are back', async () => {
    const m = mock();
    await post(m, { event_name: 'before-archive', created_at: T, user_id: 'ada-1' });
    expect((await m.call('DELETE', `/users/${ADA}`)).status).toBe(200);
    await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T, user_id: 'ada-1' } }, 404, ['not_found']);
    expect((await m.call('GET', '/events?type=user&user_id=ada-1')).status).toBe(404);
    expect((await m.call('POST', '/users', { body: { user_id: 'ada-1' } })).status).toBe(200);
    expect(await names(m, 'user_id=ada-1')).toEqual(['before-archive']);
  });
});

describe('GET /events', () => {
  it('lists newest first by created_at (a backdated event in its place) and follows before= cursors page by page', async () => {
    const m = mock();
    // Same-second events straddle page boundaries: the cursor loses none of them.
    const times = [T - 50, T - 40, T - 40, T - 40, T - 30, T - 60, T - 20];
    for (const [i, at] of times.entries()) await post(m, { event_name: `e${i}`, created_at: at, user_id: 'ada-1' });
    const all = await names(m, 'user_id=ada-1&per_page=60');
    expect(all).toEqual(['e6', 'e4', 'e3', 'e2', 'e1', 'e0', 'e5']);
    const seen: string[] = [];
    let body = await list(m, 'user_id=ada-1&per_page=2');
    for (;;) {
      seen.push(...body.events.map((e: { event_name: string }) => e.event_name));
      if (!body.pages.next) break;
      expect(body.pages.next).toMatch(/^http:\/\/localhost\/events\?type=user&user_id=ada-1&per_page=2&before=\d+_\d+$/);
      const url = new URL(body.pages.next as string);
      body = (await m.call('GET', `${url.pathname}${url.search}`)).body;
    }
    expect(seen).toEqual(all);
    // A bare millisecond cursor: events created strictly earlier.
    expect(await names(m, `user_id=ada-1&before=${(T - 40) * 1000}`)).toEqual(['e0', 'e5']);
  });

  it('orders events submitted in any order by created_at, then arrival', async () => {
    const m = mock();
    // A fixed shuffle of 40 times with repeats.
    const times = Array.from({ length: 40 }, (_, i) => T - ((i * 17) % 23));
    for (const [i, at] of times.entries()) await post(m, { event_name: `s${i}`, created_at: at, user_id: 'grace-2' });
    const expected = times.map((at, i) => ({ at, i })).sort((a, b) => b.at - a.at || b.i - a.i).map((x) => `s${x.i}`);
    expect(await names(m, 'user_id=grace-2&per_page=60')).toEqual(expected);
  });

  it('shows only the last 90 days on the mock\'s clock', async () => {
    const m = mock();
    await post(m, { event_name: 'old', created_at: TEST_NOW - 91 * 86_400, user_id: 'ada-1' });
    await post(m, { event_name: 'recent', created_at: TEST_NOW - 89 * 86_400, user_id: 'ada-1' });
    expect(await names(m, 'user_id=ada-1')).toEqual(['recent']);
    expect((await list(m, 'user_id=ada-1&summary=true')).events.map((e: { name: string }) => e.name)).toEqual(['old', 'recent']);
  });

  it('summarises per name in first-seen order: count, first and last', async () => {
    const m = mock();
    for (const [name, at] of [['a', T - 10], ['b', T - 5], ['a', T - 20], ['a', T]] as const) await post(m, { event_name: name, created_at: at, id: GRACE });
    const body = await list(m, `intercom_user_id=${GRACE}&summary=true`);
    const iso = (s: number) => new Date(s * 1000).toISOString();
    expect(body).toEqual({
      type: 'event.summary',
      email: 'grace@example.com',
      intercom_user_id: GRACE,
      user_id: 'grace-2',
      events: [
        { name: 'a', first: iso(T - 20), last: iso(T), count: 3, description: null },
        { name: 'b', first: iso(T - 5), last: iso(T - 5), count: 1, description: null },
      ],
    });
    expect(errorCodes(await m.call('GET', `/events?type=user&intercom_user_id=${GRACE}&summary=true&per_page=5`))).toEqual(['bad_request']);
  });

  it('answers 400 for a missing or other type, no identifier or a bad cursor, and 404 for nobody', async () => {
    const m = mock();
    expect(errorCodes(await m.call('GET', '/events?user_id=ada-1'))).toEqual(['bad_request']);
    expect(errorCodes(await m.call('GET', '/events?type=company&user_id=ada-1'))).toEqual(['bad_request']);
    expect(errorCodes(await m.call('GET', '/events?type=user'))).toEqual(['parameter_not_found']);
    const cursor = await m.call('GET', '/events?type=user&user_id=ada-1&before=yesterday');
    expect([cursor.status, errorCodes(cursor), cursor.body.errors[0].field]).toEqual([400, ['parameter_invalid'], 'before']);
    expect(errorCodes(await m.call('GET', '/events?type=user&user_id=ada-1&per_page=61'))).toEqual(['parameter_invalid']);
    const nobody = await m.call('GET', '/events?type=user&user_id=nobody');
    expect(nobody.status).toBe(404);
    expect(nobody.body.errors[0].message).toBe('User Not Found');
    expect((await list(m, `intercom_user_id=${LINUS}`)).events).toEqual([]);
  });
});

describe('events as app state', () => {
  it('are carried by snapshots, rewound by a reset, and seed back from an export with their summaries', async () => {
    const m = mock({ limits: { events: 2 } });
    await post(m, { event_name: 'a', created_at: T - 3, user_id: 'ada-1' });
    await post(m, { event_name: 'a', created_at: T - 2, user_id: 'ada-1' });
    await post(m, { event_name: 'b', created_at: T - 1, user_id: 'ada-1' });
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'two' } })).status).toBe(201);
    await post(m, { event_name: 'c', created_at: T, user_id: 'ada-1' });
    expect(await names(m, 'user_id=ada-1')).toEqual(['c', 'b']);
    expect((await m.call('POST', '/__admin/snapshots/two/restore?app=demo', { token: null })).status).toBe(200);
    expect(await names(m, 'user_id=ada-1')).toEqual(['b', 'a']);
    // The first "a" was evicted, but its entry lives on with the second and still counts it.
    const summary = async (x: TestMock) => (await list(x, 'user_id=ada-1&summary=true')).events.map((e: { name: string; count: number }) => [e.name, e.count]);
    expect(await summary(m)).toEqual([['a', 2], ['b', 1]]);
    const exported = await stateText(m);
    const other = mock({ limits: { events: 2 } });
    expect((await other.call('POST', '/__admin/seed', { token: null, body: JSON.parse(exported) })).status).toBe(200);
    expect(await stateText(other)).toBe(exported);
    expect(await summary(other)).toEqual([['a', 2], ['b', 1]]);
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    expect(await names(m, 'user_id=ada-1')).toEqual([]);
    expect(JSON.parse(await stateText(m)).events).toEqual([]);
  });
});

describe('events cap', () => {
  it('keeps the most recent events of the app, the oldest out first, summaries and duplicates following', async () => {
    const m = mock({ limits: { events: 3 } });
    await post(m, { event_name: 'a', created_at: T - 4, user_id: 'ada-1' });
    await post(m, { event_name: 'b', created_at: T - 3, user_id: 'grace-2' });
    await post(m, { event_name: 'c', created_at: T - 2, user_id: 'ada-1' });
    await post(m, { event_name: 'd', created_at: T - 1, user_id: 'ada-1' });
    expect(await names(m, 'user_id=ada-1')).toEqual(['d', 'c']);
    // Ada's "a" is gone, so its summary entry went with it; sent again it is a new event.
    expect((await list(m, 'user_id=ada-1&summary=true')).events.map((e: { name: string }) => e.name)).toEqual(['c', 'd']);
    await post(m, { event_name: 'a', created_at: T - 4, user_id: 'ada-1' });
    expect(await names(m, 'user_id=ada-1')).toEqual(['d', 'c', 'a']);
    expect(await names(m, 'user_id=grace-2')).toEqual([]);
    const state = JSON.parse(await stateText(m));
    expect(state.events.map((e: { event_name: string }) => e.event_name)).toEqual(['c', 'd', 'a']);
  });
});

describe('events in seeds', () => {
  const seed = (m: TestMock, body: unknown, mode = 'replace') => m.call('POST', `/__admin/seed?mode=${mode}`, { token: null, body });
  const refusedSeed = async (m: TestMock, body: unknown, mode: string) => {
    const res = await expectRejected(m, 'POST', `/__admin/seed?mode=${mode}`, { token: null, body }, 400, ['parameter_invalid']);
    const { field, message } = res.body.errors[0] as { field: string; message: string };
    return { field, message };
  };

  it('refuses a replace or merge seed that would hold more events than limits.events, naming events and the cap', async () => {
    const m = mock({ limits: { events: 3 } });
    await post(m, { event_name: 'a', created_at: T - 9, user_id: 'ada-1' });
    await post(m, { event_name: 'b', created_at: T - 8, user_id: 'ada-1' });
    const state = JSON.parse(await stateText(m));
    const extra = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `seeded-${i}`, customer_id: ADA, event_name: 'seeded', created_at: T - 100 + i }));
    const replace = await refusedSeed(m, { ...state, events: [...state.events, ...extra(2)], event_log: undefined }, 'replace');
    expect(replace.field).toBe('events');
    expect(replace.message).toContain('at most 3');
    const merge = await refusedSeed(m, { app: { id: 'demo', tokens: ['demo-token'] }, events: extra(2) }, 'merge');
    expect(merge).toEqual({ field: 'events', message: expect.stringContaining('would hold 4 events') });
    // At the cap, a seed is taken, and the next event pushes out exactly one.
    expect((await seed(m, { app: { id: 'demo', tokens: ['demo-token'] }, events: extra(1) }, 'merge')).status).toBe(200);
    await post(m, { event_name: 'c', created_at: T - 7, user_id: 'ada-1' });
    expect(await names(m, 'user_id=ada-1')).toEqual(['c', 'b', 'seeded']);
    expect(JSON.parse(await stateText(m)).events.map((e: { event_name: string }) => e.event_name)).toEqual(['b', 'seeded', 'c']);
  });

  it('seeds back from an export with evictions to byte-identical answers: summary order, cursors, the next evictions', async () => {
    // Two apps take the same writes; one of them goes through export and seed (ids=fresh keeps its
    // id streams running, so the events it gets next have the same ids as the other's).
    const [m, other] = [mock({ limits: { events: 4 } }), mock({ limits: { events: 4 } })];
    for (const x of [m, other]) {
      // The lead's event keeps its place in the log after the lead is deleted, and still counts.
      await post(x, { event_name: 'lead', created_at: T - 10, id: LEAD });
      for (const [name, at] of [['a', 1], ['b', 2], ['a', 3], ['c', 4]] as const) await post(x, { event_name: name, created_at: T - 10 + at, user_id: 'ada-1' });
      expect((await x.call('DELETE', `/contacts/${LEAD}`)).status).toBe(200);
    }
    const reads = ['user_id=ada-1&summary=true', 'user_id=ada-1&per_page=1', 'user_id=ada-1&per_page=2'];
    const answers = async (x: TestMock) => Promise.all(reads.map(async (q) => (await x.call('GET', `/events?type=user&${q}`)).text));
    const kept = await answers(m);
    // The first "a" was evicted: the summary still lists "a" first.
    expect(JSON.parse(kept[0] as string).events.map((e: { name: string }) => e.name)).toEqual(['a', 'b', 'c']);
    const exported = await stateText(other);
    expect((await seed(other, JSON.parse(exported), 'replace&ids=fresh')).status).toBe(200);
    expect(await stateText(other)).toBe(exported);
    expect(await answers(other)).toEqual(kept);
    // The next events evict the same ones on both: the deleted lead's slot first, then "b".
    for (const x of [m, other]) {
      await post(x, { event_name: 'd', created_at: T - 1, user_id: 'ada-1' });
      await post(x, { event_name: 'e', created_at: T, user_id: 'ada-1' });
    }
    expect(await answers(other)).toEqual(await answers(m));
    expect(await names(other, 'user_id=ada-1')).toEqual(['e', 'd', 'c', 'a']);
  });

  it('merges events alone into the summaries the app holds, counting them', async () => {
    const m = mock();
    await post(m, { event_name: 'n', created_at: T - 10, user_id: 'ada-1' });
    const merged = await seed(m, { app: { id: 'demo', tokens: ['demo-token'] }, events: [{ id: 'merged-1', customer_id: ADA, event_name: 'n', created_at: T - 5 }] }, 'merge');
    expect(merged.status, merged.text).toBe(200);
    const summary = await list(m, 'user_id=ada-1&summary=true');
    expect(summary.events).toEqual([{ name: 'n', first: new Date((T - 10) * 1000).toISOString(), last: new Date((T - 5) * 1000).toISOString(), count: 2, description: null }]);
    expect(await names(m, 'user_id=ada-1')).toEqual(['n', 'n']);
    // Merged again (the same id), the event replaces itself and is not counted twice.
    expect((await seed(m, { app: { id: 'demo', tokens: ['demo-token'] }, events: [{ id: 'merged-1', customer_id: ADA, event_name: 'n', created_at: T - 5 }] }, 'merge')).status).toBe(200);
    expect((await list(m, 'user_id=ada-1&summary=true')).events[0].count).toBe(2);
  });

  it('refuses places in the log that do not increase or fall outside event_log', async () => {
    const m = mock();
    await post(m, { event_name: 'a', created_at: T - 2, user_id: 'ada-1' });
    await post(m, { event_name: 'b', created_at: T - 1, user_id: 'ada-1' });
    const state = JSON.parse(await stateText(m));
    expect(state.event_log).toEqual({ first: 1, next: 3 });
    const swapped = { ...state, events: state.events.map((e: { seq: number }, i: number) => ({ ...e, seq: 2 - i })) };
    expect(await refusedSeed(m, swapped, 'replace')).toEqual({ field: 'events[1].seq', message: expect.stringContaining('increase') });
    expect((await refusedSeed(m, { ...state, event_log: { first: 1, next: 2 } }, 'replace')).field).toBe('events[1].seq');
  });
});

describe('event ids after a seed', () => {
  it('a new event never takes the id of one held, though the seed rewound the streams: the export seeds back', async () => {
    const m = mock();
    await post(m, { event_name: 'a', created_at: T - 10, user_id: 'ada-1' });
    expect((await m.call('POST', '/__admin/seed', { token: null, body: JSON.parse(await stateText(m)) })).status).toBe(200);
    await post(m, { event_name: 'b', created_at: T - 5, user_id: 'ada-1' });
    const exported = JSON.parse(await stateText(m));
    const [first, second] = exported.events.map((e: { id: string }) => e.id);
    expect(second).not.toBe(first);
    expect((await m.call('POST', '/__admin/seed', { token: null, body: exported })).status).toBe(200);
    expect(await names(m, 'user_id=ada-1')).toEqual(['b', 'a']);
  });

  it('nor after a snapshot restored with ids=fresh pairs its events with streams that have not drawn their ids yet', async () => {
    const m = mock();
    const admin = (path: string, body?: unknown) => m.call('POST', `/__admin/${path}`, { token: null, body });
    const ids = async () => ((await list(m, 'user_id=ada-1')).events as { id: string; event_name: string }[]).map((e) => [e.event_name, e.id]);
    expect((await admin('snapshots?app=demo', { name: 'empty' })).status).toBe(201);
    await post(m, { event_name: 'a', created_at: T - 10, user_id: 'ada-1' });
    await post(m, { event_name: 'b', created_at: T - 9, user_id: 'ada-1' });
    const drawn = await ids();
    expect((await admin('snapshots?app=demo', { name: 'two' })).status).toBe(201);
    // Back to before a and b, streams too: the same requests draw the same ids again.
    expect((await admin('snapshots/empty/restore?app=demo')).status).toBe(200);
    await post(m, { event_name: 'a', created_at: T - 10, user_id: 'ada-1' });
    expect(await ids()).toEqual([drawn[1]]);
    expect((await admin('snapshots/empty/restore?app=demo')).status).toBe(200);
    // a and b held again, the streams left where the empty app had them: their ids are the next draws.
    expect((await admin('snapshots/two/restore?app=demo&ids=fresh')).status).toBe(200);
    await post(m, { event_name: 'c', created_at: T - 8, user_id: 'ada-1' });
    await post(m, { event_name: 'd', created_at: T - 7, user_id: 'ada-1' });
    const now = await ids();
    expect(now.map(([name]) => name)).toEqual(['d', 'c', 'b', 'a']);
    expect(new Set(now.map(([, id]) => id)).size).toBe(4);
    // Still guarded through a snapshot of that state restored with its own streams.
    expect((await admin('snapshots?app=demo', { name: 'guarded' })).status).toBe(201);
    expect((await admin('snapshots/empty/restore?app=demo')).status).toBe(200);
    expect((await admin('snapshots/two/restore?app=demo&ids=fresh')).status).toBe(200);
    expect((await admin('snapshots/guarded/restore?app=demo')).status).toBe(200);
    await post(m, { event_name: 'e', created_at: T - 6, user_id: 'ada-1' });
    const later = await ids();
    expect(later.slice(1)).toEqual(now);
    expect(new Set(later.map(([, id]) => id)).size).toBe(5);
  });

  it('and a restore with ids=fresh steps over the places a seed left empty, as an export leaves those of people deleted since', async () => {
    const m = mock();
    const admin = (path: string, body?: unknown) => m.call('POST', `/__admin/${path}`, { token: null, body });
    for (const at of [T - 10, T - 9, T - 8]) await post(m, { event_name: 'a', created_at: at, user_id: 'ada-1' });
    const state = JSON.parse(await stateText(m));
    state.events.splice(1, 1);
    expect([state.events.map((e: { seq: number }) => e.seq), state.event_log]).toEqual([[1, 3], { first: 1, next: 4 }]);
    expect((await admin('seed', state)).status).toBe(200);
    expect((await admin('snapshots?app=demo', { name: 'seeded' })).status).toBe(201);
    // The held ids are put aside place by place, place 2 holding none.
    expect((await admin('snapshots/seeded/restore?app=demo&ids=fresh')).status).toBe(200);
    expect((await post(m, { event_name: 'b', created_at: T - 7, user_id: 'ada-1' })).status).toBe(202);
    const events = (JSON.parse(await stateText(m)).events as { id: string; event_name: string; created_at: number; seq: number }[]);
    expect(events.map((e) => [e.event_name, e.created_at, e.seq])).toEqual([['a', T - 10, 1], ['a', T - 8, 3], ['b', T - 7, 4]]);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
  });
});

describe('the timeline order under backdated events (a skip list)', () => {
  it('lists events by created_at, ties by arrival, newest first; bare and exact cursors land exactly, under evictions too', async () => {
    const m = mock({ limits: { events: 150 }, rateLimit: 1_000_000 });
    // 200 events over 12 distinct times, in an order that backdates most of them: the first 50 are evicted.
    const times = Array.from({ length: 200 }, (_, i) => T - ((i * 7919) % 12) * 60);
    for (const [i, at] of times.entries()) expect((await post(m, { event_name: `e${i}`, created_at: at, user_id: 'ada-1' })).status).toBe(202);
    const kept = times.map((at, i) => ({ at, i })).slice(50);
    const expected = [...kept].sort((a, b) => b.at - a.at || b.i - a.i);
    const all: string[] = [];
    let query = 'user_id=ada-1&per_page=60';
    for (;;) {
      const body = await list(m, query);
      all.push(...(body.events as { event_name: string }[]).map((e) => e.event_name));
      if (!body.pages.next) break;
      query = new URL(body.pages.next as string).search.slice(1).replace('type=user&', '');
    }
    expect(all).toEqual(expected.map((e) => `e${e.i}`));
    // A bare before=<ms> starts at the newest event created strictly earlier, ties in arrival order.
    for (const at of new Set(times)) {
      const first = expected.find((e) => e.at < at);
      expect(await names(m, `user_id=ada-1&per_page=2&before=${at * 1000}`)).toEqual(first ? expected.filter((e) => e.at < at).slice(0, 2).map((e) => `e${e.i}`) : []);
    }
  });
});
