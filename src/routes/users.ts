import { paginate, scrollablePageRequestOf } from '../core/pagination.js';
import { emailListTypes } from '../core/versions.js';
import { pagingQuery, userBodySchema, userListSchema, userOrLeadSchema, userSchema } from '../schemas/customer.js';
import { openObj, str } from '../schemas/json-schema.js';
import { customerListQuery } from '../schemas/list-filters.js';
import { filteredCustomers, listFilterOf, refine } from '../store/customer-filters.js';
import { customersWithEmail, listCustomers, requireCustomer, upsertUser, type CustomerInput } from '../store/customers.js';
import { customerView, userListView } from '../views/customer.js';
import { customerJson } from '../views/customer-json.js';
import { appRoute } from './route.js';

export const getUser = appRoute({
  method: 'GET',
  path: '/users/{id}',
  operationId: 'getUser',
  summary: 'Fetch a user by id',
  description: 'Read-back of a user or lead by its server-assigned id. A visitor is not found here.',
  tag: 'Users',
  params: { id: str({ description: 'The id assigned by the server' }) },
  response: { status: 200, description: 'The user or lead', schema: userOrLeadSchema },
  errors: ['not_found'],
  handler: ({ app, params }) => ({ body: customerJson(app, requireCustomer(app, params.id ?? '', ['user', 'contact'], 'User Not Found')) }),
});

export const listUsers = appRoute({
  method: 'GET',
  path: '/users',
  operationId: 'listUsers',
  summary: 'List users, or find them by user_id or email',
  description:
    'Users oldest first, paged (per_page default 50, max 60; `next` is absent on the last page). user_id or email (case-insensitive) finds users, in the lookup order id → user_id → email: with both, user_id decides alone; no match gives total_count 0. In API version 1.1 an email lists the users and the leads (type contact) with it, oldest first; from 1.2 users only. ' +
    'tag_id or segment_id (not both: 400 bad_request) lists the users holding it, in the order they got it; created_since (days), sort and order as described on each parameter.',
  tag: 'Users',
  query: openObj({ user_id: str(), email: str(), ...customerListQuery, ...pagingQuery }),
  response: {
    status: 200,
    description: 'The users; in API version 1.0 an email lookup without user_id answers the one user (several: 409 conflict, none: 404 not_found)',
    schema: { anyOf: [userListSchema, userOrLeadSchema] },
  },
  errors: ['parameter_invalid', 'bad_request', 'not_found', 'conflict'],
  handler: (input) => {
    const { user_id, email } = input.query as { user_id?: string; email?: string };
    const filter = listFilterOf(input.query);
    const now = input.store.now();
    const lookup = { ...(user_id !== undefined ? { user_id } : {}), ...(email !== undefined ? { email } : {}) };
    const users =
      user_id === undefined && email === undefined
        ? filteredCustomers(input.app, 'user', filter, now)
        : refine(user_id === undefined ? customersWithEmail(input.app, emailListTypes(input.version), email ?? '') : listCustomers(input.app, 'user', lookup), filter, now);
    const page = paginate(users, scrollablePageRequestOf(input.query), input);
    return { body: userListView(input.app, users.total, page.items, page.pages) };
  },
});

export const upsertUserRoute = appRoute({
  method: 'POST',
  path: '/users',
  operationId: 'upsertUser',
  summary: 'Create or update a user',
  description:
    'Looks the user up by id, then user_id, then email (case-insensitive): found → updated; an email whose users all have another user_id, with a new user_id → a new user; no match → created. An email alone that matches several users is a 409; a user_id another customer holds (an archived user included) is a 400 unique_user_constraint "User already exists.". An archived user named by id, user_id or (with no user_id sent) email comes back, same id, before the update applies. Custom attributes follow the limits of spec 4.5; a rejected request changes nothing. location_data, avatar and social profiles are filled asynchronously.',
  tag: 'Users',
  body: userBodySchema,
  response: { status: 200, description: 'The created or updated user', schema: userSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'conflict', 'unique_user_constraint', 'unsupported_media_type', 'request_too_large'],
  handler: ({ store, app, body }) => ({ body: customerView(app, upsertUser(store, app, body as CustomerInput)) }),
});

export const USER_ROUTES = [getUser, listUsers, upsertUserRoute];
