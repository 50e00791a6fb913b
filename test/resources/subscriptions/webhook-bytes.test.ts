// Webhook state bounded in bytes (src/resources/subscriptions/bytes.ts, feeds.ts): queued deliveries
// and feed entries each within a per-app limit, oldest first out, and every app's together within
// the store-wide webhooks budget. Byte figures are counted by the test from what the API shows
// (test/kept-estimate.ts), never read from the mock's own measure.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestMock } from '../../helpers.js';
import { deliveryEstimate, entryEstimate } from '../../kept-estimate.js';
import { queueDelivery } from '../../../src/resources/subscriptions/rules.js';
import type { AppState } from '../../../src/state/app-state.js';
import { feedOf, ping, ready, subscribe as subscribeTo, tick } from './webhook-app.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

const admin = (m: TestMock, method: string, path: string, body?: unknown) => m.call(method, path, { token: null, ...(body === undefined ? {} : { body }) });

const subscribe = (m: TestMock, path: string, token = 'demo-token'): Promise<string> => subscribeTo(m, `${rx.base}${path}`, { token });

/** The app's queued deliveries as its export lists them, in the order they go. */
async function queued(m: TestMock, app = 'demo'): Promise<Record<string, any>[]> {
  const state = JSON.parse((await admin(m, 'GET', `/__admin/state?app=${app}`)).text);
  return (state.jobs as { kind: string; notification: Record<string, any> }[]).filter((j) => j.kind === 'webhook').map((j) => j.notification);
}

const errorFeed = (m: TestMock, id: string) => feedOf(m, id, 'error');

/** Four pings queued in an app without a byte limit: their ids, and the one size they share. */
async function fourPings(): Promise<{ ids: string[]; size: number }> {
  const m = await ready();
  const sub = await subscribe(m, '/measure');
  for (let i = 0; i < 4; i++) await ping(m, sub);
  const list = await queued(m);
  const sizes = new Set(list.map(deliveryEstimate));
  // Same shape, same-length ids and numbers: one size, so a limit of k × size holds exactly k.
  expect(sizes.size).toBe(1);
  return { ids: list.map((n) => n.id), size: [...sizes][0] as number };
}

describe('queued deliveries within the per-app bytes', () => {
  it('keeps deliveries up to the limit exactly and drops the oldest queued past it', async () => {
    const { ids, size } = await fourPings();
    expect(size).toBeGreaterThan(1000);
    expect(size).toBeLessThan(2000);
    const m = await ready({ limits: { webhookQueueBytes: 3 * size } });
    const sub = await subscribe(m, '/measure');
    for (let i = 0; i < 3; i++) await ping(m, sub);
    // At the limit: all three are kept.
    expect((await queued(m)).map((n) => n.id)).toEqual(ids.slice(0, 3));
    await ping(m, sub);
    expect((await queued(m)).map((n) => n.id)).toEqual(ids.slice(1, 4));
    const apps = await admin(m, 'GET', '/__admin/apps?q=demo');
    expect(apps.body.apps.find((a: { id: string }) => a.id === 'demo')?.pending_jobs).toBe(3);
  });

  it('one byte under three deliveries keeps two: the third drops the first', async () => {
    const { ids, size } = await fourPings();
    const m = await ready({ limits: { webhookQueueBytes: 3 * size - 1 } });
    const sub = await subscribe(m, '/measure');
    for (let i = 0; i < 3; i++) await ping(m, sub);
    expect((await queued(m)).map((n) => n.id)).toEqual(ids.slice(1, 3));
  });

  it('drops as many of the oldest as one big delivery needs', async () => {
    const { ids, size } = await fourPings();
    const attributes = Object.fromEntries(Array.from({ length: 8 }, (_, k) => [`a${k}`, 'v'.repeat(250)]));
    const steps = async (m: TestMock) => {
      const sub = await subscribe(m, '/measure');
      for (let i = 0; i < 3; i++) await ping(m, sub);
      expect((await m.call('POST', '/users', { body: { user_id: 'wb-two', custom_attributes: attributes } })).status).toBe(200);
    };
    const open = await ready();
    await steps(open);
    const user = (await queued(open))[3] as Record<string, any>;
    const big = deliveryEstimate(user);
    // Over 8 attributes of 250 characters: more than two pings.
    expect(big).toBeGreaterThan(2 * size);
    // Room for the user's delivery and one ping: the three pings fit first, then two must go.
    const m = await ready({ limits: { webhookQueueBytes: big + size } });
    await steps(m);
    expect((await queued(m)).map((n) => n.id)).toEqual([ids[2], user.id]);
  });

  it('keeps no delivery bigger than the limit, and drops nothing for it', async () => {
    const { ids, size } = await fourPings();
    const m = await ready({ limits: { webhookQueueBytes: size } });
    const sub = await subscribe(m, '/measure');
    await ping(m, sub);
    expect((await queued(m)).map((n) => n.id)).toEqual(ids.slice(0, 1));
    // A user.created item is far bigger than a ping: not kept, and the ping stays.
    expect((await m.call('POST', '/users', { body: { user_id: 'wb-big', email: 'wb-big@example.com' } })).status).toBe(200);
    expect((await queued(m)).map((n) => n.id)).toEqual(ids.slice(0, 1));
  });
});

