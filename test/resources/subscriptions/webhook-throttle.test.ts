// Webhook delivery rules beyond the happy path, against a real receiver on 127.0.0.1: a 429
// throttles the subscription on the mock's clock (research §4.1), POST /subscriptions/{id}/retry
// re-delivers the error feed's notifications, the pending-delivery cap drops the oldest in order,
// and the two guards (the address recheck at delivery time, redirects not followed). The clock is
// driven; nothing sleeps.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveryQueueWork } from '../../../src/resources/subscriptions/delivery-queue.js';
import { GROUP } from '../../fixture-ids.js';
import { expectRejected, TEST_NOW, type TestMock } from '../../helpers.js';
import { feedOf, ready, subscribe as subscribeTo, tick } from './webhook-app.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());
beforeEach(() => {
  rx.received.length = 0;
  rx.plan.clear();
});

const subscribe = (m: TestMock, path: string, topics: string[] = ['user.created']): Promise<string> => subscribeTo(m, `${rx.base}${path}`, { topics });
const userIds = () => rx.received.map((r) => r.body.data.item.user_id as string);
/** The app's webhook jobs as it holds them now: no request in between hands the due ones over. */
const heldJobs = (m: TestMock) => (m.store.exportApp('demo').jobs ?? []).filter((j) => j.kind === 'webhook');
const webhookJobs = async (m: TestMock) => {
  const state = JSON.parse((await m.call('GET', '/__admin/state?app=demo', { token: null })).text);
  return (state.jobs as { kind: string; notification: any }[]).filter((j) => j.kind === 'webhook');
};

describe('429 from the receiver', () => {
  it('holds the subscription\'s deliveries 1 minute, then 2, in order, without counting an attempt, and lifts the throttle on a 2xx', async () => {
    const m = await ready();
    rx.plan.set('/busy', [{ status: 429 }, { status: 429 }, { status: 200 }]);
    const sub = await subscribe(m, '/busy');
    await m.call('POST', '/users', { body: { user_id: 'first' } });
    await tick(m, m.store.jobDelaySeconds);
    expect(userIds()).toEqual(['first']);
    // Queued while throttled, and flushed with jobs/run: the throttle holds on the mock's clock.
    await m.call('POST', '/users', { body: { user_id: 'second' } });
    expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
    expect(userIds()).toEqual(['first']);
    await tick(m, 59);
    expect(userIds()).toEqual(['first']);
    await tick(m, 1); // 60 s after the 429: tried again, 429 again, so 120 s now
    expect(userIds()).toEqual(['first', 'first']);
    await tick(m, 119);
    expect(userIds()).toEqual(['first', 'first']);
    await tick(m, 1);
    expect(userIds()).toEqual(['first', 'first', 'first', 'second']);
    expect(rx.received.map((r) => r.body.delivery_attempts)).toEqual([1, 1, 1, 1]);
    expect((await feedOf(m, sub, 'error')).map((e) => e.http_request.response_status_code)).toEqual([429, 429]);
    expect((await feedOf(m, sub, 'sent')).map((e) => e.data.item.user_id)).toEqual(['second', 'first']);
    // Lifted: the next one goes after the usual delay.
    await m.call('POST', '/users', { body: { user_id: 'third' } });
    await tick(m, m.store.jobDelaySeconds);
    expect(userIds().at(-1)).toBe('third');
  });

  it('doubles the delay up to the point where the notification would be over 2 hours old, then drops it into the error feed', async () => {
    const m = await ready();
    rx.plan.set('/jammed', [{ status: 429 }]);
    const sub = await subscribe(m, '/jammed');
    await m.call('POST', '/users', { body: { user_id: 'jam' } });
    await tick(m, m.store.jobDelaySeconds);
    // 60, 120, ..., 1920 s: 7 attempts; the 7th 429 would hold it 3840 s more, past 2 h of age.
    for (const delay of [60, 120, 240, 480, 960, 1920]) {
      const before = rx.received.length;
      await tick(m, delay - 1);
      expect(rx.received.length).toBe(before);
      await tick(m, 1);
      expect(rx.received.length).toBe(before + 1);
    }
    expect(rx.received).toHaveLength(7);
    expect(await webhookJobs(m)).toEqual([]);
    const [dropped, ...errors] = await feedOf(m, sub, 'error');
    expect(errors.map((e) => e.http_request.response_status_code)).toEqual([429, 429, 429, 429, 429, 429, 429]);
    expect(dropped.delivery_status).toBe('failed');
    expect(dropped.http_request).toMatchObject({ response_status_code: 0, response_entity: expect.stringContaining('429') });
    await tick(m, 7200);
    expect(rx.received).toHaveLength(7);
  });
});

