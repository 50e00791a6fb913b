// The route registry: app.ts mounts these and openapi.ts documents them, in this order. The scroll
// routes come first: `/users/scroll` must win over `/users/{id}`.

import { reportRoutes } from '../admin/report.js';
import { CONTROL_ROUTES } from '../admin/routes.js';
import { ADMIN_ROUTES } from './admins/routes.js';
import { NOTE_ROUTES } from './notes/routes.js';
import { TEAM_ROUTES } from './admins/team-routes.js';
import { COMPANY_ROUTES } from './companies/routes.js';
import { CONTACT_ROUTES } from './leads/routes.js';
import { searchCustomersRoute } from './customers/search-routes.js';
import { LEAD_LIFECYCLE_ROUTES } from './leads/lifecycle-routes.js';
import { USER_LIFECYCLE_ROUTES } from './users/lifecycle-routes.js';
import { CONVERSATION_ROUTES } from './conversations/routes.js';
import { MESSAGE_ROUTES } from './messages/routes.js';
import { COUNT_ROUTES } from './counts/routes.js';
import { DATA_ATTRIBUTE_ROUTES } from './data-attributes/routes.js';
import type { RouteDef } from '../http/route.js';
import { SEGMENT_ROUTES } from './segments/routes.js';
import { SCROLL_ROUTES } from './scroll/routes.js';
import { TAG_ROUTES } from './tags/routes.js';
import { USER_ROUTES } from './users/routes.js';
import { VISITOR_ROUTES } from './visitors/routes.js';
import { EVENT_ROUTES } from './events/routes.js';
import { JOB_ROUTES } from './jobs/routes.js';
import { SUBSCRIPTION_ROUTES } from './subscriptions/routes.js';

const API_AND_CONTROL: readonly RouteDef[] = [...SCROLL_ROUTES, ...USER_ROUTES, ...USER_LIFECYCLE_ROUTES, ...CONTACT_ROUTES, searchCustomersRoute, ...LEAD_LIFECYCLE_ROUTES, ...VISITOR_ROUTES, ...COMPANY_ROUTES, ...DATA_ATTRIBUTE_ROUTES, ...COUNT_ROUTES, ...TAG_ROUTES, ...SEGMENT_ROUTES, ...ADMIN_ROUTES, ...TEAM_ROUTES, ...NOTE_ROUTES, ...CONVERSATION_ROUTES, ...MESSAGE_ROUTES, ...EVENT_ROUTES, ...JOB_ROUTES, ...SUBSCRIPTION_ROUTES, ...CONTROL_ROUTES];

export const ROUTES: readonly RouteDef[] = [...API_AND_CONTROL, ...reportRoutes(API_AND_CONTROL)];
