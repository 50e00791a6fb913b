import { openObj, str } from '../../schemas/json-schema.js';
import { activityLogListSchema, adminListSchema, adminSchema, awayBodySchema, meSchema } from './shapes.js';
import { unixTime } from '../../schemas/fields.js';
import { pagingQuery } from '../customers/shapes.js';
import { activityLogsBetween } from './activity-logs.js';
import { requireAdmin, setAwayMode, tokenOwner } from './rules.js';
import { apiError } from '../../core/errors.js';
import { paginate, pageRequestOf } from '../../core/pagination.js';
import { adminListView, adminView, meView } from './view.js';
import { appRoute } from '../../http/route.js';
import { ADMIN } from '../demo-examples.js';

const TAG = 'Admins';
const id = { id: str({ description: 'The admin id' }) };

export const listAdmins = appRoute({
  method: 'GET',
  path: '/admins',
  operationId: 'listAdmins',
  summary: 'List admins and teams',
  description:
    'One list mixing admins (type admin, with team_ids) and teams (type team, email null, with admin_ids); the two sides of team membership always agree. From API version 1.4: admins only (teams are at GET /teams).',
  tag: TAG,
  response: { status: 200, description: 'The admin list', schema: adminListSchema },
  errors: [],
  handler: ({ app }) => ({ body: adminListView(app) }),
});

export const getAdmin = appRoute({
  method: 'GET',
  path: '/admins/{id}',
  operationId: 'getAdmin',
  summary: 'Fetch an admin',
  description: 'The admin with its away-mode flags and team_ids (the teams whose admin_ids name it). A team id or an unknown id: 404 admin_not_found "Admin not found".',
  tag: TAG,
  params: id,
  response: { status: 200, description: 'The admin', schema: adminSchema },
  errors: ['admin_not_found'],
  examples: { params: { id: ADMIN } },
  handler: ({ app, params }) => ({ body: adminView(app, requireAdmin(app, params.id ?? '')) }),
});

export const getMe = appRoute({
  method: 'GET',
  path: '/me',
  operationId: 'getMe',
  summary: 'Fetch the admin the token belongs to',
  description:
    'The admin the request\'s token belongs to (the app\'s token_owners fixture member, else the app\'s first admin: so a provisioned test_ token belongs to the first admin of the fixtures it was seeded from), with email_verified and the app (id_code is the app id). An app without admins: 404 admin_not_found.',
  tag: TAG,
  response: { status: 200, description: 'The current admin', schema: meSchema },
  errors: ['admin_not_found'],
  handler: ({ app, token }) => {
    const admin = tokenOwner(app, token);
    if (!admin) throw apiError('admin_not_found', 'This app has no admins, so its token belongs to none.');
    return { body: meView(app, admin) };
  },
});

export const setAdminAway = appRoute({
  method: 'PUT',
  path: '/admins/{id}/away',
  operationId: 'setAdminAway',
  summary: 'Set an admin\'s away mode',
  description:
    'Stores away_mode_enabled and away_mode_reassign (both required booleans, taken as sent) and answers the admin; GET /admins/{id} and GET /admins show them from then on. An id echoed in the body (the Java client) must be the path\'s. Unknown admin: 404 admin_not_found.',
  tag: TAG,
  params: id,
  body: awayBodySchema,
  response: { status: 200, description: 'The admin', schema: adminSchema },
  errors: ['admin_not_found', 'parameter_not_found', 'parameter_invalid', 'bad_request', 'unsupported_media_type', 'request_too_large'],
  examples: { params: { id: ADMIN }, body: { away_mode_enabled: true, away_mode_reassign: false } },
  handler: ({ store, app, params, body, token }) => ({
    body: adminView(app, setAwayMode(app, params.id ?? '', body.away_mode_enabled === true, body.away_mode_reassign === true, tokenOwner(app, token), store.now())),
  }),
});

/** The docs' page size (the 1.2 example answers per_page 20). */
export const ACTIVITY_LOGS_PER_PAGE = 20;

export const listActivityLogs = appRoute({
  method: 'GET',
  path: '/admins/activity_logs',
  operationId: 'listActivityLogs',
  summary: 'List admin activity logs (API version 1.2 and later)',
  description:
    'What the app\'s admins did, newest first: the away-mode changes of PUT /admins/{id}/away (activity_type admin_away_mode_change) and the webhook subscriptions created and deleted (app_webhook_creation, app_webhook_deletion), at most 1,000 entries per app (then the oldest goes). created_at_after (Unix seconds, required) and created_at_before (optional) bound created_at, both inclusive. Paged: per_page default 20, max 60; pages.next is null on the last page. In API versions 1.0 and 1.1: 400 intercom_version_invalid.',
  tag: TAG,
  query: openObj(
    {
      created_at_after: unixTime({ description: 'Only entries created at or after this time (Unix seconds); required' }),
      created_at_before: unixTime({ description: 'Only entries created at or before this time (Unix seconds)' }),
      ...pagingQuery,
      // The docs' page size, not the customer lists' 50.
      per_page: { ...pagingQuery.per_page, default: ACTIVITY_LOGS_PER_PAGE },
    },
    ['created_at_after'],
  ),
  response: { status: 200, description: 'The activity log list', schema: activityLogListSchema },
  errors: ['parameter_not_found', 'parameter_invalid'],
  versions: { since: '1.2' },
  examples: { query: { created_at_after: 1700000000, created_at_before: 2000000000, page: 1, per_page: 20 } },
  handler: (input) => {
    const { created_at_after, created_at_before } = input.query;
    const logs = activityLogsBetween(input.app, created_at_after, created_at_before ?? Number.MAX_SAFE_INTEGER);
    const { items, pages } = paginate(logs, { ...pageRequestOf(input.query), perPage: (input.query.per_page as number | undefined) ?? ACTIVITY_LOGS_PER_PAGE }, input);
    return { body: { type: 'activity_log.list' as const, pages: { type: 'pages' as const, next: pages.next ?? null, page: pages.page, per_page: pages.per_page, total_pages: pages.total_pages }, activity_logs: items } };
  },
});

// The literal path before `/admins/{id}`, which would take it for an admin id.
export const ADMIN_ROUTES = [listAdmins, getMe, listActivityLogs, getAdmin, setAdminAway];
