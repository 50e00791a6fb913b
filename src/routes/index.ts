// The route registry: app.ts mounts these and openapi.ts documents them, in this order. The scroll
// routes come first: `/users/scroll` must win over `/users/{id}`.

import { reportRoutes } from '../admin/report.js';
import { CONTROL_ROUTES } from '../admin/routes.js';
import { ADMIN_ROUTES } from './admins.js';
import { NOTE_ROUTES } from './notes.js';
import { TEAM_ROUTES } from './teams.js';
import { COMPANY_ROUTES } from './companies.js';
import { CONTACT_ROUTES } from './contacts.js';
import { searchCustomersRoute } from './customer-search.js';
import { LEAD_LIFECYCLE_ROUTES } from './lead-lifecycle.js';
import { USER_LIFECYCLE_ROUTES } from './user-lifecycle.js';
import { CONVERSATION_ROUTES } from './conversations.js';
import { MESSAGE_ROUTES } from './messages.js';
import { COUNT_ROUTES } from './counts.js';
import { DATA_ATTRIBUTE_ROUTES } from './data-attributes.js';
import type { RouteDef } from './route.js';
import { SEGMENT_ROUTES } from './segments.js';
import { SCROLL_ROUTES } from './scroll.js';
import { TAG_ROUTES } from './tags.js';
import { USER_ROUTES } from './users.js';
import { VISITOR_ROUTES } from './visitors.js';
import { EVENT_ROUTES } from './events.js';
import { JOB_ROUTES } from './jobs.js';
import { SUBSCRIPTION_ROUTES } from './subscriptions.js';

const API_AND_CONTROL: readonly RouteDef[] = [...SCROLL_ROUTES, ...USER_ROUTES, ...USER_LIFECYCLE_ROUTES, ...CONTACT_ROUTES, searchCustomersRoute, ...LEAD_LIFECYCLE_ROUTES, ...VISITOR_ROUTES, ...COMPANY_ROUTES, ...DATA_ATTRIBUTE_ROUTES, ...COUNT_ROUTES, ...TAG_ROUTES, ...SEGMENT_ROUTES, ...ADMIN_ROUTES, ...TEAM_ROUTES, ...NOTE_ROUTES, ...CONVERSATION_ROUTES, ...MESSAGE_ROUTES, ...EVENT_ROUTES, ...JOB_ROUTES, ...SUBSCRIPTION_ROUTES, ...CONTROL_ROUTES];

export const ROUTES: readonly RouteDef[] = [...API_AND_CONTROL, ...reportRoutes(API_AND_CONTROL)];
