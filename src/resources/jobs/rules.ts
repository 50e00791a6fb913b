// Bulk jobs (POST /bulk/users, POST /bulk/events, GET /jobs/{id}): each request adds a task to a
// job, and each task runs later on the app's job queue (resources/jobs/run.ts), item by item, through the
// same store operations as the single calls, each item its own transaction: a failed item is
// rolled back alone and lands in the job's error feed.

import type { Stored } from '../../engine/types.js';
import type { bulkErrorSchema, bulkItemSchema, bulkJobSchema, bulkTaskSchema } from '../../fixtures/schema.js';
import { ApiError, apiError, invalid } from '../../core/errors.js';
import { CLOCK_MAX_SECONDS } from '../../core/clock.js';
import { userBodySchema } from '../customers/shapes.js';
import { eventBodySchema } from '../events/shapes.js';
import { MAX_JOBS, MAX_JOB_TASKS } from './shapes.js';
import { validate } from '../../schemas/validate.js';
import type { AppState } from '../../state/app-state.js';
import { archiveUser } from '../users/archive.js';
import { addBytes, keptBytes } from '../../engine/byte-budget.js';

/** An empty list keeps nothing the tally counts, so a task's bytes are the same however reached. */
const listBytes = (list: readonly unknown[]): number => (list.length === 0 ? 0 : keptBytes(list));
import { upsertUser, type CustomerInput } from '../customers/rules.js';
import { submitEvent, type EventInput } from '../events/rules.js';
import { enqueue } from '../../engine/job-queue.js';
import type { Store } from '../../state/store.js';

export type BulkKind = BulkItem['data_type'];

export type BulkItem = Stored<typeof bulkItemSchema>;

/** A failed item, as the error feed shows it (surface B4). */
export type BulkError = Stored<typeof bulkErrorSchema>;

export type TaskState = BulkTask['state'];
export type JobState = 'running' | 'completed' | 'failed';

export type BulkTask = Stored<typeof bulkTaskSchema>;

export type BulkJob = Stored<typeof bulkJobSchema>;

/** How long a job takes more tasks (the real created_at + 900). */
export const JOB_OPEN_SECONDS = 900;

const FIRST = 'bulk:first';
const NEXT = 'bulk:next';

export function jobState(job: BulkJob): JobState {
  let pending = 0;
  let failed = 0;
  for (const t of job.tasks) {
    if (t.state === 'pending') pending++;
    else if (t.state === 'failed') failed++;
  }
  // A job none of whose tasks has run yet is running, as the real API answered a new one [C].
  if (pending > 0 || job.tasks.length === 0) return 'running';
  return failed === job.tasks.length ? 'failed' : 'completed';
}

const underscored = (uuid: string): string => uuid.replace(/-/g, '_');

export function requireJob(app: AppState, id: string): BulkJob {
  const job = app.data.bulkJobs.get(id);
  if (!job) throw apiError('not_found', 'Job Not Found');
  return job;
}

/**
 * Adds a task of `items` to the job named by `jobId` (open: before its closing_at) or to a new job,
 * and queues it to run after the store's job delay. Returns the job as it stands.
 */
