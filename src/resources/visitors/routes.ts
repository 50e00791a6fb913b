import { convertBodySchema, leadSchema, userOrLeadSchema, visitorBodySchema, visitorSchema } from '../customers/shapes.js';
import { idParams } from '../../schemas/fields.js';
import { anyOf, openObj, str } from '../../schemas/json-schema.js';
import { deleteVisitor } from '../cross-resource/deletion.js';
import { convertVisitor, updateVisitor, visitorById, visitorByUserId } from './rules.js';
import { customerView } from '../customers/view.js';
import { appRoute, type AppRoute } from '../../http/route.js';
import { VISITOR, VISITOR_USER_ID } from '../demo-examples.js';

const visitorOrLead = anyOf(visitorSchema, leadSchema);

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
    examples: { body: { user_id: VISITOR_USER_ID, name: 'Curious Visitor', custom_attributes: { plan_tier: 'free' } } },
    handler: ({ store, app, body }) => ({ body: customerView(app, updateVisitor(store, app, body)) }),
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
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'conflict', 'unique_user_constraint', 'unsupported_media_type', 'request_too_large'],
  examples: { body: { type: 'user', visitor: { user_id: VISITOR_USER_ID }, user: { email: 'visitor.converted@example.com' } } },
  handler: ({ store, app, body }) => ({ body: customerView(app, convertVisitor(store, app, body)) }),
});

export const getVisitor = appRoute({
  method: 'GET',
  path: '/visitors/{id}',
  operationId: 'getVisitor',
  summary: 'Fetch a visitor by id',
  description: 'A visitor by its server-assigned id; a lead or user id is not found here.',
  tag: 'Visitors',
  params: idParams(),
  response: { status: 200, description: 'The visitor', schema: visitorSchema },
  errors: ['not_found'],
  examples: { params: { id: VISITOR } },
  handler: ({ app, params }) => ({ body: customerView(app, visitorById(app, params.id ?? '')) }),
});

export const findVisitor = appRoute({
  method: 'GET',
  path: '/visitors',
  operationId: 'findVisitor',
  summary: 'Fetch a visitor by user_id',
  description: 'A visitor by the user_id the JavaScript widget gives it (Intercom(\'getVisitorId\')); the user_id is required.',
  tag: 'Visitors',
  query: openObj({ user_id: str() }),
  response: { status: 200, description: 'The visitor', schema: visitorSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found'],
  examples: { query: { user_id: VISITOR_USER_ID } },
  handler: ({ app, query }) => ({ body: customerView(app, visitorByUserId(app, query.user_id)) }),
});

export const deleteVisitorRoute = appRoute({
  method: 'DELETE',
  path: '/visitors/{id}',
  operationId: 'deleteVisitor',
  summary: 'Delete a visitor',
  description: 'A real delete: the visitor leaves every read (a later GET or convert of it is a 404). Answers the visitor as it was.',
  tag: 'Visitors',
  params: idParams(),
  response: { status: 200, description: 'The deleted visitor', schema: visitorSchema },
  errors: ['not_found'],
  examples: { params: { id: '5714dd359a3fd4713600000a' } },
  handler: ({ app, params }) => ({ body: customerView(app, deleteVisitor(app, params.id ?? '')) }),
});

export const updateVisitorById = appRoute({
  method: 'PUT',
  path: '/visitors/{id}',
  operationId: 'updateVisitorById',
  summary: 'Update a visitor by id',
  description:
    'The update of PUT /visitors with the visitor named in the path, as the Ruby client sends it (an id or user_id in the body is ignored). An email in the body converts it into a lead.',
  tag: 'Visitors',
  params: idParams(),
  body: visitorBodySchema,
  response: { status: 200, description: 'The visitor, or the lead it became', schema: visitorOrLead },
  errors: ['parameter_invalid', 'bad_request', 'not_found', 'unsupported_media_type', 'request_too_large'],
  examples: { params: { id: VISITOR }, body: { name: 'Curious Visitor', custom_attributes: { plan_tier: 'free' } } },
  handler: ({ store, app, params, body }) => ({ body: customerView(app, updateVisitor(store, app, body, params.id ?? '')) }),
});

export const VISITOR_ROUTES = [
  getVisitor,
  findVisitor,
  deleteVisitorRoute,
  updateVisitorById,
  update('PUT', 'updateVisitor', ''),
  update('POST', 'updateVisitorByPost', 'The same operation as PUT, as the Node client sends it.'),
  convertVisitorRoute,
];