describe('order after a 429', () => {
  it('holds the deliveries handed over with the throttled one before those still queued: a, a, b, c', async () => {
    const m = await ready();
    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    rx.plan.set('/in-order', [{ status: 429, gate }, { status: 200 }]);
    await subscribe(m, '/in-order');
    await m.call('POST', '/users', { body: { user_id: 'a' } });
    await m.call('POST', '/users', { body: { user_id: 'b' } });
    // a and b are due together and handed over by the same run; a's answer is held back.
    m.clock.advance(m.store.jobDelaySeconds);
    expect((await m.call('GET', '/users?per_page=1')).status).toBe(200);
    // c is queued 5 s later, while a is still out and b waits behind it.
    m.clock.advance(5);
    await m.call('POST', '/users', { body: { user_id: 'c' } });
    expect((await webhookJobs(m)).map((j) => j.notification.data.item.user_id)).toEqual(['c']);
    open();
    await m.store.webhooks!.settled();
    expect(userIds()).toEqual(['a']);
    // All three wait for the throttle, in their order.
    expect((await webhookJobs(m)).map((j) => j.notification.data.item.user_id)).toEqual(['a', 'b', 'c']);
    await tick(m, 60);
    expect(userIds()).toEqual(['a', 'a', 'b', 'c']);
  });
});

describe('only a 2xx lifts a throttle', () => {
  it('a 2xx between two 429s ends the doubling: the second 429 holds for 60 s again', async () => {
    const m = await ready();
    rx.plan.set('/eased', [{ status: 429 }, { status: 200 }, { status: 429 }, { status: 200 }]);
    await subscribe(m, '/eased');
    await m.call('POST', '/users', { body: { user_id: 'first' } });
    await tick(m, m.store.jobDelaySeconds); // 429: held 60 s
    await tick(m, 60); // 200: lifted
    expect(userIds()).toEqual(['first', 'first']);
    await m.call('POST', '/users', { body: { user_id: 'second' } });
    await tick(m, m.store.jobDelaySeconds); // 429: 60 s, not 120
    await tick(m, 59);
    expect(userIds()).toEqual(['first', 'first', 'second']);
    await tick(m, 1);
    expect(userIds()).toEqual(['first', 'first', 'second', 'second']);
  });

  it('holds all the same when the feeds keep none of the attempts', async () => {
    const m = await ready({ limits: { webhookFeedBytes: 1 } });
    rx.plan.set('/unrecorded', [{ status: 429 }, { status: 200 }]);
    const sub = await subscribe(m, '/unrecorded');
    await m.call('POST', '/users', { body: { user_id: 'first' } });
    await tick(m, m.store.jobDelaySeconds);
    await tick(m, 59);
    expect(userIds()).toEqual(['first']);
    await tick(m, 1);
    expect(userIds()).toEqual(['first', 'first']);
    expect(await feedOf(m, sub, 'sent')).toEqual([]);
    expect(await feedOf(m, sub, 'error')).toEqual([]);
    // Lifted by the 2xx: the next goes after the usual delay.
    await m.call('POST', '/users', { body: { user_id: 'second' } });
    await tick(m, m.store.jobDelaySeconds);
    expect(userIds()).toEqual(['first', 'first', 'second']);
  });

  it('a 500 between two 429s keeps the doubling: the second 429 holds for 120 s', async () => {
    const m = await ready();
    rx.plan.set('/mixed', [{ status: 429 }, { status: 500 }, { status: 429 }, { status: 200 }]);
    await subscribe(m, '/mixed');
    await m.call('POST', '/users', { body: { user_id: 'first' } });
    await tick(m, m.store.jobDelaySeconds); // 429: held 60 s
    expect(rx.received).toHaveLength(1);
    await tick(m, 60); // 500: retried 60 s later
    expect(rx.received).toHaveLength(2);
    await tick(m, 60); // 429 again, the throttle still on: 120 s now
    expect(rx.received).toHaveLength(3);
    await tick(m, 60);
    expect(rx.received).toHaveLength(3);
    await tick(m, 60);
    expect(rx.received).toHaveLength(4);
    expect(rx.received.map((r) => r.body.data.item.user_id)).toEqual(['first', 'first', 'first', 'first']);
  });
});

