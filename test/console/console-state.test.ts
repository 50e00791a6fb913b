// The console's reads of the issue-14 state: a person's notes and events (newest first, paged,
// through the person's indexes) with the event summary, the job queue by kind and the bulk jobs,
// and the conversation lifecycle (state, snooze, waiting_since, assignee named, teams included).

import { describe, expect, it } from 'vitest';
import { eventWork } from '../../src/resources/events/log.js';
import { sliceWork } from '../../src/engine/join-log.js';
import { expectRejected, mock, TEST_NOW } from '../helpers.js';

const ADA = '5714dd359a3fd47136000001';
const LEAD = '5714dd359a3fd47136000007';
const VISITOR = '5714dd359a3fd47136000009';
const GROUP = '5714dd359a3fd47136000501';
const SUPPORT_TEAM = '1000001';
const admin = { token: null };

describe('GET /__admin/customers/{id}/notes', () => {
  it('pages a person\'s notes newest first, with the admin named and the body as HTML and text', async () => {
    const m = mock();
    const made = await m.call('POST', '/notes', { body: { body: 'Called back <b>today</b>', user: { id: ADA }, admin_id: '814860' } });
    expect(made.status).toBe(200);
    const first = await m.call('GET', `/__admin/customers/${ADA}/notes?app=demo&limit=2`, admin);
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(3);
    expect(first.body.next_offset).toBe(2);
    expect(first.body.notes[0]).toEqual({
      id: made.body.id,
      admin: { id: '814860', name: expect.any(String) },
      body: 'Called back <b>today</b>',
      body_text: 'Called back today',
      created_at: TEST_NOW,
    });
    expect(first.body.notes[1]).toMatchObject({ id: '1002', body_text: 'Renewal agreed at the pro tier.' });
    const rest = await m.call('GET', `/__admin/customers/${ADA}/notes?app=demo&offset=2&limit=2`, admin);
    expect(rest.body).toMatchObject({ total: 3, next_offset: null });
    expect(rest.body.notes.map((n: { id: string }) => n.id)).toEqual(['1001']);
    // The same notes, in the same order, as the API lists them.
    const viaApi = await m.call('GET', `/notes?id=${ADA}`);
    expect(viaApi.body.notes.map((n: { id: string }) => n.id)).toEqual([made.body.id, '1002', '1001']);
  });

  it('reads a deep page through the person\'s notes index: its cost is the page, not the person\'s notes', async () => {
    const m = mock();
    const notes = Array.from({ length: 3000 }, (_, i) => ({ id: String(20_000 + i), customer: ADA, admin_id: '814860', body: `<p>n${i}</p>`, created_at: TEST_NOW - 3000 + i }));
    m.store.seedApp({ app: { id: 'demo', tokens: ['demo-token'] }, notes }, 'merge');
    sliceWork.visited = 0;
    const res = await m.call('GET', `/__admin/customers/${ADA}/notes?app=demo&offset=1500&limit=3`, admin);
    expect(res.body.total).toBe(3002);
    expect(res.body.notes.map((n: { id: string }) => n.id)).toEqual(['21499', '21498', '21497']);
    expect(sliceWork.visited).toBeLessThan(100);
  });

  it('shows a lead\'s notes, and answers 404 for a visitor or an unknown id and 400 for a bad limit', async () => {
    const m = mock();
    const lead = await m.call('GET', `/__admin/customers/${LEAD}/notes?app=demo`, admin);
    expect(lead.body.notes.map((n: { id: string }) => n.id)).toEqual(['1003']);
    await expectRejected(m, 'GET', `/__admin/customers/${VISITOR}/notes?app=demo`, admin, 404, ['not_found']);
    await expectRejected(m, 'GET', '/__admin/customers/5714dd359a3fd47136ffffff/notes?app=demo', admin, 404, ['not_found']);
    await expectRejected(m, 'GET', `/__admin/customers/${ADA}/notes?app=demo&limit=101`, admin, 400, ['parameter_invalid']);
    await expectRejected(m, 'GET', `/__admin/customers/${ADA}/notes`, admin, 400, ['parameter_not_found']);
  });
});

