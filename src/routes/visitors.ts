import { convertBodySchema, leadSchema, userOrLeadSchema, visitorBodySchema, visitorSchema } from '../schemas/customer.js';
import type { Schema } from '../schemas/json-schema.js';
import type { CustomerInput } from '../store/customers.js';
import { convertVisitor, updateVisitor, type ConvertInput } from '../store/visitors.js';
import { customerView } from '../views/customer.js';
import { appRoute, type AppRoute } from './route.js';

const visitorOrLead: Schema = { anyOf: [visitorSchema, leadSchema] };

const update = (method: 'PUT' | 'POST', operationId: string, note: string): AppRoute =>
  appRoute({
    method,
    path: '/visitors',
    operationId,
    summary: 'Update a visitor',
    description: `Finds the visitor by user_id or id (an email cannot identify one). An email in the body converts it into a lead: the response is the lead (type contact, same id) and the visitor no longer exists. ${note}`,
    tag: 'Visitors',
    body: visitorBodySchema,
    response: { status: 200, description: 'The visitor, or the lead it became', schema: visitorOrLead },
    errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'unsupported_media_type', 'request_too_large'],
    handler: ({ store, app, body }) => ({ body: customerView(app, updateVisitor(store, app, body as CustomerInput)) }),
  });

export const convertVisitorRoute = appRoute({
  method: 'POST',
  path: '/visitors/convert',
  operationId: 'convertVisitor',
  summary: 'Convert a visitor into a lead or a user',
  description:
    'type lead: the visitor becomes a lead (same id). type user: the visitor is merged into the user that `user` matches (id, then user_id, then email; the user\'s values win and the visitor is removed), or becomes that user when none matches.',
  tag: 'Visitors',
  body: convertBodySchema,
  response: { status: 200, description: 'The lead or user', schema: userOrLeadSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'conflict', 'unsupported_media_type', 'request_too_large'],
  handler: ({ store, app, body }) => ({ body: customerView(app, convertVisitor(store, app, body as unknown as ConvertInput)) }),
});

export const VISITOR_ROUTES = [
  update('PUT', 'updateVisitor', ''),
  update('POST', 'updateVisitorByPost', 'The same operation as PUT, as the Node client sends it.'),
  convertVisitorRoute,
];
