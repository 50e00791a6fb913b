// Bulk submissions and their jobs (surface B1-B5).

import { notFound } from '../../core/errors.js';
import { str } from '../../schemas/json-schema.js';
import { bulkEventsBodySchema, bulkUsersBodySchema, jobErrorFeedSchema, jobSchema, MAX_BULK_ITEMS, MAX_JOB_TASKS } from './shapes.js';
import { requireJob, submitBulk, type BulkItem, type BulkKind } from './rules.js';
import { chargeExtra } from '../../engine/rate-limit.js';
import { jobErrorFeedView, jobView } from '../events/view.js';
import { appRoute, type AppInput } from '../../http/route.js';
import { FIRST_JOB } from '../demo-examples.js';

const TAG = 'Bulk jobs';
const id = { id: str({ description: 'The job id, job_v2_…' }) };

const BULK_RULES = `Answers 202 with the job: a new one, or the open job named by job.id (404 job_not_found if there is none, 403 forbidden once past its closing_at, created_at + 900; at most ${MAX_JOB_TASKS} requests a job). 1 to ${MAX_BULK_ITEMS} items; the request counts one operation against the rate limit per item (it is admitted if the window has room for one, then the rest of its items use up what is left). The items run later, on the app's job queue after the job delay (POST /__admin/jobs/run runs them at once), each as the single call would and in its own transaction; a failed item goes to the error feed (GET /jobs/{id}/error). The job is pending until a task has run, running while tasks wait, then completed (failed when every item failed).`;

function bulk(kind: BulkKind) {
  return ({ store, app, body, origin }: AppInput) => {
    const items = (body.items as Omit<BulkItem, 'data_type'>[]).map((item) => ({ ...item, data_type: (item as { data_type?: string }).data_type ?? kind }) as BulkItem);
    const job = submitBulk(store, app, kind, items, (body.job as { id?: string } | undefined)?.id);
    const remaining = chargeExtra(app.rate, items.length - 1, app.config.rate_limit_per_minute);
    return { status: 202, body: jobView(app, job, origin), headers: { 'x-ratelimit-remaining': String(remaining) } };
  };
}

const BULK_ERRORS = ['parameter_not_found', 'parameter_invalid', 'bad_request', 'job_not_found', 'forbidden', 'resource_limit_exceeded', 'unsupported_media_type', 'request_too_large'] as const;

export const bulkUsers = appRoute({
  method: 'POST',
  path: '/bulk/users',
  operationId: 'bulkUsers',
  summary: 'Create, update or archive users in bulk',
  description: `Items {method: post|delete, data_type: user, data}: post is POST /users with data as its body, delete archives the user data names (id, user_id or email) as DELETE /users does. ${BULK_RULES}`,
  tag: TAG,
  body: bulkUsersBodySchema,
  response: { status: 202, description: 'The job', schema: jobSchema },
  errors: BULK_ERRORS,
  examples: {
    body: {
      items: [
        { method: 'post', data_type: 'user', data: { user_id: 'bulk-25', email: 'alice@example.com', name: 'Alice' } },
        { method: 'delete', data_type: 'user', data: { user_id: 'grace-2' } },
      ],
    },
  },
  handler: bulk('user'),
});

export const bulkEvents = appRoute({
  method: 'POST',
  path: '/bulk/events',
  operationId: 'bulkEvents',
  summary: 'Submit events in bulk',
  description: `Items {method: post, data_type: event, data}: POST /events with data as its body (events have no bulk delete). ${BULK_RULES}`,
  tag: TAG,
  body: bulkEventsBodySchema,
  response: { status: 202, description: 'The job', schema: jobSchema },
  errors: BULK_ERRORS,
  examples: { body: { items: [{ method: 'post', data_type: 'event', data: { event_name: 'invited-friend', created_at: 1767225600, email: 'ada@example.com' } }] } },
  handler: bulk('event'),
});

export const getJob = appRoute({
  method: 'GET',
  path: '/jobs/{id}',
  operationId: 'getJob',
  summary: 'Fetch a bulk job',
  description: 'The job with its tasks, state and links (self, error) on the mock\'s own origin. Unknown (or pushed out by newer jobs): 404 not_found "Job Not Found".',
  tag: TAG,
  params: id,
  response: { status: 200, description: 'The job', schema: jobSchema },
  errors: ['not_found'],
  // The job the bulkUsers example makes first in a fresh mock (ids come from the seeded stream).
  examples: { params: { id: FIRST_JOB } },
  exampleAfter: 'bulkUsers',
  handler: ({ app, params, origin }) => ({ body: jobView(app, requireJob(app, params.id ?? ''), origin) }),
});

export const getJobErrors = appRoute({
  method: 'GET',
  path: '/jobs/{id}/error',
  operationId: 'getJobErrors',
  summary: 'The error feed of a bulk job',
  description: 'Every failed item of the job, task by task: the task id, method, data_type, the data as sent and the error. Not an error.list: the feed of a job with no failures has empty items. Unpaged (pages is {}).',
  tag: TAG,
  params: id,
  response: { status: 200, description: 'The failed items', schema: jobErrorFeedSchema },
  errors: ['not_found'],
  examples: { params: { id: FIRST_JOB } },
  exampleAfter: 'bulkUsers',
  handler: ({ app, params }) => ({ body: jobErrorFeedView(app, requireJob(app, params.id ?? '')) }),
});

/** The Java client's Job.update: no API version documents it, so it answers as an unknown path. */
export const updateJob = appRoute({
  method: 'POST',
  path: '/jobs/{id}',
  operationId: 'updateJob',
  summary: 'Not in API 1.x (always 404)',
  description:
    'The Java client\'s Job.update posts here, but no version of the API documents it: the answer is the unknown-path 404 not_found "The requested resource does not exist; check your path and try again", and nothing changes. Jobs take more items through POST /bulk/users or /bulk/events with job.id.',
  tag: TAG,
  params: id,
  response: { status: 200, description: 'Never answered', schema: jobSchema },
  errors: ['not_found'],
  examples: { params: { id: FIRST_JOB }, status: 404 },
  handler: () => {
    throw notFound('The requested resource does not exist; check your path and try again');
  },
});

export const JOB_ROUTES = [bulkUsers, bulkEvents, getJob, getJobErrors, updateJob];
