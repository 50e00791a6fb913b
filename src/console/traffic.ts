// GET /__admin/requests/tail: the journal entries newer than a sequence number, for the console's
// live tail. Polling with the last seq it saw, the page gets only what is new: at most `limit`
// entries are read back from the journal's arena and parsed, however many it holds.

import { adminRoute } from '../http/route.js';
import { arr, bool, int, obj, openObj, str } from '../schemas/json-schema.js';
import { query, type JournalFilter } from '../admin/journal-log.js';
import { appParam, CONTROL_TAG } from '../admin/target.js';
import { entrySchema, journalsOf } from '../admin/journal.js';

export const MAX_TAIL = 200;

export const tailRequests = adminRoute({
  method: 'GET',
  path: '/__admin/requests/tail',
  operationId: 'adminTailRequests',
  summary: 'Journal entries newer than a sequence number',
  description: `The entries with seq greater than after (0: from the start), oldest first, filtered like GET /__admin/requests (app or its token, method, path exact or a prefix ending in *, operationId, status, warnings); at most limit (default 50, at most ${MAX_TAIL}), the most recent when more arrived. last_seq is the highest seq answered, or after when none: send it as the next after.`,
  tag: CONTROL_TAG,
  query: openObj({
    app: appParam,
    after: int({ minimum: 0, default: 0, description: 'The last seq already seen' }),
    limit: int({ minimum: 1, maximum: MAX_TAIL, default: 50 }),
    method: str({ description: 'GET, POST, PUT or DELETE' }),
    path: str({ description: 'Exact path, or a prefix ending in *' }),
    operationId: str(),
    status: int({ minimum: 100, maximum: 599 }),
    warnings: bool({ description: 'true: only requests with contract warnings' }),
  }),
  response: {
    status: 200,
    description: 'The new entries',
    schema: obj({ requests: arr(entrySchema), last_seq: int({ minimum: 0 }) }, ['requests', 'last_seq']),
  },
  errors: ['not_found', 'unauthorized', 'parameter_invalid'],
  examples: { query: { app: 'demo', after: 0, limit: 50, method: '', path: '', operationId: '', status: 200, warnings: false } },
  handler: (input) => {
    const q = input.query;
    const after = typeof q.after === 'number' ? q.after : 0;
    const limit = typeof q.limit === 'number' ? q.limit : 50;
    const filter: JournalFilter = { limit };
    if (typeof q.method === 'string') filter.method = q.method;
    if (typeof q.path === 'string') filter.path = q.path;
    if (typeof q.operationId === 'string') filter.operationId = q.operationId;
    if (typeof q.status === 'number') filter.status = q.status;
    if (typeof q.warnings === 'boolean') filter.warnings = q.warnings;
    // The most recent `limit` matches, then only those past `after`: nothing older is parsed.
    const requests = query(journalsOf(input), filter).filter((e) => e.seq > after);
    return { body: { requests, last_seq: requests.length > 0 ? (requests[requests.length - 1]?.seq ?? after) : after } };
  },
});
