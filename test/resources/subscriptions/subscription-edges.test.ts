// Edges of the subscription rules (src/resources/subscriptions/rules.ts) the other webhook tests leave open:
// event.created with an empty event_names list, updates of url and hub_secret read back, an update
// that keeps a subscription active keeps its queue, a ping is wanted whatever the topics, an event
// whose name is not listed is owed nothing, and each feed keeps its newest 100 entries.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRejected, mock, type TestMock } from '../../helpers.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

const admin = (m: TestMock, method: string, path: string) => m.call(method, path, { token: null });
const webhookJobs = async (m: TestMock) =>
  (JSON.parse((await admin(m, 'GET', '/__admin/state?app=demo')).text).jobs as { kind: string; notification: Record<string, any> }[]).filter((j) => j.kind === 'webhook');

async function ready(): Promise<TestMock> {
  const m = mock({ rateLimit: 100_000 });
  expect((await admin(m, 'POST', '/__admin/jobs/run?app=demo')).status).toBe(200);
  return m;
}

async function subscribe(m: TestMock, body: Record<string, unknown>): Promise<string> {
  const res = await m.call('POST', '/subscriptions', { body: { url: `${rx.base}/edges`, ...body } });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
}

describe('subscription edges', () => {
  it('refuses event.created with an empty event_names list, naming the member', async () => {
    const m = await ready();
    const res = await expectRejected(m, 'POST', '/subscriptions', { body: { url: `${rx.base}/edges`, topics: ['event.created'], metadata: { event_names: [] } } }, 400, ['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('metadata.event_names');
    const sub = await subscribe(m, { topics: ['user.created'] });
    await expectRejected(m, 'POST', `/subscriptions/${sub}`, { body: { topics: ['event.created'], metadata: { event_names: [] } } }, 400, ['parameter_not_found']);
  });

  it('an update replaces url and hub_secret, and one that keeps the subscription active keeps its queue', async () => {
    const m = await ready();
    const sub = await subscribe(m, { topics: ['user.created'], hub_secret: 'old' });
    expect((await m.call('POST', '/users', { body: { user_id: 'edge-q' } })).status).toBe(200);
    const url = `${rx.base}/edges-moved`;
    const res = await m.call('POST', `/subscriptions/${sub}`, { body: { url, hub_secret: 'new', topics: ['user.created', 'user.updated'] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url, hub_secret: 'new', active: true, topics: ['user.created', 'user.updated'] });
    expect((await m.call('GET', `/subscriptions/${sub}`)).body).toMatchObject({ url, hub_secret: 'new' });
    expect((await webhookJobs(m)).map((j) => j.notification.data.item.user_id)).toEqual(['edge-q']);
    // Sent to the new url, signed with the new secret.
    rx.received.length = 0;
    expect((await admin(m, 'POST', '/__admin/jobs/run?app=demo')).status).toBe(200);
    expect(rx.received.map((r) => r.path)).toEqual(['/edges-moved']);
  });

  it('delivers a ping whatever the topics, and owes nothing for an event whose name is not listed', async () => {
    const m = await ready();
    const sub = await subscribe(m, { topics: ['event.created'], metadata: { event_names: ['listed'] } });
    expect((await m.call('POST', '/events', { body: { event_name: 'other', created_at: 1_700_000_000, user_id: 'ada-1' } })).status).toBe(202);
    expect(await webhookJobs(m)).toEqual([]);
    expect((await m.call('POST', '/events', { body: { event_name: 'listed', created_at: 1_700_000_001, user_id: 'ada-1' } })).status).toBe(202);
    expect((await m.call('POST', `/subscriptions/${sub}/ping`)).status).toBe(200);
    rx.received.length = 0;
    expect((await admin(m, 'POST', '/__admin/jobs/run?app=demo')).status).toBe(200);
    expect(rx.received.map((r) => [r.body.topic, r.body.data.item.event_name ?? r.body.data.item.type])).toEqual([
      ['event.created', 'listed'],
      ['ping', 'ping'],
    ]);
  });

  it('keeps the newest 100 entries of a feed', async () => {
    const m = await ready();
    rx.plan.set('/edges-down', [{ status: 500 }]);
    const res = await m.call('POST', '/subscriptions', { body: { url: `${rx.base}/edges-down`, topics: ['user.created'] } });
    const sub = res.body.id as string;
    for (let i = 0; i < 101; i++) expect((await m.call('POST', `/subscriptions/${sub}/ping`)).status).toBe(200);
    const pings = (await webhookJobs(m)).map((j) => j.notification.id);
    expect((await admin(m, 'POST', '/__admin/jobs/run?app=demo')).status).toBe(200);
    const feed = (await m.call('GET', `/subscriptions/${sub}/error`)).body.notifications as { id: string }[];
    expect(feed.map((n) => n.id)).toEqual(pings.slice(1).reverse());
  });
});
