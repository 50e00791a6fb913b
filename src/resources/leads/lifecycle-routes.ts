// Leads beyond POST /contacts and the reads: delete, update by PUT, convert into a user.

import { idParams } from '../../schemas/fields.js';
import { leadBodySchema, leadSchema, userSchema } from '../customers/shapes.js';
import { convertLeadBodySchema } from './shapes.js';
import { openObj, str } from '../../schemas/json-schema.js';
import { deleteLead } from '../cross-resource/deletion.js';
import { convertLead, updateLead } from './rules.js';
import { customerView } from '../customers/view.js';
import { appRoute } from '../../http/route.js';
import { LEAD, LEAD_USER_ID, leadUpdate, SECOND_LEAD } from '../demo-examples.js';

const DELETE_RULES = 'A real delete: the lead leaves every read (GET /contacts/{id} is a 404 afterwards). Its conversations stay and still name its id. Answers the full lead as it was.';

export const deleteLeadById = appRoute({
  method: 'DELETE',
  path: '/contacts/{id}',
  operationId: 'deleteLeadById',
  summary: 'Delete a lead by id',
  description: DELETE_RULES,
  tag: 'Leads',
  params: idParams(),
  response: { status: 200, description: 'The deleted lead', schema: leadSchema },
  errors: ['not_found'],
  examples: { params: { id: SECOND_LEAD } },
  handler: ({ app, params }) => ({ body: customerView(app, deleteLead(app, { id: params.id ?? '' })) }),
});

export const deleteLeadByKeys = appRoute({
  method: 'DELETE',
  path: '/contacts',
  operationId: 'deleteLead',
  summary: 'Delete a lead by id or user_id',
  description: `${DELETE_RULES} The lead is named by id or user_id; neither is a 400.`,
  tag: 'Leads',
  query: openObj({ id: str(), user_id: str() }),
  response: { status: 200, description: 'The deleted lead', schema: leadSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found'],
  examples: { query: { id: '', user_id: 'b1c2d3e4-0000-4000-8000-00000000c0de' } },
  handler: ({ app, query }) => ({ body: customerView(app, deleteLead(app, query)) }),
});

const UPDATE_RULES = 'The update of POST /contacts with an id, as the Ruby, Python and PHP clients send it; it never creates a lead. signed_up_at and new_session are rejected: leads have neither.';
const WRITE_ERRORS = ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'unsupported_media_type', 'request_too_large'] as const;

export const updateLeadById = appRoute({
  method: 'PUT',
  path: '/contacts/{id}',
  operationId: 'updateLeadById',
  summary: 'Update a lead by id',
  description: `${UPDATE_RULES} An id or user_id in the body is ignored: the path names the lead.`,
  tag: 'Leads',
  params: idParams(),
  body: leadBodySchema,
  response: { status: 200, description: 'The lead', schema: leadSchema },
  errors: WRITE_ERRORS,
  examples: { params: { id: LEAD }, body: leadUpdate },
  handler: ({ store, app, params, body }) => ({ body: customerView(app, updateLead(store, app, { id: params.id ?? '' }, body)) }),
});

export const updateLeadByBody = appRoute({
  method: 'PUT',
  path: '/contacts',
  operationId: 'updateLead',
  summary: 'Update a lead named in the body',
  description: `${UPDATE_RULES} The body names the lead by id or user_id; neither is a 400.`,
  tag: 'Leads',
  body: leadBodySchema,
  response: { status: 200, description: 'The lead', schema: leadSchema },
  errors: WRITE_ERRORS,
  examples: { body: { id: LEAD, ...leadUpdate } },
  handler: ({ store, app, body }) => ({ body: customerView(app, updateLead(store, app, body, body)) }),
});

export const convertLeadRoute = appRoute({
  method: 'POST',
  path: '/contacts/convert',
  operationId: 'convertLead',
  summary: 'Convert a lead into a user',
  description:
    'The user that `user` names (id, then user_id, then email; an archived user comes back) absorbs the lead: the user\'s values win, the lead fills only what the user lacks and never its id, user_id or email; companies, tags and segments join; the lead is deleted. When no user matches, the lead becomes that user: same id, the given user_id (its UUID dropped), the given email or else its own. A rejected request changes nothing.',
  tag: 'Leads',
  body: convertLeadBodySchema,
  response: { status: 200, description: 'The user', schema: userSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'conflict', 'unique_user_constraint', 'unsupported_media_type', 'request_too_large'],
  examples: { body: { contact: { user_id: LEAD_USER_ID }, user: { email: 'lena.converted@example.com' } } },
  handler: ({ store, app, body }) => ({ body: customerView(app, convertLead(store, app, body)) }),
});

export const LEAD_LIFECYCLE_ROUTES = [convertLeadRoute, deleteLeadById, deleteLeadByKeys, updateLeadById, updateLeadByBody];
