// The job queue and bulk jobs as the console's Apps view shows them: an app's pending jobs by kind
// (enrichment after a write, bulk tasks, webhook deliveries) and its bulk jobs with their state, newest first.

import { adminRoute } from '../http/route.js';
import { arr, bool, int, nullable, obj, oneOfStrings, str } from '../schemas/json-schema.js';
import type { AppState } from '../state/app-state.js';
import { exportJobs, jobState, type BulkJob } from '../resources/jobs/rules.js';
import type { Job } from '../engine/types.js';
import { CONTROL_TAG, requireApp } from '../admin/target.js';
import { pageOf, pageProps, pageRequest, pagedQuery } from './paging.js';

export interface PendingByKind {
  enrichment: number;
  bulk_tasks: number;
  webhook_deliveries: number;
}

/**
 * The queue counted by kind, kept per queue array and length: the queue only grows in place (an
 * insert) and is replaced whenever jobs leave it, so an unchanged pair is an unchanged queue. The
 * count walks the queue once after each change and is free after that; API requests never pay it.
 */
const counted = new WeakMap<readonly Job[], { length: number; kinds: Omit<PendingByKind, 'webhook_deliveries'> }>();

export function pendingByKind(app: AppState): PendingByKind {
  const queue = app.jobs;
  // Deliveries have a queue of their own that knows its size (resources/subscriptions/delivery-queue.ts).
  const webhook_deliveries = app.deliveries.size;
  const known = counted.get(queue);
  if (known && known.length === queue.length) return { ...known.kinds, webhook_deliveries };
  const kinds = { enrichment: 0, bulk_tasks: 0 };
  for (const j of queue) {
    if (j.kind === 'bulk_task') kinds.bulk_tasks++;
    else kinds.enrichment++;
  }
  counted.set(queue, { length: queue.length, kinds });
  return { ...kinds, webhook_deliveries };
}

export const pendingSchema = obj(
  {
    enrichment: int({ minimum: 0, description: 'Location, avatar and social profiles due after a write' }),
    bulk_tasks: int({ minimum: 0, description: 'Tasks of bulk jobs waiting to run' }),
    webhook_deliveries: int({ minimum: 0, description: 'Webhook delivery attempts waiting to be sent' }),
  },
  ['enrichment', 'bulk_tasks', 'webhook_deliveries'],
);

const count = int({ minimum: 0 });

const bulkJobSchema = obj(
  {
    id: str(),
    state: oneOfStrings(['pending', 'running', 'completed', 'failed']),
    open: bool({ description: 'Whether the job still takes tasks (the clock is not past closing_at)' }),
    created_at: int(),
    updated_at: int(),
    completed_at: nullable(int()),
    closing_at: int(),
    tasks: count,
    pending_tasks: count,
    items: count,
    failed_items: count,
  },
  ['id', 'state', 'open', 'created_at', 'updated_at', 'completed_at', 'closing_at', 'tasks', 'pending_tasks', 'items', 'failed_items'],
);

export function bulkJobSummary(job: BulkJob, now: number) {
  let pending = 0;
  let items = 0;
  let failed = 0;
  for (const t of job.tasks) {
    if (t.state === 'pending') pending++;
    items += t.item_count;
    failed += t.errors.length;
  }
  return {
    id: job.id,
    state: jobState(job),
    open: now <= job.closing_at,
    created_at: job.created_at,
    updated_at: job.updated_at,
    completed_at: job.completed_at,
    closing_at: job.closing_at,
    tasks: job.tasks.length,
    pending_tasks: pending,
    items,
    failed_items: failed,
  };
}

export const listBulkJobs = adminRoute({
  method: 'GET',
  path: '/__admin/bulk-jobs',
  operationId: 'adminListBulkJobs',
  summary: 'An app\'s bulk jobs with their state, newest first',
  description:
    'The bulk jobs the app keeps (at most 20: a new one pushes out the oldest finished one), most recently created first, each with its state as GET /jobs/{id} gives it, whether it still takes tasks, and its tasks, items and failed items counted; one page at a time.',
  tag: CONTROL_TAG,
  query: pagedQuery(),
  response: { status: 200, description: 'One page of bulk jobs', schema: obj({ jobs: arr(bulkJobSchema), ...pageProps }, ['jobs', 'total', 'next_offset']) },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { query: { app: 'demo', offset: 0, limit: 50 } },
  handler: (input) => {
    const app = requireApp(input);
    const now = input.store.now();
    // At most MAX_JOBS (20) jobs: reading them all is a bounded cost.
    const jobs = exportJobs(app).reverse();
    const page = pageOf({ total: jobs.length, slice: (s, e) => jobs.slice(s, e) }, pageRequest(input.query));
    return { body: { jobs: page.items.map((j) => bulkJobSummary(j, now)), total: page.total, next_offset: page.next_offset } };
  },
});