describe('a full queue and a delivery it will not keep', () => {
  it('refuses the delivery first: the queue keeps its 1,000 and its oldest', async () => {
    const m = await ready({ rateLimit: 100_000 });
    const sub = await subscribe(m, '/measure');
    for (let i = 0; i < 1000; i++) await ping(m, sub);
    const full = (await queued(m)).map((n) => n.id);
    expect(full).toHaveLength(1000);
    const app = m.store.appForToken('demo-token');
    if (!app) throw new Error('no demo app');
    // No API route queues a delivery past 16 MiB (attribute caps): queued as a change would be.
    const huge = { id: 'notif_huge', topic: 'ping', data: { item: { blob: 'x'.repeat(app.limits.webhookQueueBytes) } } };
    queueDelivery(app, sub, huge, 1, m.clock.now());
    expect((await queued(m)).map((n) => n.id)).toEqual(full);
  });
});

/**
 * Sends what is due now, not the retries a minute later (POST /__admin/jobs/run would take those
 * too): the clock moves past the job delay, a request hands the due deliveries over, and the test
 * waits until their answers are in.
 */
/** Failed attempts (the receiver answers 500) of `count` pings, each sent on its own, in an app without a byte limit. */
async function failedEntries(path: string, count: number): Promise<{ ids: string[]; size: number }> {
  rx.plan.set(path, [{ status: 500 }]);
  const m = await ready();
  const sub = await subscribe(m, path);
  for (let i = 0; i < count; i++) {
    await ping(m, sub);
    await tick(m);
  }
  const feed = await errorFeed(m, sub);
  const sizes = new Set(feed.map(entryEstimate));
  expect(sizes.size).toBe(1);
  return { ids: feed.map((n) => n.id).reverse(), size: [...sizes][0] as number };
}

describe('deliveries handed to a receiver that does not answer', () => {
  it("are held to the queue's bytes while they wait: the oldest waiting go, never sent", async () => {
    const { size } = await fourPings();
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    rx.plan.set('/gated', [{ status: 200, gate }]);
    const m = await ready({ limits: { webhookQueueBytes: 3 * size } });
    const sub = await subscribe(m, '/gated');
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      await ping(m, sub);
      ids.push((await queued(m)).at(-1)?.id as string);
      // Handed over at once (the queue empties), the first held at the receiver's gate.
      m.clock.advance(m.store.jobDelaySeconds);
      expect((await m.call('GET', '/users?per_page=1')).status).toBe(200);
      expect(await queued(m)).toEqual([]);
    }
    open();
    await m.store.webhooks?.settled();
    const sent = rx.received.filter((r) => r.path === '/gated').map((r) => r.body.id as string);
    // The one in flight, then the three newest that fit in 3 × size: the second and third went.
    expect(sent).toEqual([ids[0], ids[3], ids[4], ids[5]]);
    expect((await m.call('GET', `/subscriptions/${sub}/sent`)).body.notifications.map((n: { id: string }) => n.id)).toEqual([ids[5], ids[4], ids[3], ids[0]]);
    // Drained: nothing waits, and no settled entry (each holding its notification) is kept.
    expect(m.store.webhooks?.held(m.store.app('demo') as AppState)).toEqual({ waiting: 0, kept: 0 });
  });
});

