// A delivery handed to the sender before a snapshot restore (out at the receiver, or waiting behind
// one in its subscription's lane) belongs to a state that is gone: its answer, 429 or 200, must not
// write the restored app's feeds, throttle or queue, and the ones waiting are not sent at all.
// (Failed before src/resources/subscriptions/delivery.ts compared the app's delivery queue with the one each
// delivery was handed over from.)

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mock, type TestMock } from '../../helpers.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

const stateText = async (m: TestMock) => (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
const webhookJobs = async (m: TestMock) =>
  (JSON.parse(await stateText(m)).jobs as { kind: string; notification: any }[]).filter((j) => j.kind === 'webhook');

describe('a snapshot restore while a delivery is out', () => {
  it('leaves the restored app as the snapshot had it', async () => {
    const m = mock();
    expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    rx.plan.set('/leak', [{ status: 429, gate }, { status: 200 }]);
    const sub = await m.call('POST', '/subscriptions', { body: { url: `${rx.base}/leak`, topics: ['user.created'] } });
    expect(sub.status).toBe(200);
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'before' } })).status).toBe(201);
    const snapshotState = await stateText(m);
    await m.call('POST', '/users', { body: { user_id: 'gone-a' } });
    await m.call('POST', '/users', { body: { user_id: 'gone-b' } });
    // A request after the delay hands both over (jobs/run would wait for the sends): gone-a is out
    // with its answer held, gone-b waits behind it.
    m.clock.advance(m.store.jobDelaySeconds);
    expect((await m.call('GET', '/users?per_page=1')).status).toBe(200);
    expect((await m.call('POST', '/__admin/snapshots/before/restore?app=demo', { token: null })).status).toBe(200);
    expect(await stateText(m)).toBe(snapshotState);
    open();
    await m.store.webhooks!.settled();
    // Fails: [gone-a, gone-b] are queued in the restored app, gone-a's 429 is in its error feed.
    expect((await webhookJobs(m)).map((j) => j.notification.data.item.user_id)).toEqual([]);
    expect((await m.call('GET', `/subscriptions/${sub.body.id}/error`)).body.notifications).toEqual([]);
    expect(await stateText(m)).toBe(snapshotState);
  });
});

describe('a snapshot restore while a delivery is out (answered 200)', () => {
  it('sends nothing handed over before the restore and records nothing of it in the restored feeds', async () => {
    const m = mock();
    expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
    rx.received.length = 0;
    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    rx.plan.set('/leak200', [{ status: 200, gate }, { status: 200 }]);
    const sub = await m.call('POST', '/subscriptions', { body: { url: `${rx.base}/leak200`, topics: ['user.created'] } });
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'before' } })).status).toBe(201);
    const snapshotState = await stateText(m);
    await m.call('POST', '/users', { body: { user_id: 'old-a' } });
    await m.call('POST', '/users', { body: { user_id: 'old-b' } });
    m.clock.advance(m.store.jobDelaySeconds);
    expect((await m.call('GET', '/users?per_page=1')).status).toBe(200);
    expect((await m.call('POST', '/__admin/snapshots/before/restore?app=demo', { token: null })).status).toBe(200);
    open();
    await m.store.webhooks!.settled();
    // old-b was still waiting in the lane at the restore: the restored app never had that user.
    expect(rx.received.map((r) => r.body.data.item.user_id)).toEqual(['old-a']);
    expect((await m.call('GET', `/subscriptions/${sub.body.id}/sent`)).body.notifications).toEqual([]);
    expect(await stateText(m)).toBe(snapshotState);
  });
});

describe('a user archived, then brought back by POST /users', () => {
  it('is deleted to subscribers when archived and created again when restored, a seeded user and a new one alike', async () => {
    const m = mock();
    expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
    const sub = await m.call('POST', '/subscriptions', { body: { url: `${rx.base}/archive`, topics: ['user.created', 'user.deleted', 'user.updated'] } });
    expect(sub.status).toBe(200);
    const created = await m.call('POST', '/users', { body: { user_id: 'comes-back' } });
    expect(created.status).toBe(200);
    // Archived and restored in separate requests: the seeded user's record was in the base, the new one's in the app.
    for (const userId of ['ada-1', 'comes-back']) {
      expect((await m.call('DELETE', `/users?user_id=${userId}`)).status).toBe(200);
      expect((await m.call('POST', '/users', { body: { user_id: userId } })).status).toBe(200);
    }
    const topics = (await webhookJobs(m)).map((j) => `${j.notification.topic} ${j.notification.data.item.user_id}`);
    expect(topics).toEqual(['user.created comes-back', 'user.deleted ada-1', 'user.created ada-1', 'user.deleted comes-back', 'user.created comes-back']);
  });
});
