import { paginate, scrollablePageRequestOf } from '../../core/pagination.js';
import { idParams } from '../../schemas/fields.js';
import { emailListTypes } from '../../core/versions.js';
import { pagingQuery, userBodySchema, userListSchema, userOrLeadSchema, userSchema } from '../customers/shapes.js';
import { openObj, str } from '../../schemas/json-schema.js';
import { customerListQuery } from '../customers/list-filters.js';
import { filteredCustomers, listFilterOf, refine } from '../customers/filters.js';
import { customersWithEmail, listCustomers, requireCustomer, upsertUser } from '../customers/rules.js';
import { customerView, userListView } from '../customers/view.js';
import { customerJson } from '../customers/view-json.js';
import { appRoute } from '../../http/route.js';
import { apiError } from '../../core/errors.js';
import { normalEmail } from '../../core/normal-text.js';
import type { RequestWarnings } from '../../core/warnings.js';
import type { AppState } from '../../state/app-state.js';
import type { Customer } from '../../engine/types.js';
import { ADA, customerBody } from '../demo-examples.js';

export const getUser = appRoute({
  method: 'GET',
  path: '/users/{id}',
  operationId: 'getUser',
  summary: 'Fetch a user by id',
  description: 'Read-back of a user or lead by its server-assigned id. A visitor is not found here.',
  tag: 'Users',
  params: idParams(),
  response: { status: 200, description: 'The user or lead', schema: userOrLeadSchema },
  errors: ['not_found'],
  examples: { params: { id: ADA } },
  handler: ({ app, params }) => ({ body: customerJson(app, requireCustomer(app, params.id ?? '', ['user', 'contact'], 'User Not Found')) }),
});

/** The real "View a user" by user_id: the one user, whatever the version; an email beside it only disagrees. */
/** Parameters of the list that a lookup by user_id does not read. */
const LIST_ONLY = [...Object.keys(customerListQuery), ...Object.keys(pagingQuery)];

function userByUserId(app: AppState, userId: string, email: string | undefined, query: Record<string, unknown>, warnings: RequestWarnings): Customer {
  const found = listCustomers(app, 'user', { user_id: userId }).slice(0, 1)[0];
  if (!found) throw apiError('not_found', 'User Not Found');
  warnings.unread(query, LIST_ONLY, 'a lookup by user_id');
  if (email !== undefined && normalEmail(email) !== (found.email ?? '')) {
    warnings.add('identifier_overridden', `user_id ${JSON.stringify(userId.slice(0, 100))} names the user; the email beside it (${JSON.stringify(email.slice(0, 100))}) is not theirs and was not used.`, 'email');
  }
  return found;
}

export const listUsers = appRoute({
  method: 'GET',
  path: '/users',
  operationId: 'listUsers',
  summary: 'List users, or find them by user_id or email',
  description:
    'Users oldest first, paged (per_page default 50, max 60; `next` is null on the last page). user_id answers the one user with it in every version (the real "View a user"; none: 404 not_found; with an email too, user_id decides alone and an email that names someone else is a warning). email (case-insensitive) alone: in API version 1.0 the one user (several: 409 conflict, none: 404 not_found); in 1.1 a list of the users and the leads (type contact) with it, oldest first; from 1.2 users only; no match gives total_count 0. ' +
    'tag_id or segment_id (not both: 400 bad_request) lists the users holding it, in the order they got it; created_since (days), sort and order as described on each parameter.',
  tag: 'Users',
  query: openObj({ user_id: str(), email: str(), ...customerListQuery, ...pagingQuery }),
  response: {
    status: 200,
    description: 'The users; with user_id (any version) or an email alone in API version 1.0, the one user',
    schema: { anyOf: [userListSchema, userOrLeadSchema] },
  },
  errors: ['parameter_invalid', 'bad_request', 'not_found', 'conflict'],
  examples: { query: { user_id: '', email: '', tag_id: '17513', segment_id: '', created_since: 3650, sort: 'created_at', order: 'desc', page: 1, per_page: 50 } },
  handler: (input) => {
    const { user_id, email } = input.query;
    const filter = listFilterOf(input.query);
    const now = input.store.now();
    if (user_id !== undefined) return { body: customerJson(input.app, userByUserId(input.app, user_id, email, input.query, input.warnings)) };
    const users = email === undefined ? filteredCustomers(input.app, 'user', filter, now) : refine(customersWithEmail(input.app, emailListTypes(input.version), email), filter, now);
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
  examples: { body: customerBody({ user_id: 'ada-1', email: 'ada@example.com', remote_created_at: 1690000000 }) },
  handler: ({ store, app, body }) => ({ body: customerView(app, upsertUser(store, app, body)) }),
});

export const USER_ROUTES = [getUser, listUsers, upsertUserRoute];
