import { str } from '../../schemas/json-schema.js';
import { teamListSchema, teamReadSchema } from './shapes.js';
import { requireTeam } from './rules.js';
import { teamListView, teamView } from './view.js';
import { appRoute } from '../../http/route.js';

export const listTeams = appRoute({
  method: 'GET',
  path: '/teams',
  operationId: 'listTeams',
  summary: 'List teams',
  description: 'Every team of the app, in fixture order, with admin_ids (integers); each admin\'s team_ids (GET /admins/{id}) lists exactly the teams naming it.',
  tag: 'Admins',
  response: { status: 200, description: 'The teams', schema: teamListSchema },
  errors: [],
  handler: ({ app }) => ({ body: teamListView(app) }),
});

export const getTeam = appRoute({
  method: 'GET',
  path: '/teams/{id}',
  operationId: 'getTeam',
  summary: 'Fetch a team',
  description: 'The team with its admin_ids. An admin id or an unknown id: 404 team_not_found "Team not found".',
  tag: 'Admins',
  params: { id: str({ description: 'The team id' }) },
  response: { status: 200, description: 'The team', schema: teamReadSchema },
  errors: ['team_not_found'],
  examples: { params: { id: '1000001' } },
  handler: ({ app, params }) => ({ body: teamView(requireTeam(app, params.id ?? '')) }),
});

export const TEAM_ROUTES = [listTeams, getTeam];