export function submitBulk(store: Store, app: AppState, kind: BulkKind, items: readonly BulkItem[], jobId: string | undefined): BulkJob {
  const now = store.now();
  items.forEach((item, i) => {
    if (item.data_type !== kind) throw invalid(`items[${i}].data_type`, `items[${i}].data_type must be "${kind}" on /bulk/${kind}s.`);
  });
  let job: BulkJob;
  if (jobId !== undefined) {
    const open = app.data.bulkJobs.get(jobId);
    if (!open) throw apiError('job_not_found', `job ${jobId} not found`, 'job.id');
    if (now > open.closing_at) throw apiError('forbidden', `job ${jobId} is closed for new task updates`, 'job.id');
    if (open.tasks.length >= MAX_JOB_TASKS) throw invalid('job.id', `job ${jobId} already holds ${MAX_JOB_TASKS} tasks, the most a job takes; start a new job.`);
    job = open;
  } else {
    job = newJob(app, now);
  }
  let taskId = `task_v2_${underscored(app.random.uuid())}`;
  // Streams rewound by a seed draw again the ids of the records it holds: a taken one is skipped.
  while (job.tasks.some((t) => t.id === taskId)) taskId = `task_v2_${underscored(app.random.uuid())}`;
  const task: BulkTask = {
    id: taskId,
    item_count: items.length,
    created_at: now,
    started_at: null,
    completed_at: null,
    state: 'pending',
    items: items.map((item) => ({ method: item.method, data_type: kind, data: item.data })),
    errors: [],
  };
  const bytes = listBytes(task.items);
  if (!store.budgets.fits(app, 'bulk', bytes)) {
    throw apiError(
      'resource_limit_exceeded',
      `Pending bulk items and error feeds of every app already hold close to ${store.budgets.limits.bulk} bytes, the most the mock keeps; run the queue (POST /__admin/jobs/run), reset apps, or send smaller tasks.`,
    );
  }
  addBytes(app.data.tallies, 'bulk', bytes);
  const next: BulkJob = { ...job, updated_at: now, completed_at: null, tasks: [...job.tasks, task] };
  app.data.bulkJobs.set(next.id, next);
  enqueue(app, { kind: 'bulk_task', job_id: next.id, task_id: task.id }, Math.min(now + store.jobDelaySeconds, CLOCK_MAX_SECONDS));
  return next;
}

function newJob(app: AppState, now: number): BulkJob {
  const order = app.data.bulkOrder;
  const tallies = app.data.tallies;
  const first = tallies.get(FIRST) ?? 1;
  const seq = tallies.get(NEXT) ?? 1;
  if (seq - first >= MAX_JOBS) {
    const oldestId = order.get(String(first));
    const oldest = oldestId === undefined ? undefined : app.data.bulkJobs.get(oldestId);
    if (oldest && jobState(oldest) === 'running') {
      throw apiError('resource_limit_exceeded', `This app already holds ${MAX_JOBS} jobs and the oldest (${oldest.id}) has not finished; run the queue (POST /__admin/jobs/run) or reset the app.`);
    }
    order.delete(String(first));
    if (oldestId !== undefined) app.data.bulkJobs.delete(oldestId);
    if (oldest) addBytes(tallies, 'bulk', -ownJobBytes(app, oldest));
    tallies.set(FIRST, first + 1);
  }
  let id = `job_v2_${underscored(app.random.uuid())}`;
  while (app.data.bulkJobs.has(id)) id = `job_v2_${underscored(app.random.uuid())}`;
  order.set(String(seq), id);
  tallies.set(NEXT, seq + 1);
  if (tallies.get(FIRST) === undefined) tallies.set(FIRST, seq);
  return { id, created_at: now, updated_at: now, completed_at: null, closing_at: Math.min(now + JOB_OPEN_SECONDS, CLOCK_MAX_SECONDS), tasks: [] };
}

/** The body schemas of the single calls, which check an item's data the same way. */
const itemSchemas = { user: userBodySchema, event: eventBodySchema } as const;

function problemText(err: unknown): string {
  if (err instanceof ApiError) return err.errors.map((e) => `${e.code}: ${e.message}`).join('; ');
  return 'server_error: An unexpected error occurred.';
}

function applyItem(store: Store, app: AppState, item: BulkItem): void {
  const schema = itemSchemas[item.data_type];
  const problems = validate(schema, item.data);
  if (problems.length > 0) {
    throw new ApiError(problems.map((p) => ({ code: p.kind === 'missing' ? ('parameter_not_found' as const) : ('parameter_invalid' as const), message: p.message, field: p.path })));
  }
  if (item.data_type === 'event') submitEvent(app, item.data as EventInput, app.limits.events, store.budgets);
  else if (item.method === 'delete') archiveUser(app, item.data as { id?: string; user_id?: string; email?: string });
  else upsertUser(store, app, item.data as CustomerInput);
}