describe('POST /subscriptions/{id}/retry', () => {
  it('queues again each failed notification not delivered since, oldest first, with one more attempt; nothing twice', async () => {
    const m = await ready();
    rx.plan.set('/down', [{ status: 500 }]);
    const sub = await subscribe(m, '/down');
    await m.call('POST', '/users', { body: { user_id: 'r1' } });
    await m.call('POST', '/users', { body: { user_id: 'r2' } });
    await tick(m, m.store.jobDelaySeconds);
    await tick(m, 60); // the automatic retries fail too
    expect(rx.received.map((r) => [r.body.data.item.user_id, r.body.delivery_attempts])).toEqual([['r1', 1], ['r2', 1], ['r1', 2], ['r2', 2]]);
    const ids = rx.received.slice(0, 2).map((r) => r.body.id);
    rx.plan.set('/down', [{ status: 200 }]);
    rx.received.length = 0;

    const res = await m.call('POST', `/subscriptions/${sub}/retry`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'notification_subscription', id: sub });
    // Due now: the next request hands them to the sender before its handler runs, so a second call
    // finds them being sent (neither queued nor in a feed) and queues nothing twice.
    expect((await m.call('POST', `/subscriptions/${sub}/retry`)).status).toBe(200);
    await tick(m, 0);
    expect(rx.received.map((r) => [r.body.id, r.body.delivery_attempts])).toEqual([[ids[0], 3], [ids[1], 3]]);
    // Sent again as a new attempt: pending, never delivered yet.
    expect(rx.received.map((r) => [r.body.delivery_status, r.body.delivered_at])).toEqual([['pending', 0], ['pending', 0]]);
    expect((await feedOf(m, sub, 'sent')).map((e) => e.id)).toEqual([ids[1], ids[0]]);
    // Delivered since: nothing left to retry.
    await m.call('POST', `/subscriptions/${sub}/retry`);
    expect(heldJobs(m)).toEqual([]);
    expect(await webhookJobs(m)).toEqual([]);
  });

  it('queues nothing for an inactive subscription, and 404s an unknown one', async () => {
    const m = await ready();
    rx.plan.set('/off', [{ status: 500 }]);
    const sub = await subscribe(m, '/off');
    await m.call('POST', '/users', { body: { user_id: 'off-1' } });
    await tick(m, m.store.jobDelaySeconds);
    expect((await m.call('POST', `/subscriptions/${sub}`, { body: { active: false } })).status).toBe(200);
    expect((await m.call('POST', `/subscriptions/${sub}/retry`)).body.active).toBe(false);
    expect(heldJobs(m)).toEqual([]);
    expect(await webhookJobs(m)).toEqual([]);
    const unknown = await m.call('POST', '/subscriptions/nsub_nope/retry');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('not_found');
  });
});

