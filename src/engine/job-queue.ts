// The app's job queue: enrichment and bulk tasks ordered by due time, webhook deliveries in a
// queue of their own (app.deliveries). What a due job does is resources/jobs/run.ts's.

import { CLOCK_MAX_SECONDS } from '../core/clock.js';
import type { AppState } from '../state/app-state.js';
import type { Job } from './types.js';

/** The order jobs and deliveries go in: by due time, then as they were queued (ids grow). */
export const byDue = (a: Job, b: Job): number => a.due_at - b.due_at || a.id - b.id;

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

