// The request journal over HTTP: list, count and clear what the apps were asked.

import { apiError } from '../core/errors.js';
import { adminRoute, type AdminInput } from '../http/route.js';
import { arr, bool, int, nullable, obj, oneOfStrings, openObj, str } from '../schemas/json-schema.js';
import { WARNING_CODES } from '../core/warnings.js';
import { count, query, type Journal, type JournalFilter } from './journal-log.js';
import { appParam, CONTROL_TAG, targets } from './target.js';
import { faultFilter } from '../resources/demo-examples.js';

const filterProps = {
  app: appParam,
  method: str({ description: 'GET, POST, PUT or DELETE' }),
  path: str({ description: 'Exact path, or a prefix ending in *' }),
  operationId: str(),
  status: int({ minimum: 100, maximum: 599 }),
  since: int({ minimum: 0, description: 'Unix seconds on the mock\'s clock' }),
  limit: int({ minimum: 1, maximum: 100_000, description: 'At most this many, the most recent' }),
  warnings: bool({ description: 'true: only requests with contract warnings; false: only those without' }),
  warning: oneOfStrings(Object.keys(WARNING_CODES), { description: 'Only requests with a warning of this code' }),
};

export const warningSchema = obj(
  {
    code: oneOfStrings(Object.keys(WARNING_CODES)),
    message: str(),
    field: str(),
    muted: bool({ description: 'muted for the app or the process: not in the response header' }),
  },
  ['code', 'message'],
);

export const entrySchema = obj(
  {
    seq: int(),
    time: int(),
    app: nullable(str()),
    request_id: str(),
    method: str(),
    path: str(),
    query: { type: 'object' },
    body: {},
    status: int(),
    operationId: str(),
    api_version: nullable(str({ description: 'the API version the request was answered in (its Intercom-Version, else the app\'s); null for requests no app answered and webhook deliveries' })),
    touched: arr(str()),
    warnings: arr(warningSchema, { description: 'what the request sent that the real API accepted but looks wrong (see X-Mock-Warning)' }),
  },
  ['seq', 'time', 'app', 'request_id', 'method', 'path', 'query', 'body', 'status', 'operationId', 'api_version', 'touched', 'warnings'],
);

/** The named app's journal, or every app's plus the one of requests that named no app. */
export function journalsOf(input: AdminInput): Journal[] {
  return input.app ? [input.app.journal] : [...targets(input).map((a) => a.journal), input.store.anonymousJournal];
}

function filterOf(f: Record<string, unknown>): JournalFilter {
  const { app: _app, ...rest } = f;
  return rest as JournalFilter;
}

export const listRequests = adminRoute({
  method: 'GET',
  path: '/__admin/requests',
  operationId: 'adminListRequests',
  summary: 'The request journal',
  description:
    'API requests in the order they arrived, with method, path, query, body, status, operationId, the ids they touched and the time on the mock\'s clock; filtered by app (or its token), method, path, operationId, status, since and contract warnings (warnings=true, or warning=<code>); limit keeps the most recent. Each app keeps its last N (a ring buffer). Webhook deliveries are journaled too: operationId webhookDelivery, path the target URL, request_id the notification id, status the receiver\'s (0: no answer).',
  tag: CONTROL_TAG,
  query: openObj(filterProps),
  response: { status: 200, description: 'Journal entries', schema: obj({ requests: arr(entrySchema) }, ['requests']) },
  errors: ['not_found', 'unauthorized'],
  examples: { query: { app: 'demo', method: 'GET', path: '/users', operationId: 'listUsers', status: 200, since: 1, limit: 50, warnings: true, warning: 'unknown_parameter' } },
  handler: (input) => ({ body: { requests: query(journalsOf(input), filterOf(input.query)) } }),
});

export const countRequests = adminRoute({
  method: 'POST',
  path: '/__admin/requests/count',
  operationId: 'adminCountRequests',
  summary: 'Count journal entries matching a filter',
  description: 'The body is a filter with the members of GET /__admin/requests\'s query; the app may also come from ?app= or a token.',
  tag: CONTROL_TAG,
  query: openObj({ app: appParam }),
  body: obj(filterProps),
  response: { status: 200, description: 'How many', schema: obj({ count: int({ minimum: 0 }) }, ['count']) },
  errors: ['not_found', 'unauthorized'],
  examples: { query: faultFilter, body: { app: 'demo', method: 'POST', path: '/users', operationId: 'upsertUser', status: 200, since: 1, limit: 50, warnings: true, warning: 'unused_field' } },
  handler: (input) => {
    const named = input.body.app;
    const app = typeof named === 'string' ? input.store.app(named) : input.app;
    if (typeof named === 'string' && !app) throw apiError('not_found', `No app "${named.slice(0, 100)}"`, 'app');
    return { body: { count: count(journalsOf({ ...input, app }), filterOf(input.body)) } };
  },
});

export const clearRequests = adminRoute({
  method: 'DELETE',
  path: '/__admin/requests',
  operationId: 'adminClearRequests',
  summary: 'Clear the journal',
  description: 'Forgets the journal of the app named, or of every app.',
  tag: CONTROL_TAG,
  query: openObj({ app: appParam }),
  response: { status: 200, description: 'Cleared', schema: obj({ cleared: int({ minimum: 0 }) }, ['cleared']) },
  errors: ['not_found', 'unauthorized'],
  examples: { query: faultFilter },
  handler: (input) => {
    let cleared = 0;
    for (const j of journalsOf(input)) {
      cleared += j.size;
      j.clear();
    }
    return { body: { cleared } };
  },
});

export const JOURNAL_ROUTES = [listRequests, countRequests, clearRequests];