describe('the pending-delivery cap', () => {
  it('drops the oldest queued delivery past 1,000 and keeps the others in order', async () => {
    const m = await ready({ rateLimit: 100_000 });
    const sub = await subscribe(m, '/cap');
    for (const id of ['cap-0', 'cap-1', 'cap-2']) await m.call('POST', '/users', { body: { user_id: id } });
    for (let i = 0; i < 998; i++) await m.call('POST', `/subscriptions/${sub}/ping`);
    const jobs = await webhookJobs(m);
    expect(jobs).toHaveLength(1000);
    expect(jobs.slice(0, 3).map((j) => j.notification.topic)).toEqual(['user.created', 'user.created', 'ping']);
    expect(jobs.slice(0, 2).map((j) => j.notification.data.item.user_id)).toEqual(['cap-1', 'cap-2']);
    expect(jobs.slice(2).every((j) => j.notification.topic === 'ping')).toBe(true);
  });

  it('costs O(log n) per notification at the cap: a request owing 11 notifications moves a few heap slots each, not the queue', async () => {
    const m = await ready();
    const subs: string[] = [];
    for (let i = 0; i < 11; i++) subs.push(await subscribe(m, `/cap-cost-${i}`));
    const state = JSON.parse((await m.call('GET', '/__admin/state?app=demo', { token: null })).text);
    const notification = (i: number) => ({ type: 'notification_event', id: `notif_seeded_${i}`, topic: 'ping', created_at: TEST_NOW });
    state.jobs = Array.from({ length: 1000 }, (_, i) => ({ id: i + 1, kind: 'webhook', subscription_id: subs[i % 11], notification: notification(i), attempt: 1, due_at: TEST_NOW + 1 }));
    expect((await m.call('POST', '/__admin/seed', { token: null, body: state })).status).toBe(200);
    deliveryQueueWork.moves = 0;
    expect((await m.call('POST', '/users', { body: { user_id: 'at-the-cap' } })).status).toBe(200);
    // Each notification: one drop and one insert, each O(log2 1000) ≈ 10 slots moved.
    expect(deliveryQueueWork.moves).toBeGreaterThan(0);
    expect(deliveryQueueWork.moves).toBeLessThanOrEqual(11 * 4 * Math.ceil(Math.log2(1000)));
    const jobs = await webhookJobs(m);
    expect(jobs).toHaveLength(1000);
    // The 11 oldest went; the 11 new ones are last.
    expect(jobs[0]!.notification.id).toBe('notif_seeded_11');
    expect(jobs.slice(-11).map((j) => j.notification.topic)).toEqual(Array(11).fill('user.created'));
    expect((await m.call('GET', '/__admin/apps?app=demo', { token: null })).body.apps[0]).toMatchObject({
      pending_jobs: 1000,
      pending_by_kind: { enrichment: 0, bulk_tasks: 0, webhook_deliveries: 1000 },
      next_job_due: TEST_NOW + 1,
    });
  });
});

describe('queued deliveries are app state', () => {
  it('a snapshot keeps them, a restore brings them back exactly and they go in order, a reset forgets them; the console counts follow', async () => {
    const m = await ready();
    await subscribe(m, '/state');
    const pending = async () => (await m.call('GET', '/__admin/apps?app=demo', { token: null })).body.apps[0].pending_by_kind.webhook_deliveries as number;
    for (const id of ['s1', 's2', 's3']) await m.call('POST', '/users', { body: { user_id: id } });
    const queued = await webhookJobs(m);
    expect(queued.map((j) => j.notification.data.item.user_id)).toEqual(['s1', 's2', 's3']);
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'queued' } })).status).toBe(201);
    await m.call('POST', '/users', { body: { user_id: 's4' } });
    expect(await pending()).toBe(4);
    expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
    expect(userIds()).toEqual(['s1', 's2', 's3', 's4']);
    expect(await webhookJobs(m)).toEqual([]);
    expect(await pending()).toBe(0);

    expect((await m.call('POST', '/__admin/snapshots/queued/restore?app=demo', { token: null })).status).toBe(200);
    expect(await webhookJobs(m)).toEqual(queued);
    expect(await pending()).toBe(3);
    rx.received.length = 0;
    expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
    expect(userIds()).toEqual(['s1', 's2', 's3']);
    // The snapshot kept its own copy: restored again, the same three are queued.
    expect((await m.call('POST', '/__admin/snapshots/queued/restore?app=demo', { token: null })).status).toBe(200);
    expect(await webhookJobs(m)).toEqual(queued);
    expect((await m.call('POST', '/__admin/reset?app=demo', { token: null })).status).toBe(200);
    expect(await webhookJobs(m)).toEqual([]);
    expect(await pending()).toBe(0);
  });
});

