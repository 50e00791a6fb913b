import { str } from '../schemas/json-schema.js';
import { adminListSchema, adminSchema, awayBodySchema, meSchema } from '../schemas/admin.js';
import { requireAdmin, setAwayMode, tokenOwner } from '../store/admins.js';
import { apiError } from '../core/errors.js';
import { adminListView, adminView, meView } from '../views/admin.js';
import { appRoute } from './route.js';

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
  handler: ({ app, params, body }) => ({
    body: adminView(app, setAwayMode(app, params.id ?? '', body.away_mode_enabled === true, body.away_mode_reassign === true)),
  }),
});

export const ADMIN_ROUTES = [listAdmins, getMe, getAdmin, setAdminAway];
