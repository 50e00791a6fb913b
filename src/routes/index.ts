// The route registry: app.ts mounts these and openapi.ts documents them, in this order.

import { CONTROL_ROUTES } from '../admin/routes.js';
import { ADMIN_ROUTES } from './admins.js';
import type { RouteDef } from './route.js';
import { USER_ROUTES } from './users.js';

export const ROUTES: readonly RouteDef[] = [...USER_ROUTES, ...ADMIN_ROUTES, ...CONTROL_ROUTES];