describe('deliveries handed over past the count', () => {
  it('keep at most 1,000 waiting an app: the oldest waiting go, never sent', async () => {
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    rx.plan.set('/gated-count', [{ status: 200, gate }]);
    const m = await ready({ rateLimit: 100_000 });
    const sub = await subscribe(m, '/gated-count');
    const handOver = async (): Promise<void> => {
      m.clock.advance(m.store.jobDelaySeconds);
      expect((await m.call('GET', '/users?per_page=1')).status).toBe(200);
      expect(await queued(m)).toEqual([]);
    };
    for (let i = 0; i < 1000; i++) await ping(m, sub);
    const ids = (await queued(m)).map((n) => n.id as string);
    // The first goes out and is held at the gate; 999 wait behind it.
    await handOver();
    for (let i = 0; i < 2; i++) {
      await ping(m, sub);
      ids.push((await queued(m)).at(-1)?.id as string);
      await handOver();
    }
    open();
    await m.store.webhooks?.settled();
    const sent = rx.received.filter((r) => r.path === '/gated-count').map((r) => r.body.id as string);
    // 1,001 waited at the end: the oldest waiting (the second ping) went unsent.
    expect(sent).toEqual([ids[0], ...ids.slice(2)]);
    // 1,002 requests and as many sends over loopback: ~8 s alone, more on a loaded machine.
  }, 60_000);
});

describe('feed entries within the per-app bytes', () => {
  it('keeps entries up to the limit exactly, then the oldest goes; the console follows', async () => {
    const { ids, size } = await failedEntries('/fail', 4);
    const m = await ready({ limits: { webhookFeedBytes: 3 * size } });
    const sub = await subscribe(m, '/fail');
    for (let i = 0; i < 4; i++) {
      await ping(m, sub);
      await tick(m);
      const want = ids.slice(Math.max(0, i - 2), i + 1).reverse();
      expect((await errorFeed(m, sub)).map((n) => n.id), `after attempt ${i + 1}`).toEqual(want);
    }
    const console = await admin(m, 'GET', '/__admin/webhooks/deliveries?app=demo');
    expect(console.status).toBe(200);
    expect(console.body.total).toBe(3);
    expect(console.body.deliveries.map((d: { notification_id: string }) => d.notification_id).sort()).toEqual(ids.slice(1).sort());
    // The retries each failure queued are the queue's, not the feeds': all four are still queued.
    expect((await queued(m)).map((n) => n.id)).toEqual(ids);
  });

  it('one byte under three entries keeps two', async () => {
    const { ids, size } = await failedEntries('/fail', 3);
    const m = await ready({ limits: { webhookFeedBytes: 3 * size - 1 } });
    const sub = await subscribe(m, '/fail');
    for (let i = 0; i < 3; i++) {
      await ping(m, sub);
      await tick(m);
    }
    expect((await errorFeed(m, sub)).map((n) => n.id)).toEqual([ids[2], ids[1]]);
  });

  it("drops the app's oldest entry whichever subscription's feed holds it", async () => {
    // Paths of one length: every entry below has the measured size.
    const { size } = await failedEntries('/fail-a', 1);
    rx.plan.set('/fail-b', [{ status: 500 }]);
    const m = await ready({ limits: { webhookFeedBytes: 3 * size } });
    const a = await subscribe(m, '/fail-a');
    const b = await subscribe(m, '/fail-b');
    const attempt = async (id: string) => {
      await ping(m, id);
      await tick(m);
      return (await errorFeed(m, id))[0]?.id as string;
    };
    const a1 = await attempt(a);
    const b1 = await attempt(b);
    const a2 = await attempt(a);
    // The fourth entry is b's: a's first goes, the oldest of the app.
    const b2 = await attempt(b);
    expect((await errorFeed(m, a)).map((n) => n.id)).toEqual([a2]);
    expect((await errorFeed(m, b)).map((n) => n.id)).toEqual([b2, b1]);
    expect(a1).not.toBe(a2);
    expect([...(await errorFeed(m, a)), ...(await errorFeed(m, b))].map(entryEstimate)).toEqual([size, size, size]);
    // Deleting b frees its two entries: the next two of a fit beside a2 with nothing dropped.
    expect((await m.call('DELETE', `/subscriptions/${b}`)).status).toBe(200);
    // b's entries left with it, b1 the oldest: the log's first place moved on to a2's (3), so the
    // next drop finds the oldest at once.
    expect(m.store.appForToken('demo-token')?.data.tallies.get('feedlog:first')).toBe(3);
    const a3 = await attempt(a);
    const a4 = await attempt(a);
    expect((await errorFeed(m, a)).map((n) => n.id)).toEqual([a4, a3, a2]);
    // The next one passes over b's places, gone with b, to a2: the app's oldest left.
    const a5 = await attempt(a);
    expect((await errorFeed(m, a)).map((n) => n.id)).toEqual([a5, a4, a3]);
  });
});

