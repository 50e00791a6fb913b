// The delivery queue's bookkeeping that no delivery order shows: the version data-dir/state-files.ts compares
// to tell the queue changed, remove()'s answer for the job in the heap's last slot, and a copy's
// per-subscription index (webhooks.ts reads it to drop a deleted subscription's deliveries).

import { describe, expect, it } from 'vitest';
import { DeliveryQueue } from '../../../src/resources/subscriptions/delivery-queue.js';
import type { WebhookJob } from '../../../src/engine/types.js';

const job = (id: number, due_at: number, subscription_id = 'nsub_a'): WebhookJob => ({ id, kind: 'webhook', subscription_id, notification: { id: `notif_${id}` }, attempt: 1, due_at });

describe('DeliveryQueue bookkeeping', () => {
  it('moves its version on forward for every add and remove, so an add then a shift still reads as a change', () => {
    const q = new DeliveryQueue();
    const v0 = q.version;
    q.add(job(1, 10));
    q.shift();
    expect(q.version).toBe(v0 + 2);
  });

  it('answers true when the job removed sits in the last slot, false when it is not queued', () => {
    const q = new DeliveryQueue();
    const only = job(1, 10);
    q.add(only);
    expect(q.remove(only)).toBe(true);
    expect(q.remove(only)).toBe(false);
  });

  it('copies the per-subscription index with every delivery of a subscription', () => {
    const q = new DeliveryQueue();
    q.add(job(1, 10));
    q.add(job(2, 20));
    q.add(job(3, 5, 'nsub_b'));
    const copy = q.clone();
    expect(copy.ofSubscription('nsub_a').map((j) => j.id)).toEqual([1, 2]);
    expect(copy.ofSubscription('nsub_b').map((j) => j.id)).toEqual([3]);
  });
});
