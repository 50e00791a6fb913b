// The webhook delivery queue (resources/subscriptions/delivery-queue.ts): the order deliveries go in, removal from
// the middle, taking back a transaction, independent copies, and its cost pinned by counting heap
// slots moved (no timing). The rollback is also checked through AppState.transaction, the only
// caller, with a drop at the cap inside the rejected unit.

import { describe, expect, it } from 'vitest';
import { AppState } from '../../../src/state/app-state.js';
import { DeliveryQueue, deliveryQueueWork } from '../../../src/resources/subscriptions/delivery-queue.js';
import type { WebhookJob } from '../../../src/engine/types.js';
import { MAX_PENDING_DELIVERIES, queueDelivery } from '../../../src/resources/subscriptions/rules.js';
import { mock } from '../../helpers.js';

const job = (id: number, due_at: number, subscription_id = 'nsub_a'): WebhookJob => ({ id, kind: 'webhook', subscription_id, notification: { id: `notif_${id}` }, attempt: 1, due_at });
const drain = (q: DeliveryQueue): number[] => {
  const out: number[] = [];
  for (let j = q.shift(); j !== undefined; j = q.shift()) out.push(j.id);
  return out;
};

/** A fixed shuffle (no randomness in tests): i * 7919 mod n visits every i once for a prime n. */
const shuffled = (n: number): number[] => Array.from({ length: n }, (_, i) => (i * 7919) % n);

describe('DeliveryQueue', () => {
  it('gives deliveries back by due time, then in the order they were queued', () => {
    const q = new DeliveryQueue();
    for (const [id, due] of [[1, 50], [2, 10], [3, 50], [4, 10], [5, 30]] as const) q.add(job(id, due));
    expect(q.size).toBe(5);
    expect(q.peek()?.id).toBe(2);
    expect(q.sorted().map((j) => j.id)).toEqual([2, 4, 5, 1, 3]);
    expect(drain(q)).toEqual([2, 4, 5, 1, 3]);
    expect(q.size).toBe(0);
    expect(q.shift()).toBeUndefined();
  });

  it('keeps a running count of its bytes: each job 256 beside its notification, carried by a clone and a rollback', () => {
    // { id: 'notif_7' }: 32 for the object, 24 + 2 × 2 for the key, 16 + 2 × 7 for the string.
    const each = 256 + 32 + 28 + 30;
    const q = new DeliveryQueue();
    q.add(job(7, 10));
    q.add(job(8, 20));
    expect(q.bytes).toBe(2 * each);
    const copy = q.clone();
    q.begin();
    q.add(job(9, 5));
    q.shift();
    q.shift();
    expect(q.bytes).toBe(each);
    q.rollback();
    expect(q.bytes).toBe(2 * each);
    expect(copy.bytes).toBe(2 * each);
    expect(q.remove(job(8, 20))).toBe(false);
    expect(q.bytes).toBe(2 * each);
    q.shift();
    q.shift();
    expect(q.bytes).toBe(0);
    expect(DeliveryQueue.of([job(1, 1), { id: 2, kind: 'enrich_customer', customer_id: 'c', due_at: 1 } as never]).bytes).toBe(each);
  });

  it('takes a subscription\'s deliveries out of the middle and keeps the others in order', () => {
    const q = new DeliveryQueue();
    const n = 101;
    for (const i of shuffled(n)) q.add(job(i + 1, i % 10, i % 3 === 0 ? 'nsub_b' : 'nsub_a'));
    const b = q.ofSubscription('nsub_b');
    expect(b.map((j) => j.id)).toEqual(q.sorted().filter((j) => j.subscription_id === 'nsub_b').map((j) => j.id));
    for (const j of b) expect(q.remove(j)).toBe(true);
    expect(q.remove(b[0]!)).toBe(false);
    expect(q.hasSubscription('nsub_b')).toBe(false);
    expect(q.ofSubscription('nsub_b')).toEqual([]);
    const rest = Array.from({ length: n }, (_, i) => i)
      .filter((i) => i % 3 !== 0)
      .sort((x, y) => (x % 10) - (y % 10) || x - y)
      .map((i) => i + 1);
    expect(drain(q)).toEqual(rest);
  });

  it('takes back every step of a rolled-back unit, drops included, and keeps a committed one', () => {
    const q = new DeliveryQueue();
    for (let i = 1; i <= 10; i++) q.add(job(i, i));
    const before = q.sorted();
    q.begin();
    q.shift();
    q.shift();
    q.add(job(11, 0));
    q.remove(before[5]!);
    q.add(job(12, 100));
    q.rollback();
    expect(q.sorted()).toEqual(before);
    q.begin();
    q.shift();
    q.commit();
    q.rollback(); // nothing under way: changes nothing
    expect(q.sorted()).toEqual(before.slice(1));
  });

  it('copies independently: a snapshot keeps its deliveries whatever the live queue does', () => {
    const q = DeliveryQueue.of([job(1, 5), { id: 2, kind: 'enrich_customer', customer_id: 'c', due_at: 1 }, job(3, 2)]);
    expect(q.sorted().map((j) => j.id)).toEqual([3, 1]);
    const copy = q.clone();
    q.shift();
    q.add(job(4, 1));
    expect(drain(copy)).toEqual([3, 1]);
    expect(drain(q)).toEqual([4, 1]);
  });

  it('moves O(log n) heap slots per delivery queued, dropped or taken, however long the queue', () => {
    const perOp = (n: number): number => {
      const q = new DeliveryQueue();
      for (let i = 1; i <= n; i++) q.add(job(i, i));
      deliveryQueueWork.moves = 0;
      // At the cap: each new delivery drops the oldest, as queueDelivery does.
      for (let i = n + 1; i <= n + 100; i++) {
        q.shift();
        q.add(job(i, i));
      }
      return deliveryQueueWork.moves / 100;
    };
    const small = perOp(100);
    const large = perOp(10_000);
    // log2(10,000) / log2(100) = 2: a walk or copy of the queue would be 100 times the cost.
    expect(large).toBeLessThanOrEqual(2 * small + 4);
    expect(large).toBeLessThanOrEqual(3 * Math.ceil(Math.log2(10_000)));
  });
});

describe('deliveries in AppState.transaction', () => {
  it('an app without byte budgets (outside a store) queues within its own limits only', () => {
    const base = mock().store.app('demo')!.base;
    const app = new AppState(base, 1);
    queueDelivery(app, 'nsub_x', { id: 'notif_alone' }, 1, 100);
    expect(app.deliveries.sorted().map((j) => j.notification.id)).toEqual(['notif_alone']);
  });

  it('a rejected unit leaves the queue exactly as it was, including the delivery a drop at the cap took out', () => {
    const m = mock();
    const app = m.store.app('demo')!;
    for (let i = 0; i < MAX_PENDING_DELIVERIES; i++) queueDelivery(app, 'nsub_x', { id: `notif_${i}` }, 1, 100);
    const before = app.deliveries.sorted();
    const bytes = app.deliveries.bytes;
    expect(() =>
      app.transaction(() => {
        queueDelivery(app, 'nsub_x', { id: 'notif_new' }, 1, 100);
        throw new Error('rejected');
      }),
    ).toThrow('rejected');
    expect(app.deliveries.sorted()).toEqual(before);
    expect(app.deliveries.bytes).toBe(bytes);
    app.transaction(() => queueDelivery(app, 'nsub_x', { id: 'notif_kept' }, 1, 100));
    expect(app.deliveries.sorted().map((j) => j.notification.id)).toEqual([...before.slice(1).map((j) => j.notification.id), 'notif_kept']);
  });
});