describe('a feed at its count cap', () => {
  it("makes room with its own oldest, which the count cap frees anyway: another feed's entry stays", async () => {
    const { size } = await failedEntries('/cap-a', 1);
    rx.plan.set('/cap-b', [{ status: 500 }]);
    // Room for exactly FEED_LIMIT + 1 entries: b's one and a full feed of a's.
    const m = await ready({ rateLimit: 100_000, limits: { webhookFeedBytes: 101 * size } });
    const a = await subscribe(m, '/cap-a');
    const b = await subscribe(m, '/cap-b');
    await ping(m, b);
    await tick(m);
    for (let i = 0; i < 100; i++) await ping(m, a);
    await tick(m);
    const full = (await errorFeed(m, a)).map((n) => n.id);
    expect(full).toHaveLength(100);
    await ping(m, a);
    await tick(m);
    const after = await errorFeed(m, a);
    // a's 101st pushes out a's oldest only: the feed is at 100 again and b keeps its entry.
    expect(after).toHaveLength(100);
    expect(after.slice(1).map((n) => n.id)).toEqual(full.slice(0, 99));
    const [b1] = await errorFeed(m, b);
    expect(b1).toBeDefined();
    // The entry the cap took left the bytes too, and only it: the app holds 101 entries' bytes
    // again, so b's next entry takes the app's oldest, b's first.
    await ping(m, b);
    await tick(m);
    const bNow = await errorFeed(m, b);
    expect(bNow).toHaveLength(1);
    expect(bNow[0]?.id).not.toBe(b1?.id);
    expect(await errorFeed(m, a)).toHaveLength(100);
  });
});

