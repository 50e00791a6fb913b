// Bulk jobs: the POST /bulk/users and /bulk/events bodies, the job and its error feed.

import { arr, constant, int, nullable, obj, oneOfStrings, openObj, str } from '../../schemas/json-schema.js';

/** Items one request may carry (the real API's 100). */
export const MAX_BULK_ITEMS = 100;
/** Tasks (requests) one job may take: 10,000 items. */
export const MAX_JOB_TASKS = 100;
/** Jobs an app keeps; a new one pushes out the oldest once it has finished. 200,000 items at most, the customer limit. */
export const MAX_JOBS = 20;

const item = (methods: readonly string[], dataType: string) =>
  openObj(
    {
      method: oneOfStrings(methods),
      data_type: str({ description: `${dataType}; may be left out (older clients do).` }),
      data: { type: 'object', description: `The body of the single call (POST /${dataType}s${methods.includes('delete') ? '; for delete its id, user_id or email' : ''}), checked when the item runs.` },
    },
    ['method', 'data'],
  );

const bulkBody = (methods: readonly string[], dataType: string) =>
  openObj(
    {
      items: arr(item(methods, dataType), { minItems: 1, maxItems: MAX_BULK_ITEMS, description: `1 to ${MAX_BULK_ITEMS} items.` }),
      job: openObj({ id: str({ maxLength: 100, description: 'An open job to add these items to.' }) }, ['id']),
    },
    ['items'],
  );

export const bulkUsersBodySchema = bulkBody(['post', 'delete'], 'user');
export const bulkEventsBodySchema = bulkBody(['post'], 'event');

const time = int({ minimum: 0 });

export const taskSchema = obj(
  {
    id: str(),
    item_count: int({ minimum: 1 }),
    created_at: time,
    started_at: nullable(time),
    completed_at: nullable(time),
    state: oneOfStrings(['pending', 'completed', 'failed']),
  },
  ['id', 'item_count', 'created_at', 'started_at', 'completed_at', 'state'],
);

export const jobSchema = obj(
  {
    type: constant('job'),
    app_id: str(),
    id: str(),
    name: constant('api_bulk_job'),
    created_at: time,
    updated_at: time,
    completed_at: nullable(time),
    closing_at: time,
    state: oneOfStrings(['running', 'completed', 'failed'], { description: 'running until every task has run (a new job included, as the real API answered one)' }),
    links: obj({ error: str(), self: str() }, ['error', 'self']),
    tasks: arr(taskSchema),
  },
  ['type', 'app_id', 'id', 'name', 'created_at', 'updated_at', 'completed_at', 'closing_at', 'state', 'links', 'tasks'],
);

export const jobErrorFeedSchema = obj(
  {
    app_id: str(),
    job_id: str(),
    pages: obj({}),
    items: arr(
      obj(
        { id: str({ description: 'The task' }), updated_at: time, method: oneOfStrings(['post', 'delete']), data_type: oneOfStrings(['user', 'event']), data: { type: 'object' }, error: str() },
        ['id', 'updated_at', 'method', 'data_type', 'data', 'error'],
      ),
    ),
  },
  ['app_id', 'job_id', 'pages', 'items'],
);
