import { adminListSchema } from '../schemas/admin.js';
import { adminListView } from '../views/admin.js';
import { appRoute } from './route.js';

export const listAdmins = appRoute({
  method: 'GET',
  path: '/admins',
  operationId: 'listAdmins',
  summary: 'List admins and teams',
  description: 'One list mixing admins (type admin, with team_ids) and teams (type team, email null, with admin_ids); the two sides of team membership always agree.',
  tag: 'Admins',
  response: { status: 200, description: 'The admin list', schema: adminListSchema },
  errors: [],
  handler: ({ app }) => ({ body: adminListView(app) }),
});

export const ADMIN_ROUTES = [listAdmins];