/** Runs one queued task: every item in its own transaction, the failures into the error feed. */
export function runBulkTask(store: Store, app: AppState, jobId: string, taskId: string): void {
  const job = app.data.bulkJobs.get(jobId);
  const index = job ? job.tasks.findIndex((t) => t.id === taskId) : -1;
  const task = job?.tasks[index];
  if (!job || !task || task.state !== 'pending') return;
  const now = store.now();
  const errors: BulkError[] = [];
  for (const item of task.items) {
    try {
      app.transaction(() => applyItem(store, app, item));
    } catch (err) {
      errors.push({ id: task.id, updated_at: now, method: item.method, data_type: item.data_type, data: item.data, error: problemText(err) });
    }
  }
  // The items go, the failed ones stay in the error feed: the app's tally follows what is kept. A
  // seeded task's items stay in the base, so running it gives back nothing.
  const seeded = app.base.data.bulkJobs.get(job.id)?.tasks.some((t) => t.items === task.items) === true;
  addBytes(app.data.tallies, 'bulk', listBytes(errors) - (seeded ? 0 : listBytes(task.items)));
  const done: BulkTask = { ...task, started_at: now, completed_at: now, state: errors.length === task.item_count ? 'failed' : 'completed', items: [], errors };
  const tasks = [...job.tasks];
  tasks[index] = done;
  const next: BulkJob = { ...job, updated_at: now, tasks };
  if (jobState(next) === 'completed' || jobState(next) === 'failed') next.completed_at = now;
  app.data.bulkJobs.set(job.id, next);
}

/** What a job keeps in bytes: its pending items and its error feed. */
export function jobBytes(job: BulkJob): number {
  let bytes = 0;
  for (const t of job.tasks) bytes += listBytes(t.items) + listBytes(t.errors);
  return bytes;
}

/** What of a job the API added (the base keeps its seeded lists whatever the app drops): O(its tasks). */
function ownJobBytes(app: AppState, job: BulkJob): number {
  const seeded = new Map((app.base.data.bulkJobs.get(job.id)?.tasks ?? []).map((t) => [t.id, t]));
  let bytes = 0;
  for (const t of job.tasks) {
    const base = seeded.get(t.id);
    if (base?.items !== t.items) bytes += listBytes(t.items);
    if (base?.errors !== t.errors) bytes += listBytes(t.errors);
  }
  return bytes;
}

/** Jobs oldest first, for the fixture document. */
export function exportJobs(app: AppState): BulkJob[] {
  const out: BulkJob[] = [];
  const tallies = app.data.tallies;
  for (let seq = tallies.get(FIRST) ?? 1; seq < (tallies.get(NEXT) ?? 1); seq++) {
    const id = app.data.bulkOrder.get(String(seq));
    const job = id === undefined ? undefined : app.data.bulkJobs.get(id);
    if (job) out.push(job);
  }
  return out;
}

/** Base maps for seeded jobs (listed oldest first). */
export function seedJobs(jobs: readonly BulkJob[], tallies: Map<string, number>): { bulkJobs: Map<string, BulkJob>; bulkOrder: Map<string, string> } {
  const bulkJobs = new Map<string, BulkJob>();
  const bulkOrder = new Map<string, string>();
  jobs.forEach((job, i) => {
    addBytes(tallies, 'bulk', jobBytes(job));
    bulkJobs.set(job.id, job);
    bulkOrder.set(String(i + 1), job.id);
  });
  if (jobs.length > 0) {
    tallies.set(FIRST, 1);
    tallies.set(NEXT, jobs.length + 1);
  }
  return { bulkJobs, bulkOrder };
}
