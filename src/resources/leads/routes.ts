import { paginate, scrollablePageRequestOf } from '../../core/pagination.js';
import { idParams } from '../../schemas/fields.js';
import { contactListSchema, leadBodySchema, leadSchema, pagingQuery } from '../customers/shapes.js';
import { openObj, str } from '../../schemas/json-schema.js';
import { labelQuery } from '../customers/list-filters.js';
import { filteredCustomers, listFilterOf, refine } from '../customers/filters.js';
import { listCustomers, requireCustomer, upsertLead } from '../customers/rules.js';
import { contactListView, customerView } from '../customers/view.js';
import { customerJson } from '../customers/view-json.js';
import { leadByPhone, leadByUserId } from './rules.js';
import { appRoute } from '../../http/route.js';
import { LEAD } from '../demo-examples.js';

export const upsertLeadRoute = appRoute({
  method: 'POST',
  path: '/contacts',
  operationId: 'upsertLead',
  summary: 'Create a lead (or update one)',
  description:
    'Creates a lead (type contact, anonymous, server-assigned UUID user_id, generated pseudonym); no body at all is valid. An id or user_id of an existing lead updates that lead instead; one that names no lead is a 404. signed_up_at and new_session are rejected: leads have neither.',
  tag: 'Leads',
  body: leadBodySchema,
  response: { status: 200, description: 'The lead', schema: leadSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'unsupported_media_type', 'request_too_large'],
  examples: {
    body: { email: 'lena.lead@example.com', name: 'Lena Lead', phone: '+44 20 7946 0001', last_request_at: 1700003600, last_seen_ip: '81.2.69.142', custom_attributes: { plan_tier: 'free' }, companies: [{ company_id: 'acme' }] },
  },
  handler: ({ store, app, body }) => ({ body: customerView(app, upsertLead(store, app, body)) }),
});

export const getLead = appRoute({
  method: 'GET',
  path: '/contacts/{id}',
  operationId: 'getLead',
  summary: 'Fetch a lead by id',
  description: 'Read-back of a lead by its server-assigned id, including a visitor converted into a lead.',
  tag: 'Leads',
  params: idParams(),
  response: { status: 200, description: 'The lead', schema: leadSchema },
  errors: ['not_found'],
  examples: { params: { id: LEAD } },
  handler: ({ app, params }) => ({ body: customerJson(app, requireCustomer(app, params.id ?? '', ['contact'], 'Lead Not Found')) }),
});

export const listLeads = appRoute({
  method: 'GET',
  path: '/contacts',
  operationId: 'listLeads',
  summary: 'List leads, or find them by email, user_id or phone',
  description:
    'Leads oldest first, paged like GET /users; email (case-insensitive) filters the list (no match: an empty list). user_id answers that one lead, not a list (404 when none); phone (compared exactly as stored, API version 1.2 on) answers the one lead with it ("leads can be looked up individually with a phone parameter"; none: 404; several: the most recently created, with an ambiguous_lookup warning). Lookup order: user_id, then phone, then email; list parameters beside user_id or phone are ignored, with a warning. tag_id or segment_id (not both: 400 bad_request) lists the leads holding it, in the order they got it.',
  tag: 'Leads',
  query: openObj({ email: str(), user_id: str(), phone: str(), ...labelQuery, ...pagingQuery }),
  response: { status: 200, description: 'The leads, or the one lead a user_id or phone names', schema: { anyOf: [contactListSchema, leadSchema] } },
  errors: ['parameter_invalid', 'bad_request', 'not_found'],
  examples: { query: { email: 'lead@example.com', user_id: '', phone: '', tag_id: '', segment_id: '', page: 1, per_page: 50 } },
  handler: (input) => {
    const { email, user_id, phone } = input.query;
    if (user_id !== undefined || phone !== undefined) {
      input.warnings.unread(input.query, LIST_ONLY, user_id !== undefined ? 'a lookup by user_id' : 'a lookup by phone');
      return { body: customerJson(input.app, user_id !== undefined ? leadByUserId(input.app, user_id) : leadByPhone(input.app, phone as string)) };
    }
    const filter = listFilterOf(input.query);
    const now = input.store.now();
    const leads = email === undefined ? filteredCustomers(input.app, 'contact', filter, now) : refine(listCustomers(input.app, 'contact', { email }), filter, now);
    const page = paginate(leads, scrollablePageRequestOf(input.query), input);
    return { body: contactListView(input.app, leads.total, page.items, page.pages) };
  },
});

/** Parameters of the list that a lookup answering one lead does not read. */
const LIST_ONLY = [...Object.keys(labelQuery), ...Object.keys(pagingQuery)];

export const CONTACT_ROUTES = [upsertLeadRoute, getLead, listLeads];
