// Webhook subscription management, W1–W8: create (validation, the 250 cap, loopback targets),
// view, list, update (POST and PUT, topics replaced), delete, ping and the feeds; what export,
// seed, reset and snapshots do with subscriptions and queued deliveries. Delivery itself:
// webhook-delivery.test.ts.

import { describe, expect, it } from 'vitest';
import { errorCodes, expectRejected, mock, TEST_NOW, warningCodesOf, type TestMock } from '../../helpers.js';

const URL_OK = 'http://127.0.0.1:9/hooks';
const create = (m: TestMock, body: unknown) => m.call('POST', '/subscriptions', { body });
const admin = (m: TestMock, method: string, path: string, body?: unknown) => m.call(method, path, { token: null, ...(body === undefined ? {} : { body }) });
const stateOf = async (m: TestMock) => JSON.parse((await admin(m, 'GET', '/__admin/state?app=demo')).text);
const webhookJobs = async (m: TestMock) => ((await stateOf(m)).jobs as { kind: string }[]).filter((j) => j.kind === 'webhook');

describe('POST /subscriptions', () => {
  it('creates an active subscription in the clients\' shape; ping is always subscribed but not listed', async () => {
    const m = mock();
    const res = await create(m, { url: URL_OK, topics: ['user.created', 'ping', 'user.created'], hub_secret: 'k', service_type: 'web' });
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    expect(id).toMatch(/^nsub_[0-9a-f-]{36}$/);
    expect(res.body).toEqual({
      type: 'notification_subscription',
      id,
      created_at: TEST_NOW,
      updated_at: TEST_NOW,
      service_type: 'web',
      app_id: 'demo',
      url: URL_OK,
      self: `http://localhost/subscriptions/${id}`,
      topics: ['user.created'],
      active: true,
      metadata: {},
      hub_secret: 'k',
      mode: 'point',
      links: { sent: `http://localhost/subscriptions/${id}/sent`, retry: `http://localhost/subscriptions/${id}/retry`, errors: `http://localhost/subscriptions/${id}/errors` },
      notes: [],
    });
    expect((await m.call('GET', `/subscriptions/${id}`)).body).toEqual(res.body);
    expect((await m.call('GET', '/subscriptions')).body).toEqual({ type: 'notification_subscription.list', items: [res.body] });
  });

  it.each([
    ['no url', { topics: ['user.created'] }, 'parameter_not_found'],
    ['no topics', { url: URL_OK }, 'parameter_not_found'],
    ['empty topics', { url: URL_OK, topics: [] }, 'parameter_invalid'],
    ['an unknown topic', { url: URL_OK, topics: ['user.exploded'] }, 'parameter_invalid'],
    ['a service_type other than web', { url: URL_OK, topics: ['user.created'], service_type: 'sqs' }, 'parameter_invalid'],
    ['a url that is not http', { url: 'ftp://127.0.0.1/hooks', topics: ['user.created'] }, 'parameter_invalid'],
    ['a url that does not parse', { url: 'not a url', topics: ['user.created'] }, 'parameter_invalid'],
    ['event.created without metadata.event_names', { url: URL_OK, topics: ['event.created'] }, 'parameter_not_found'],
    ['too many topics', { url: URL_OK, topics: Array(101).fill('user.created') }, 'parameter_invalid'],
  ])('refuses %s, creating nothing', async (_what, body, code) => {
    const m = mock();
    await expectRejected(m, 'POST', '/subscriptions', { body }, 400, [code]);
    expect((await m.call('GET', '/subscriptions')).body.items).toEqual([]);
  });

  it("keeps a new subscription active whatever its \"active\" says (Java's client sends false), with a warning", async () => {
    const m = mock();
    const res = await create(m, { url: URL_OK, topics: ['user.created'], active: false });
    expect(res.status).toBe(200);
    expect(res.body.active).toBe(true);
    expect(warningCodesOf(res.headers.get('x-mock-warning'))).toEqual(['unused_field']);
    expect(res.headers.get('x-mock-warning')).toContain('active applies to an update: a new subscription is active: ignored.');
    expect((await m.call('GET', `/subscriptions/${res.body.id}`)).body.active).toBe(true);
    expect((await create(m, { url: URL_OK, topics: ['user.created'] })).headers.get('x-mock-warning')).toBeNull();
    // --strict refuses it instead, naming the member, and creates nothing.
    const strict = mock({ strict: true });
    const refused = await expectRejected(strict, 'POST', '/subscriptions', { body: { url: URL_OK, topics: ['user.created'], active: false } }, 400, ['parameter_invalid']);
    expect(refused.body.errors[0].field).toBe('active');
    expect((await strict.call('GET', '/subscriptions')).body.items).toEqual([]);
  });

  it('accepts any http(s) host with --webhook-hosts any, without a warning', async () => {
    const m = mock({ webhookHosts: 'any' });
    const res = await create(m, { url: 'https://example.com/hooks', topics: ['user.created'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-mock-warning')).toBeNull();
  });

  it('keeps a subscription to a host it does not deliver to, with a warning; each delivery fails as "Target refused"', async () => {
    const m = mock();
    const res = await create(m, { url: 'http://example.com', topics: ['user.created'] });
    expect(res.status).toBe(200);
    expect(warningCodesOf(res.headers.get('x-mock-warning'))).toEqual(['undeliverable_target']);
    expect(res.body).toMatchObject({ url: 'http://example.com', active: true });
    const moved = await m.call('POST', `/subscriptions/${res.body.id}`, { body: { url: 'https://example.org/hooks' } });
    expect(moved.status).toBe(200);
    expect(warningCodesOf(moved.headers.get('x-mock-warning'))).toEqual(['undeliverable_target']);
    expect((await m.call('POST', '/users', { body: { user_id: 'refused-1' } })).status).toBe(200);
    expect((await m.call('POST', '/__admin/jobs/run', { token: null })).status).toBe(200);
    const errors = await m.call('GET', `/subscriptions/${res.body.id}/error`);
    expect(errors.body.notifications.map((n: { http_request: { request_uri: string; response_entity: string } }) => [n.http_request.request_uri, n.http_request.response_entity])).toEqual([
      ['https://example.org/hooks', 'Target refused: webhooks go to loopback addresses unless the mock runs with --webhook-hosts any'],
    ]);
  });

  it('refuses a url the mock does not deliver to under strict mode, creating and changing nothing', async () => {
    const m = mock({ strict: true });
    const res = await expectRejected(m, 'POST', '/subscriptions', { body: { url: 'http://example.com', topics: ['user.created'] } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0]).toMatchObject({ field: 'url', message: 'url must be an http(s) URL on a loopback address (localhost, 127.0.0.0/8, [::1]) unless the mock runs with --webhook-hosts any.' });
    expect((await m.call('GET', '/subscriptions')).body.items).toEqual([]);
  });

  it('refuses the 251st subscription of an app, and keeps at most 1,000 queued deliveries, dropping the oldest', async () => {
    const m = mock({ rateLimit: 1_000_000_000 });
    for (let i = 0; i < 250; i++) expect((await create(m, { url: `${URL_OK}/${i}`, topics: ['user.created'] })).status).toBe(200);
    const res = await expectRejected(m, 'POST', '/subscriptions', { body: { url: URL_OK, topics: ['user.created'] } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].message).toContain('maximum of 250 subscriptions');
    expect((await m.call('GET', '/subscriptions')).body.items).toHaveLength(250);
    // 5 users × 250 subscriptions owe 1,250 deliveries: the queue keeps the newest 1,000.
    for (let i = 1; i <= 5; i++) expect((await m.call('POST', '/users', { body: { user_id: `capped-${i}` } })).status).toBe(200);
    const queued = (await webhookJobs(m)) as unknown as { notification: { data: { item: { user_id: string } } } }[];
    expect(queued).toHaveLength(1000);
    expect(queued.map((j) => j.notification.data.item.user_id)).toEqual(['capped-2', 'capped-3', 'capped-4', 'capped-5'].flatMap((u) => Array(250).fill(u)));
  });
});

describe('updating, deleting, pinging', () => {
  it.each(['POST', 'PUT'])('%s /subscriptions/{id} replaces topics and event_names and keeps what the body does not name', async (method) => {
    const m = mock();
    const sub = (await create(m, { url: URL_OK, topics: ['user.created', 'event.created'], metadata: { event_names: ['a', 'b'] }, hub_secret: 'k' })).body;
    m.clock.advance(5);
    const res = await m.call(method, `/subscriptions/${sub.id}`, { body: { topics: ['event.created'], metadata: { event_names: ['c'] } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...sub, topics: ['event.created'], metadata: { event_names: ['c'] }, updated_at: TEST_NOW + 5 });
    expect((await m.call('GET', `/subscriptions/${sub.id}`)).body).toEqual(res.body);
  });

  it('refuses an update that would leave event.created without event_names, changing nothing', async () => {
    const m = mock();
    const sub = (await create(m, { url: URL_OK, topics: ['user.created'] })).body;
    await expectRejected(m, 'POST', `/subscriptions/${sub.id}`, { body: { topics: ['event.created'] } }, 400, ['parameter_not_found']);
    await expectRejected(m, 'POST', `/subscriptions/${sub.id}`, { body: { url: 'ftp://127.0.0.1/x' } }, 400, ['parameter_invalid']);
  });

  it('deactivating drops the queued deliveries; deleting removes the subscription and its queue', async () => {
    const m = mock();
    const a = (await create(m, { url: URL_OK, topics: ['user.created'] })).body;
    const b = (await create(m, { url: URL_OK, topics: ['user.created'] })).body;
    await m.call('POST', '/users', { body: { user_id: 'queued-1' } });
    expect(await webhookJobs(m)).toHaveLength(2);
    expect((await m.call('POST', `/subscriptions/${a.id}`, { body: { active: false } })).body.active).toBe(false);
    expect(await webhookJobs(m)).toMatchObject([{ subscription_id: b.id }]);
    const deleted = await m.call('DELETE', `/subscriptions/${b.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(b.id);
    expect(await webhookJobs(m)).toEqual([]);
    expect((await m.call('GET', `/subscriptions/${b.id}`)).status).toBe(404);
    expect((await m.call('GET', '/subscriptions')).body.items.map((s: { id: string }) => s.id)).toEqual([a.id]);
  });

  it('ping queues a ping notification; an inactive subscription gets none', async () => {
    const m = mock();
    const sub = (await create(m, { url: URL_OK, topics: ['user.created'] })).body;
    expect((await m.call('POST', `/subscriptions/${sub.id}/ping`)).body).toEqual(sub);
    expect(await webhookJobs(m)).toMatchObject([{ subscription_id: sub.id, attempt: 1, due_at: TEST_NOW + m.store.jobDelaySeconds, notification: { topic: 'ping', data: { item: { type: 'ping' } } } }]);
    await m.call('POST', `/subscriptions/${sub.id}`, { body: { active: false } });
    await m.call('POST', `/subscriptions/${sub.id}/ping`);
    expect(await webhookJobs(m)).toEqual([]);
  });

  it.each([
    ['GET', ''],
    ['POST', ''],
    ['PUT', ''],
    ['DELETE', ''],
    ['POST', '/ping'],
    ['GET', '/sent'],
    ['GET', '/error'],
    ['GET', '/errors'],
  ])('%s /subscriptions/{unknown}%s answers 404 not_found', async (method, tail) => {
    const m = mock();
    const res = await m.call(method, `/subscriptions/nsub_nope${tail}`, method === 'POST' && tail === '' ? { body: {} } : method === 'PUT' ? { body: {} } : {});
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['not_found']);
  });

  it('answers a write that changes nothing with 200 and queues no delivery for it', async () => {
    const m = mock();
    await create(m, { url: URL_OK, topics: ['user.created', 'user.tag.created'] });
    const first = await m.call('POST', '/tags', { body: { name: 'Quiet' } });
    expect(first.status).toBe(200);
    const before = await stateOf(m);
    // The tag exists and names no one: the request writes nothing, so the publisher has nothing to read.
    const again = await m.call('POST', '/tags', { body: { name: 'Quiet' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await stateOf(m)).toEqual(before);
    expect(await webhookJobs(m)).toEqual([]);
  });

  it('answers empty feeds for a subscription nothing was sent to', async () => {
    const m = mock();
    const sub = (await create(m, { url: URL_OK, topics: ['user.created'] })).body;
    for (const feed of ['sent', 'error', 'errors']) expect((await m.call('GET', `/subscriptions/${sub.id}/${feed}`)).body).toEqual({ type: 'notification.list', notifications: [] });
  });
});

describe('subscriptions in the app\'s state', () => {
  it('export carries subscriptions and queued deliveries, and seeding the export gives them back', async () => {
    const m = mock();
    const sub = (await create(m, { url: URL_OK, topics: ['user.created'], hub_secret: 'k' })).body;
    await m.call('POST', '/users', { body: { user_id: 'carried-1' } });
    const exported = await stateOf(m);
    expect(exported.subscriptions).toEqual([{ id: sub.id, created_at: TEST_NOW, updated_at: TEST_NOW, url: URL_OK, topics: ['user.created'], active: true, hub_secret: 'k', metadata: {} }]);
    const n = mock();
    expect((await admin(n, 'POST', '/__admin/seed', exported)).status).toBe(200);
    expect((await n.call('GET', `/subscriptions/${sub.id}`)).body).toEqual(sub);
    expect(await webhookJobs(n)).toEqual(await webhookJobs(m));
  });

  it('refuses a seed whose queued delivery names an unknown subscription', async () => {
    const m = mock();
    const res = await admin(m, 'POST', '/__admin/seed', { app: { id: 'hooks', tokens: ['hooks-token'] }, jobs: [{ id: 1, kind: 'webhook', subscription_id: 'nsub_x', notification: {}, attempt: 1, due_at: TEST_NOW }] });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
  });

  it('reset forgets subscriptions made since the seed; a snapshot restore brings them back', async () => {
    const m = mock();
    const sub = (await create(m, { url: URL_OK, topics: ['user.created'] })).body;
    expect((await admin(m, 'POST', '/__admin/snapshots?app=demo', { name: 'hooks' })).status).toBe(201);
    await admin(m, 'POST', '/__admin/reset?app=demo');
    expect((await m.call('GET', '/subscriptions')).body.items).toEqual([]);
    expect((await admin(m, 'POST', '/__admin/snapshots/hooks/restore?app=demo')).status).toBe(200);
    expect((await m.call('GET', '/subscriptions')).body.items).toEqual([sub]);
  });
});

describe('merging queued deliveries', () => {
  it('keys a queued delivery by its subscription and notification, never by its number in the queue', async () => {
    const m = mock();
    const sub = (await create(m, { url: URL_OK, topics: ['user.created'] })).body.id as string;
    expect((await m.call('POST', '/users', { body: { user_id: 'merge-hook-1' } })).status).toBe(200);
    const state = await stateOf(m);
    const queued = await webhookJobs(m);
    expect(queued).toHaveLength(1);
    // The app's own export merged again replaces each entry by what it runs: nothing is added.
    expect((await admin(m, 'POST', '/__admin/seed?mode=merge', { app: state.app, subscriptions: state.subscriptions, jobs: state.jobs })).status).toBe(200);
    expect((await stateOf(m)).jobs).toEqual(state.jobs);
    // Another export numbers its queue from 1 too: its delivery of another notification is added, numbered on.
    const [first] = queued as unknown as { id: number; notification: Record<string, unknown> }[];
    const other = { ...first, id: 1, notification: { ...first?.notification, id: 'notif_00000000-0000-4000-8000-000000000001' } };
    expect((await admin(m, 'POST', '/__admin/seed?mode=merge', { app: state.app, jobs: [other] })).status).toBe(200);
    const after = (await webhookJobs(m)) as unknown as { id: number; subscription_id: string; notification: { id: string } }[];
    expect(after.map((j) => [j.subscription_id, j.notification.id])).toEqual([
      [sub, first?.notification.id],
      [sub, 'notif_00000000-0000-4000-8000-000000000001'],
    ]);
    expect(new Set(after.map((j) => j.id)).size).toBe(2);
  });
});