describe('every app together within the store-wide webhooks budget', () => {
  it("an app gives up its own oldest, never another app's; one with nothing to give keeps nothing new until room is freed", async () => {
    const { ids, size } = await fourPings();
    const m = await ready({ byteBudgets: { webhooks: 3 * size } });
    const sub = await subscribe(m, '/measure');
    for (let i = 0; i < 3; i++) await ping(m, sub);
    expect((await queued(m)).map((n) => n.id)).toEqual(ids.slice(0, 3));
    const other = 'test_webhook_bytes';
    const otherSub = await subscribe(m, '/other', other);
    await ping(m, otherSub, other);
    const otherApp = m.store.appForToken(other)?.id as string;
    expect(await queued(m, otherApp)).toEqual([]);
    expect((await queued(m)).map((n) => n.id)).toEqual(ids.slice(0, 3));
    // The full app's own fourth ping takes its own oldest's room.
    await ping(m, sub);
    expect((await queued(m)).map((n) => n.id)).toEqual(ids.slice(1, 4));
    // A reset frees the room for the other app's next ping.
    expect((await admin(m, 'POST', '/__admin/reset?app=demo')).status).toBe(200);
    await ping(m, otherSub, other);
    const kept = await queued(m, otherApp);
    expect(kept).toHaveLength(1);
    // One ping of demo's beside it leaves less than 2 pings' room; the other app's user.created
    // (over 5 KB of attributes, more than that room and all the app holds) cannot be kept, and the
    // ping the app holds is not given up for it.
    const again = await subscribe(m, '/measure');
    await ping(m, again);
    const attributes = Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`a${k}`, 'v'.repeat(250)]));
    expect((await m.call('POST', '/users', { token: other, body: { user_id: 'wb-other', custom_attributes: attributes } })).status).toBe(200);
    expect(await queued(m, otherApp)).toEqual(kept);
    expect(await queued(m)).toHaveLength(1);
  });

  it('a feed entry with no older entry to give up takes the room of a queued delivery', async () => {
    const { size: entry } = await failedEntries('/empty-feed', 1);
    const { size: delivery } = await fourPings();
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    rx.plan.set('/empty-feed', [{ status: 500, gate }]);
    const m = await ready({ byteBudgets: { webhooks: 2 * delivery + entry - 1 } });
    const sub = await subscribe(m, '/empty-feed');
    await ping(m, sub);
    const [first] = (await queued(m)).map((n) => n.id);
    // Handed over and held at the gate; two more wait in the queue.
    m.clock.advance(m.store.jobDelaySeconds);
    expect((await m.call('GET', '/users?per_page=1')).status).toBe(200);
    await ping(m, sub);
    await ping(m, sub);
    expect(await queued(m)).toHaveLength(2);
    // The refusal's entry is the app's first: its feeds have nothing to give, so the oldest queued goes.
    open();
    await m.store.webhooks?.settled();
    expect((await errorFeed(m, sub)).map((n) => n.id)).toEqual([first]);
    // Its retry took the other one's room.
    expect((await queued(m)).map((n) => [n.id, n.delivery_attempts])).toEqual([[first, 1]]);
  });

  it("a rolled-back write that dropped an app's webhook state leaves its share counted whole", async () => {
    const { size } = await fourPings();
    // Room for demo's two pings and one of the other app's (its id is longer: a little bigger).
    const m = await ready({ byteBudgets: { webhooks: 3 * size + 100 } });
    const a = await subscribe(m, '/measure');
    const b = await subscribe(m, '/measure');
    await ping(m, a);
    await ping(m, a);
    const before = await queued(m);
    const app = m.store.appForToken('demo-token');
    if (!app) throw new Error('no demo app');
    // A write that gives up a's deliveries, queues a small one of b's (the budget counts demo then)
    // and then fails: demo holds its two pings again.
    expect(() =>
      app.transaction(() => {
        for (const job of app.deliveries.ofSubscription(a)) app.deliveries.remove(job);
        queueDelivery(app, b, { id: 'notif_small', topic: 'ping' }, 1, m.clock.now());
        throw new Error('rejected');
      }),
    ).toThrow('rejected');
    expect(await queued(m)).toEqual(before);
    // The other app's second ping is past the budget with demo's two: it takes its own first's room.
    const other = 'test_webhook_bytes';
    const otherSub = await subscribe(m, '/other', other);
    const otherApp = m.store.appForToken(other)?.id as string;
    await ping(m, otherSub, other);
    await ping(m, otherSub, other);
    expect(await queued(m, otherApp)).toHaveLength(1);
    expect(await queued(m)).toEqual(before);
  });

  it('counts webhook state in what snapshots pin', async () => {
    const { size } = await fourPings();
    for (const [budget, status] of [
      [3 * size, 201],
      [3 * size - 1, 403],
    ] as const) {
      const m = await ready({ byteBudgets: { snapshots: budget } });
      const sub = await subscribe(m, '/measure');
      for (let i = 0; i < 3; i++) await ping(m, sub);
      const res = await admin(m, 'POST', '/__admin/snapshots?app=demo', { name: 'pinned' });
      expect(res.status, `budget ${budget}`).toBe(status);
      if (status === 403) expect(res.body.errors[0].code).toBe('resource_limit_exceeded');
    }
  });
});
