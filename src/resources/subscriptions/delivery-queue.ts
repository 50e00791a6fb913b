// An app's queued webhook deliveries, kept apart from its other jobs: a binary min-heap on
// (due_at, id), the order they are sent in (ids grow, so among deliveries due together the one
// queued first goes first), with an index per subscription. Queueing, dropping the oldest past the
// cap and taking the next due one cost O(log n) each, so a request that owes many notifications
// while the cap is reached never walks or copies the queue per notification. Taking back a
// rejected request's changes replays its steps in reverse (begin/commit/rollback, as the sorted
// indexes do), so the queue is exactly as before, drops at the cap included.

import type { Job, WebhookJob } from '../../engine/types.js';
import { deliveryBytes } from './bytes.js';
import { byDue } from '../../engine/job-queue.js';

/** Heap slots moved, counted for the tests that pin the queue's cost (test/resources/subscriptions/delivery-queue.test.ts). */
export const deliveryQueueWork = { moves: 0 };

const before = (a: WebhookJob, b: WebhookJob): boolean => a.due_at < b.due_at || (a.due_at === b.due_at && a.id < b.id);

interface Step {
  added: boolean;
  job: WebhookJob;
}

export class DeliveryQueue {
  private readonly heap: WebhookJob[] = [];
  /** Each job's slot in the heap, so one can leave from the middle (a deleted subscription's). */
  private readonly slot = new Map<WebhookJob, number>();
  private readonly bySubscription = new Map<string, Set<WebhookJob>>();
  /** Steps of the transaction under way, newest last; null outside one. */
  private steps: Step[] | null = null;
  /** Counts every change, so a caller can tell the queue changed (data-dir/state-files.ts). */
  version = 0;
  /** What the queued deliveries keep (bytes.ts), moved by every add and remove, so a clone and a rollback carry it. */
  bytes = 0;

  /** The webhook jobs among `jobs` (a fixture's or an export's queue). */
  static of(jobs: Iterable<Job>): DeliveryQueue {
    const q = new DeliveryQueue();
    for (const j of jobs) if (j.kind === 'webhook') q.add(j);
    return q;
  }

  get size(): number {
    return this.heap.length;
  }

  /** The delivery that goes next: the earliest due, the first queued among equals. */
  peek(): WebhookJob | undefined {
    return this.heap[0];
  }

  add(job: WebhookJob): void {
    this.version++;
    this.steps?.push({ added: true, job });
    this.bytes += deliveryBytes(job);
    let set = this.bySubscription.get(job.subscription_id);
    if (!set) this.bySubscription.set(job.subscription_id, (set = new Set()));
    set.add(job);
    this.heap.push(job);
    this.place(job, this.heap.length - 1);
    this.up(this.heap.length - 1);
  }

  /** Takes the delivery that goes next out of the queue. */
  shift(): WebhookJob | undefined {
    const first = this.heap[0];
    if (first !== undefined) this.remove(first);
    return first;
  }

  remove(job: WebhookJob): boolean {
    const i = this.slot.get(job);
    if (i === undefined) return false;
    this.version++;
    this.steps?.push({ added: false, job });
    this.bytes -= deliveryBytes(job);
    this.slot.delete(job);
    const set = this.bySubscription.get(job.subscription_id) as Set<WebhookJob>;
    set.delete(job);
    if (set.size === 0) this.bySubscription.delete(job.subscription_id);
    const last = this.heap.pop() as WebhookJob;
    if (last === job) return true;
    this.place(last, i);
    this.up(i);
    this.down(this.slot.get(last) as number);
    return true;
  }

  /** A subscription's queued deliveries in the order they go: O(k log k) for its k. */
  ofSubscription(subscriptionId: string): WebhookJob[] {
    return [...(this.bySubscription.get(subscriptionId) ?? [])].sort(byDue);
  }

  hasSubscription(subscriptionId: string): boolean {
    return this.bySubscription.has(subscriptionId);
  }

  /** Every queued delivery in the order they go (exports). */
  sorted(): WebhookJob[] {
    return [...this.heap].sort(byDue);
  }

  /** An independent copy (snapshots): O(n), as the copy of the other jobs is. */
  clone(): DeliveryQueue {
    const q = new DeliveryQueue();
    // A heap's array copied as it is is the same heap.
    for (const job of this.heap) {
      q.slot.set(job, q.heap.length);
      q.heap.push(job);
      let set = q.bySubscription.get(job.subscription_id);
      if (!set) q.bySubscription.set(job.subscription_id, (set = new Set()));
      set.add(job);
    }
    q.version = this.version;
    q.bytes = this.bytes;
    return q;
  }

  begin(): void {
    this.steps = [];
  }

  commit(): void {
    this.steps = null;
  }

  /** Takes back every step since begin(), newest first: the queue holds exactly what it held. */
  rollback(): void {
    const steps = this.steps ?? [];
    this.steps = null;
    for (let i = steps.length - 1; i >= 0; i--) {
      const { added, job } = steps[i] as Step;
      if (added) this.remove(job);
      else this.add(job);
    }
  }

  private place(job: WebhookJob, i: number): void {
    deliveryQueueWork.moves++;
    this.heap[i] = job;
    this.slot.set(job, i);
  }

  private up(i: number): void {
    const job = this.heap[i] as WebhookJob;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = this.heap[parent] as WebhookJob;
      if (!before(job, p)) break;
      this.place(p, i);
      i = parent;
    }
    this.place(job, i);
  }

  private down(i: number): void {
    const job = this.heap[i] as WebhookJob;
    const n = this.heap.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && before(this.heap[right] as WebhookJob, this.heap[left] as WebhookJob) ? right : left;
      const c = this.heap[child] as WebhookJob;
      if (!before(c, job)) break;
      this.place(c, i);
      i = child;
    }
    this.place(job, i);
  }
}