describe('GET /__admin/customers/{id}/events', () => {
  const send = (m: ReturnType<typeof mock>, name: string, at: number, metadata?: Record<string, unknown>) =>
    m.call('POST', '/events', { body: { event_name: name, created_at: at, user_id: 'ada-1', ...(metadata ? { metadata } : {}) } });

  it('pages every held event newest first by a cursor, beyond the 90 days GET /events lists, with the summary', async () => {
    const m = mock();
    const old = TEST_NOW - 200 * 86_400;
    for (const [name, at] of [['signed-in', old], ['signed-in', TEST_NOW - 60], ['ordered', TEST_NOW - 30], ['signed-in', TEST_NOW - 10]] as const) {
      expect((await send(m, name, at, name === 'ordered' ? { price: { amount: 1999, currency: 'eur' } } : undefined)).status).toBe(202);
    }
    const first = await m.call('GET', `/__admin/customers/${ADA}/events?app=demo&limit=2`, admin);
    expect(first.status).toBe(200);
    expect(first.body.events.map((e: { event_name: string; created_at: number }) => [e.event_name, e.created_at])).toEqual([
      ['signed-in', TEST_NOW - 10],
      ['ordered', TEST_NOW - 30],
    ]);
    expect(first.body.events[1].metadata).toEqual({ price: { amount: 1999, currency: 'eur' } });
    expect(first.body.held).toBe(4);
    expect(first.body.summaries).toEqual([
      { name: 'signed-in', count: 3, kept: 3, first: old, last: TEST_NOW - 10 },
      { name: 'ordered', count: 1, kept: 1, first: TEST_NOW - 30, last: TEST_NOW - 30 },
    ]);
    const rest = await m.call('GET', `/__admin/customers/${ADA}/events?app=demo&limit=2&before=${first.body.next_before}`, admin);
    expect(rest.body.events.map((e: { created_at: number }) => e.created_at)).toEqual([TEST_NOW - 60, old]);
    expect(rest.body.next_before).toBeNull();
    // The API lists the last 90 days only; the console shows what the app holds.
    const viaApi = await m.call('GET', '/events?type=user&user_id=ada-1');
    expect(viaApi.body.events).toHaveLength(3);
  });

  it('reads a page along the person\'s timeline: its cost is the page, not the person\'s history', async () => {
    const m = mock();
    for (let i = 0; i < 50; i++) await send(m, 'tick', TEST_NOW - 1000 + i);
    const first = await m.call('GET', `/__admin/customers/${ADA}/events?app=demo&limit=5`, admin);
    const before = eventWork.reads;
    const next = await m.call('GET', `/__admin/customers/${ADA}/events?app=demo&limit=5&before=${first.body.next_before}`, admin);
    expect(eventWork.reads - before).toBeLessThanOrEqual(7);
    expect(next.body.events.map((e: { created_at: number }) => e.created_at)).toEqual([44, 43, 42, 41, 40].map((i) => TEST_NOW - 1000 + i));
  });

  it('answers an empty page for a person with no events, and refuses a bad cursor or a visitor', async () => {
    const m = mock();
    const none = await m.call('GET', `/__admin/customers/${LEAD}/events?app=demo`, admin);
    expect(none.body).toEqual({ events: [], next_before: null, held: 0, summaries: [] });
    await expectRejected(m, 'GET', `/__admin/customers/${ADA}/events?app=demo&before=yesterday`, admin, 400, ['parameter_invalid']);
    await expectRejected(m, 'GET', `/__admin/customers/${VISITOR}/events?app=demo`, admin, 404, ['not_found']);
  });
});

describe('pending jobs by kind and GET /__admin/bulk-jobs', () => {
  it('splits the queue into enrichment and bulk tasks, and lists the bulk jobs newest first with their state', async () => {
    const m = mock();
    const apps = async () => (await m.call('GET', '/__admin/apps?app=demo', admin)).body.apps[0];
    expect((await apps()).pending_by_kind).toEqual({ enrichment: 0, bulk_tasks: 0, webhook_deliveries: 0 });
    await m.call('POST', '/users', { body: { user_id: 'jobs-1', email: 'jobs@example.com', last_seen_ip: '81.2.69.142' } });
    const bulk = await m.call('POST', '/bulk/users', { body: { items: [{ method: 'post', data_type: 'user', data: { user_id: 'bulk-1' } }, { method: 'post', data_type: 'user', data: {} }] } });
    expect(bulk.status).toBe(202);
    await m.call('POST', '/bulk/events', { body: { items: [{ method: 'post', data_type: 'event', data: { event_name: 'x', created_at: TEST_NOW, user_id: 'ada-1' } }] } });
    expect(await apps()).toMatchObject({ pending_jobs: 3, pending_by_kind: { enrichment: 1, bulk_tasks: 2, webhook_deliveries: 0 } });

    const pending = await m.call('GET', '/__admin/bulk-jobs?app=demo', admin);
    expect(pending.status).toBe(200);
    expect(pending.body.total).toBe(2);
    expect(pending.body.jobs[1]).toEqual({
      id: bulk.body.id,
      state: 'running',
      open: true,
      created_at: TEST_NOW,
      updated_at: TEST_NOW,
      completed_at: null,
      closing_at: TEST_NOW + 900,
      tasks: 1,
      pending_tasks: 1,
      items: 2,
      failed_items: 0,
    });

    expect((await m.call('POST', '/__admin/jobs/run?app=demo', admin)).status).toBe(200);
    expect((await apps()).pending_by_kind).toEqual({ enrichment: 0, bulk_tasks: 0, webhook_deliveries: 0 });
    const done = await m.call('GET', '/__admin/bulk-jobs?app=demo&offset=1&limit=1', admin);
    expect(done.body).toMatchObject({ total: 2, next_offset: null });
    expect(done.body.jobs[0]).toMatchObject({ id: bulk.body.id, state: 'completed', pending_tasks: 0, failed_items: 1 });
    expect((await m.call('GET', `/jobs/${bulk.body.id}`)).body.state).toBe('completed');
    m.clock.advance(901);
    expect((await m.call('GET', '/__admin/bulk-jobs?app=demo', admin)).body.jobs[1].open).toBe(false);
  });

  it('needs an app and a limit of at most 100', async () => {
    const m = mock();
    expect((await m.call('GET', '/__admin/bulk-jobs?app=other', admin)).body).toEqual({ jobs: [], total: 0, next_offset: null });
    await expectRejected(m, 'GET', '/__admin/bulk-jobs', admin, 400, ['parameter_not_found']);
    await expectRejected(m, 'GET', '/__admin/bulk-jobs?app=demo&limit=500', admin, 400, ['parameter_invalid']);
  });
});

