import { notFound } from '../core/errors.js';
import { customerSchema } from '../schemas/customer.js';
import { str } from '../schemas/json-schema.js';
import { customerView } from '../views/customer.js';
import { appRoute } from './route.js';

export const getUser = appRoute({
  method: 'GET',
  path: '/users/{id}',
  operationId: 'getUser',
  summary: 'Fetch a user by id',
  description: 'Read-back of a user or lead by its server-assigned id. A visitor is not found here.',
  tag: 'Users',
  params: { id: str({ description: 'The id assigned by the server' }) },
  response: { status: 200, description: 'The user', schema: customerSchema },
  errors: ['not_found'],
  handler: ({ app, params }) => {
    const c = app.data.customers.get(params.id ?? '');
    if (!c || c.type === 'visitor') throw notFound('User Not Found');
    return { body: customerView(app, c) };
  },
});

export const USER_ROUTES = [getUser];
