// Server-side enrichment that the real API did asynchronously: location from the last seen IP,
// the avatar and social profiles. Jobs are due a configurable delay after the write on the store's
// clock and run when a request reaches the app at or after that time (no timers), or at once
// through POST /__admin/jobs/run. Webhook deliveries are due the same way, from a queue of their
// own (app.deliveries), and are handed to the delivery module.

import { locationForIp } from '../../core/cities.js';
import { hashSeed } from '../../core/random.js';
import type { AppState } from '../../state/app-state.js';
import { runBulkTask } from './rules.js';
import { copyCustomer } from '../../fixtures/normalize.js';
import type { Store } from '../../state/store.js';
import type { Customer, Job, SocialProfile } from '../../engine/types.js';
import { saveCustomer } from '../customers/indexes.js';


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
      if (customer) saveCustomer(app, enrich(customer, Number.isFinite(now) ? now : customer.updated_at));
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
