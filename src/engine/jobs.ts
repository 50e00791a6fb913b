// Server-side enrichment that the real API did asynchronously: location from the last seen IP,
// the avatar and social profiles. Jobs are due a configurable delay after the write on the store's
// clock and run when a request reaches the app at or after that time (no timers), or at once
// through POST /__admin/jobs/run. Webhook deliveries are due the same way, from a queue of their
// own (app.deliveries), and are handed to the delivery module.

import { locationForIp } from '../core/cities.js';
import { CLOCK_MAX_SECONDS } from '../core/clock.js';
import { hashSeed } from '../core/random.js';
import type { AppState } from './app-state.js';
import { runBulkTask } from '../resources/jobs/rules.js';
import { copyCustomer } from '../fixtures/normalize.js';
import type { Store } from './store.js';
import { byDue } from '../resources/subscriptions/delivery-queue.js';
import type { Customer, Job, SocialProfile } from './types.js';

/**
 * A job with the app's next job id. Due times stop where the clock does, so a job queued at its
 * last second still exports and seeds back.
 */
export function newJob<J extends Job>(app: AppState, what: DistributiveOmit<J, 'id' | 'due_at'>, dueAt: number): J {
  return { ...what, id: app.counters.job++, due_at: dueTime(dueAt) } as unknown as J;
}

const dueTime = (dueAt: number): number => Math.min(dueAt, CLOCK_MAX_SECONDS);

/**
 * Keeps the queue ordered by due time (almost always an append), so the due check is O(1).
 * Webhook deliveries have a queue of their own (app.deliveries, resources/subscriptions/delivery-queue.ts).
 */
export function enqueue(app: AppState, what: DistributiveOmit<Exclude<Job, { kind: 'webhook' }>, 'id' | 'due_at'>, dueAt: number): void {
  insert(app, newJob<Job>(app, what, dueAt));
}

function insert(app: AppState, job: Job): void {
  const due = job.due_at;
  let i = app.jobs.length;
  while (i > 0 && (app.jobs[i - 1] as Job).due_at > due) i--;
  app.jobs.splice(i, 0, job);
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Every queued job of the app, deliveries included, in the order they run (exports). */
export function queuedJobs(app: AppState): Job[] {
  const deliveries = app.deliveries.sorted();
  if (deliveries.length === 0) return [...app.jobs];
  if (app.jobs.length === 0) return deliveries;
  return [...app.jobs, ...deliveries].sort(byDue);
}

export const pendingJobs = (app: AppState): number => app.jobs.length + app.deliveries.size;

/** When the earliest pending job is due; null when none is. */
export function nextJobDue(app: AppState): number | null {
  const a = app.jobs[0]?.due_at;
  const b = app.deliveries.peek()?.due_at;
  if (a === undefined) return b ?? null;
  return b === undefined ? a : Math.min(a, b);
}

export function enqueueEnrichment(app: AppState, customerId: string, dueAt: number): void {
  // A literal in newJob's member order, not its spread (the engine's slow generic copy): most user
  // writes queue one of these.
  insert(app, { kind: 'enrich_customer', customer_id: customerId, id: app.counters.job++, due_at: dueTime(dueAt) });
}

function socialProfiles(id: string, email: string): SocialProfile[] {
  const handle = (email.split('@')[0] ?? '').replace(/[^a-z0-9_]/g, '').slice(0, 15) || `user${hashSeed(id) % 10000}`;
  return [{ type: 'social_profile', name: 'Twitter', id: String(hashSeed('twitter', email)), username: handle, url: `https://twitter.com/${handle}` }];
}

function enrich(c: Customer, now: number): Customer {
  const location = c.last_seen_ip ? locationForIp(c.last_seen_ip) : null;
  const avatar = c.email ? `https://static.example.com/avatars/${hashSeed('avatar', c.email).toString(16)}.png` : c.avatar_image_url;
  const next = copyCustomer(c);
  next.location_data = location ?? c.location_data;
  next.avatar_image_url = avatar;
  next.social_profiles = c.email ? socialProfiles(c.id, c.email) : c.social_profiles;
  next.updated_at = Math.max(c.updated_at, now);
  return next;
}

/**
 * Runs every job due at `now` (all of them when `now` is Infinity, including those the jobs it runs
 * queue, such as the enrichment of users a bulk task wrote); returns how many ran.
 */
export function runDueJobs(app: AppState, now: number, store: Store): number {
  let ran = 0;
  for (;;) {
    const jobs = app.jobs;
    const first = jobs[0];
    if (first === undefined || first.due_at > now) return ran + takeDueDeliveries(app, now, store);
    // The queue is ordered by due time, so the due jobs are a prefix of it.
    let n = 1;
    while (n < jobs.length && (jobs[n] as Job).due_at <= now) n++;
    const due = jobs.slice(0, n);
    app.jobs = jobs.slice(n);
    for (const job of due) {
      if (job.kind === 'bulk_task') {
        runBulkTask(store, app, job.job_id, job.task_id);
        continue;
      }
      if (job.kind === 'webhook') continue; // never in app.jobs: app.deliveries holds them
      const customer = app.data.customers.get(job.customer_id);
      if (customer) app.saveCustomer(enrich(customer, Number.isFinite(now) ? now : customer.updated_at));
    }
    ran += due.length;
  }
}

/**
 * Hands the due deliveries, in the order they go, to the delivery module (resources/subscriptions/delivery.ts):
 * sending is outbound HTTP. It sends in the background, so nothing it queues back (a retry, a
 * throttled delivery) is taken again by this call, even when `now` is Infinity.
 */
function takeDueDeliveries(app: AppState, now: number, store: Store): number {
  let taken = 0;
  for (let job = app.deliveries.peek(); job !== undefined && job.due_at <= now; job = app.deliveries.peek()) {
    app.deliveries.shift();
    store.webhooks?.take(app, job);
    taken++;
  }
  return taken;
}