describe('delivery guards', () => {
  it('rechecks the target when sending: a seeded subscription to a non-loopback address (0.0.0.0) is refused, not sent', async () => {
    const m = await ready();
    await subscribe(m, '/recheck');
    const state = JSON.parse((await m.call('GET', '/__admin/state?app=demo', { token: null })).text);
    // 0.0.0.0 reaches this machine's receiver, but it is not a loopback address the mock allows.
    state.subscriptions[0].url = `http://0.0.0.0:${rx.port}/recheck`;
    expect((await m.call('POST', '/__admin/seed', { token: null, body: state })).status).toBe(200);
    const sub = state.subscriptions[0].id as string;
    await m.call('POST', '/users', { body: { user_id: 'refused' } });
    await tick(m, m.store.jobDelaySeconds);
    expect(rx.received).toEqual([]);
    const [error] = await feedOf(m, sub, 'error');
    expect(error.http_request).toMatchObject({ request_uri: `http://0.0.0.0:${rx.port}/recheck`, response_status_code: 0, response_entity: expect.stringContaining('Target refused') });
  });

  it('does not follow a redirect: the 302 is the answer, recorded as a failure, and the Location is never requested', async () => {
    const m = await ready();
    rx.plan.set('/moved', [{ status: 302, headers: { location: '/landed' } }]);
    const sub = await subscribe(m, '/moved');
    await m.call('POST', '/users', { body: { user_id: 'moved' } });
    await tick(m, m.store.jobDelaySeconds);
    expect(rx.received.map((r) => r.path)).toEqual(['/moved']);
    const [error] = await feedOf(m, sub, 'error');
    expect(error.http_request).toMatchObject({ response_status_code: 302, response_headers: expect.objectContaining({ location: '/landed' }) });
    expect(await feedOf(m, sub, 'sent')).toEqual([]);
  });
});

describe('POST /__admin/conversations/{id}/parts/{part_id}/tags', () => {
  it('tags the conversation as the inbox would and fires conversation_part.tag.created with tags_added; state follows', async () => {
    const m = await ready();
    const sub = await subscribe(m, '/part-tags', ['conversation_part.tag.created']);
    const before = (await m.call('GET', `/conversations/${GROUP}`)).body;
    const part = before.conversation_parts.conversation_parts[0].id as string;
    const path = `/__admin/conversations/${GROUP}/parts/${part}/tags?app=demo`;
    const res = await m.call('POST', path, { token: null, body: { name: 'Refund' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ type: 'tag', id: expect.any(String), name: 'Refund' });
    const after = (await m.call('GET', `/conversations/${GROUP}`)).body;
    // 1.1 tag items: applied_at is the conversation's created_at, applied_by null (no time is kept per tag).
    expect(after.tags.tags).toEqual([...before.tags.tags, { type: 'tag', id: res.body.id, name: 'Refund', applied_at: after.created_at, applied_by: null }]);
    expect((await m.call('GET', '/tags')).body.tags).toContainEqual(expect.objectContaining({ id: res.body.id, name: 'Refund' }));
    await tick(m, m.store.jobDelaySeconds);
    expect(rx.received).toHaveLength(1);
    const [got] = rx.received;
    expect(got!.body.topic).toBe('conversation_part.tag.created');
    expect(got!.body.data.item).toMatchObject({ type: 'conversation', id: GROUP, tags: after.tags, tags_added: { type: 'tag.list', tags: [{ type: 'tag', id: res.body.id, name: 'Refund' }] } });
    // Tagged already: nothing changes, nothing fires.
    expect((await m.call('POST', path, { token: null, body: { name: 'refund' } })).body.id).toBe(res.body.id);
    await tick(m, m.store.jobDelaySeconds);
    expect(rx.received).toHaveLength(1);
    expect((await feedOf(m, sub, 'sent'))).toHaveLength(1);
  });

  it('changes nothing for an unknown conversation or part, or a blank name', async () => {
    const m = await ready();
    const tags = (await m.call('GET', '/tags')).body;
    const conversation = (await m.call('GET', `/conversations/${GROUP}`)).body;
    const part = conversation.conversation_parts.conversation_parts[0].id as string;
    await expectRejected(m, 'POST', `/__admin/conversations/nope/parts/${part}/tags?app=demo`, { token: null, body: { name: 'X' } }, 404, ['not_found']);
    await expectRejected(m, 'POST', `/__admin/conversations/${GROUP}/parts/nope/tags?app=demo`, { token: null, body: { name: 'X' } }, 404, ['not_found']);
    await expectRejected(m, 'POST', `/__admin/conversations/${GROUP}/parts/${part}/tags?app=demo`, { token: null, body: { name: '   ' } }, 400, ['parameter_not_found']);
    expect((await m.call('GET', '/tags')).body).toEqual(tags);
    expect((await m.call('GET', `/conversations/${GROUP}`)).body).toEqual(conversation);
  });
});