describe('the conversation lifecycle in the console', () => {
  const reply = (m: ReturnType<typeof mock>, body: Record<string, unknown>) => m.call('POST', `/conversations/${GROUP}/reply`, { body });
  const row = async (m: ReturnType<typeof mock>) =>
    (await m.call('GET', '/__admin/conversations?app=demo&limit=100', admin)).body.conversations.find((c: { id: string }) => c.id === GROUP);

  it('opens a conversation assigned to a team as a thread, the team named', async () => {
    const m = mock();
    expect((await reply(m, { type: 'admin', admin_id: '814860', message_type: 'assignment', assignee_id: SUPPORT_TEAM })).status).toBe(200);
    const thread = await m.call('GET', `/__admin/conversations/${GROUP}?app=demo`, admin);
    expect(thread.status).toBe(200);
    expect(thread.body.conversation.assignee).toEqual({ type: 'team', id: SUPPORT_TEAM, name: 'Support' });
  });

  it('shows state, snooze, waiting_since and the assignee by name, a team included, in the list, the thread and the customer page', async () => {
    const m = mock();
    expect(await row(m)).toMatchObject({ state: 'open', open: true, snoozed_until: null, waiting_since: null, assignee: { type: 'admin', id: '814860', name: expect.any(String) } });
    expect((await reply(m, { type: 'user', intercom_user_id: ADA, message_type: 'comment', body: 'Any news?' })).status).toBe(200);
    expect((await reply(m, { type: 'admin', admin_id: '814860', message_type: 'assignment', assignee_id: SUPPORT_TEAM })).status).toBe(200);
    expect((await reply(m, { type: 'admin', admin_id: '814860', message_type: 'snoozed', snoozed_until: TEST_NOW + 3600 })).status).toBe(200);
    const snoozed = { state: 'snoozed', open: true, snoozed_until: TEST_NOW + 3600, waiting_since: TEST_NOW, assignee: { type: 'team', id: SUPPORT_TEAM, name: 'Support' } };
    expect(await row(m)).toMatchObject(snoozed);
    const thread = await m.call('GET', `/__admin/conversations/${GROUP}?app=demo`, admin);
    expect(thread.status).toBe(200);
    expect(thread.body.conversation).toMatchObject(snoozed);
    const parts = thread.body.parts.parts;
    expect(parts[parts.length - 2].assigned_to).toEqual({ type: 'team', id: SUPPORT_TEAM, name: 'Support' });
    const customer = await m.call('GET', `/__admin/customers/${ADA}?app=demo`, admin);
    expect(customer.body.conversations.items.find((c: { id: string }) => c.id === GROUP)).toMatchObject(snoozed);
    // A snooze ends when the clock passes it, as the API reads it.
    m.clock.advance(3600);
    expect(await row(m)).toMatchObject({ state: 'open', snoozed_until: null });
    expect((await reply(m, { type: 'admin', admin_id: '814860', message_type: 'close' })).status).toBe(200);
    expect(await row(m)).toMatchObject({ state: 'closed', open: false, waiting_since: null });
  });
});

describe('an app\'s API version and queued webhook deliveries in GET /__admin/apps', () => {
  it('shows the version the app answers in, and counts webhook deliveries apart from enrichment', async () => {
    const m = mock();
    const apps = async () => (await m.call('GET', '/__admin/apps?app=demo', admin)).body.apps[0];
    expect((await apps()).api_version).toBe('1.1');
    expect((await m.call('POST', '/subscriptions', { body: { url: 'http://127.0.0.1:9/hooks', topics: ['user.created'] } })).status).toBe(200);
    expect((await m.call('POST', '/users', { body: { user_id: 'hooked-1' } })).status).toBe(200);
    expect(await apps()).toMatchObject({ pending_jobs: 1, pending_by_kind: { enrichment: 0, bulk_tasks: 0, webhook_deliveries: 1 } });
  });
});
