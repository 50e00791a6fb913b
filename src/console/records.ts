// The console's Records view over the control plane: customers searched by email, user_id, tag
// (each through its index) or name (a bounded scan), one customer's page, companies with their
// members, tags and segments with their counts. Records are shown as stored (the fixture format).

import { notFound } from '../core/errors.js';
import { listingOf, type Listing } from '../core/pagination.js';
import { companySchema, customerSchema } from '../fixtures/schema.js';
import { adminRoute } from '../http/route.js';
import { arr, int, nullable, obj, oneOfStrings, str, type Schema } from '../schemas/json-schema.js';
import type { AppState } from '../state/app-state.js';
import { filteredCustomers } from '../resources/customers/filters.js';
import { companyMembers, customersWithEmail, listCustomers } from '../resources/customers/rules.js';
import { joinedCount, joinedSlice } from '../engine/join-log.js';
import type { Company, Conversation, Customer, CustomerType } from '../engine/types.js';
import { appQuery, CONTROL_TAG, requireApp } from '../admin/target.js';
import { conversationSummary, conversationSummarySchema } from './conversations.js';
import { keysOf, pageOf, pageProps, pageRequest, pagedQuery, type PageRequest } from './paging.js';
import { ACME, ADA, faultFilter } from '../resources/demo-examples.js';
import { customerByUserId } from '../resources/customers/indexes.js';
import { conversationMaps } from '../resources/conversations/indexes.js';
import { tally, tallyKey } from '../resources/counts/tallies.js';

/** A name search reads at most this many customers per request and says where it stopped. */
export const NAME_SCAN_BUDGET = 5000;
/** What one customer's page shows of each of its lists; the totals say how many there are. */
export const DETAIL_LIST_CAP = 100;

const idParam = str({ maxLength: 64 });

export const customerSummarySchema = obj(
  {
    id: str(),
    type: oneOfStrings(['user', 'contact', 'visitor']),
    user_id: nullable(str()),
    email: nullable(str()),
    name: nullable(str()),
    pseudonym: nullable(str()),
    created_at: int(),
    updated_at: int(),
    last_request_at: nullable(int()),
  },
  ['id', 'type', 'user_id', 'email', 'name', 'pseudonym', 'created_at', 'updated_at', 'last_request_at'],
);

export const customerSummary = (c: Customer) => ({
  id: c.id,
  type: c.type,
  user_id: c.user_id,
  email: c.email,
  name: c.name,
  pseudonym: c.pseudonym,
  created_at: c.created_at,
  updated_at: c.updated_at,
  last_request_at: c.last_request_at,
});

const named = (props: Record<string, Schema> = {}) => obj({ id: str(), name: str(), ...props }, ['id', 'name', ...Object.keys(props)]);
const cappedList = (item: Schema) => obj({ total: int({ minimum: 0 }), items: arr(item) }, ['total', 'items']);

interface Matches {
  items: Customer[];
  total: number | null;
  next_offset: number | null;
  scanned: number;
}

/**
 * One page of `listing`. With a predicate (a name, or a tag beside a lookup) the page is found by
 * a scan of at most NAME_SCAN_BUDGET records from `offset`: the total is unknown (null) and
 * next_offset is where the scan stopped, so each request costs at most the budget.
 */
function search(listing: Listing<Customer>, keep: ((c: Customer) => boolean) | undefined, req: PageRequest): Matches {
  if (keep === undefined) {
    const page = pageOf(listing, req);
    return { ...page, scanned: page.items.length };
  }
  const items: Customer[] = [];
  let at = req.offset;
  const stop = Math.min(listing.total, req.offset + NAME_SCAN_BUDGET);
  while (at < stop && items.length < req.limit) {
    const chunk = listing.slice(at, Math.min(stop, at + 500));
    for (const c of chunk) {
      at++;
      if (keep(c)) items.push(c);
      if (items.length === req.limit) break;
    }
  }
  return { items, total: null, next_offset: at < listing.total ? at : null, scanned: at - req.offset };
}

function customerListing(app: AppState, type: CustomerType, q: Record<string, unknown>, now: number): { listing: Listing<Customer>; tagDone: boolean } {
  const ofType = (list: Customer[]) => listingOf(list.filter((c) => c.type === type));
  if (typeof q.user_id === 'string') {
    const c = customerByUserId(app, q.user_id);
    return { listing: ofType(c ? [c] : []), tagDone: false };
  }
  // Oldest first, as every list here: the email's log is in the order its holders took the email.
  if (typeof q.email === 'string') return { listing: customersWithEmail(app, [type], q.email), tagDone: false };
  if (typeof q.tag_id === 'string') return { listing: filteredCustomers(app, type, { tag_id: q.tag_id }, now), tagDone: true };
  return { listing: listCustomers(app, type), tagDone: true };
}

export const searchCustomers = adminRoute({
  method: 'GET',
  path: '/__admin/customers',
  operationId: 'adminSearchCustomers',
  summary: 'Search an app\'s customers',
  description:
    `Users (type=user, the default), leads (contact) or visitors of the app named, oldest first. user_id and email (exact, as stored) and tag_id read their indexes, so total is exact; name (a case-insensitive part of the name) is found by reading at most ${NAME_SCAN_BUDGET} customers per request from offset: total is then null and next_offset says where to go on. Several filters narrow each other. limit is at most 100.`,
  tag: CONTROL_TAG,
  query: pagedQuery({
    type: oneOfStrings(['user', 'contact', 'visitor'], { default: 'user' }),
    email: str({ maxLength: 255 }),
    user_id: str({ maxLength: 255 }),
    name: str({ minLength: 1, maxLength: 255, description: 'A part of the name, any case' }),
    tag_id: idParam,
  }),
  response: {
    status: 200,
    description: 'One page of customers',
    schema: obj(
      { customers: arr(customerSummarySchema), total: nullable(int({ minimum: 0 })), next_offset: pageProps.next_offset as Schema, scanned: int({ minimum: 0, description: 'Customers read to find this page' }) },
      ['customers', 'total', 'next_offset', 'scanned'],
    ),
  },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { query: { app: 'demo', type: 'user', email: '', user_id: '', name: 'ada', tag_id: '', offset: 0, limit: 50 } },
  handler: (input) => {
    const app = requireApp(input);
    const q = input.query;
    const type = (typeof q.type === 'string' ? q.type : 'user') as CustomerType;
    const { listing, tagDone } = customerListing(app, type, q, input.store.now());
    const name = typeof q.name === 'string' ? q.name.toLowerCase() : undefined;
    const tag = !tagDone && typeof q.tag_id === 'string' ? q.tag_id : undefined;
    const keep =
      name === undefined && tag === undefined
        ? undefined
        : (c: Customer) => (name === undefined || (c.name ?? '').toLowerCase().includes(name)) && (tag === undefined || c.tags.includes(tag));
    const found = search(listing, keep, pageRequest(q));
    return { body: { customers: found.items.map(customerSummary), total: found.total, next_offset: found.next_offset, scanned: found.scanned } };
  },
});

function namesOf(ids: readonly string[], read: (id: string) => { id: string; name: string } | undefined) {
  const items = [];
  for (const id of ids.slice(0, DETAIL_LIST_CAP)) {
    const r = read(id);
    if (r) items.push({ id: r.id, name: r.name });
  }
  return { total: ids.length, items };
}

export const getCustomer = adminRoute({
  method: 'GET',
  path: '/__admin/customers/{id}',
  operationId: 'adminGetCustomer',
  summary: 'One customer with its companies, tags, segments and conversations',
  description: `The customer as stored (its attributes and custom attributes) with the names of its companies, tags and segments and its conversations, most recent first; each list shows at most ${DETAIL_LIST_CAP}, with its total. Archived users are not found.`,
  tag: CONTROL_TAG,
  params: { id: idParam },
  query: appQuery,
  response: {
    status: 200,
    description: 'The customer',
    schema: obj(
      {
        customer: customerSchema,
        companies: cappedList(named({ company_id: str() })),
        tags: cappedList(named()),
        segments: cappedList(named()),
        conversations: cappedList(conversationSummarySchema),
      },
      ['customer', 'companies', 'tags', 'segments', 'conversations'],
    ),
  },
  errors: ['parameter_not_found', 'not_found', 'unauthorized'],
  examples: { params: { id: ADA }, query: faultFilter },
  handler: (input) => {
    const app = requireApp(input);
    const c = app.data.customers.get(input.params.id ?? '');
    if (!c) throw notFound(`No customer ${String(input.params.id).slice(0, 64)} in app ${app.id}`);
    const companies = [];
    for (const id of c.companies.slice(0, DETAIL_LIST_CAP)) {
      const co = app.data.companies.get(id);
      if (co) companies.push({ id: co.id, name: co.name, company_id: co.company_id });
    }
    const maps = conversationMaps(app);
    const total = joinedCount(maps, c.id);
    // The log holds them in the order the customer joined them: the most recent are at its end.
    const ids = joinedSlice(maps, c.id, Math.max(0, total - DETAIL_LIST_CAP), total, () => true, true).reverse();
    const now = input.store.now();
    return {
      body: {
        customer: c,
        companies: { total: c.companies.length, items: companies },
        tags: namesOf(c.tags, (id) => app.data.tags.get(id)),
        segments: namesOf(c.segments, (id) => app.data.segments.get(id)),
        conversations: { total, items: ids.map((id) => conversationSummary(app, now, app.data.conversations.get(id) as Conversation)) },
      },
    };
  },
});

const companySummarySchema = obj(
  { id: str(), company_id: str(), name: str(), plan: nullable(str()), user_count: int({ minimum: 0 }), created_at: int(), last_request_at: nullable(int()) },
  ['id', 'company_id', 'name', 'plan', 'user_count', 'created_at', 'last_request_at'],
);

/** A company row as GET /__admin/companies answers it (the console types its table from this). */
export const companySummary = (app: AppState, c: Company) => ({
  id: c.id,
  company_id: c.company_id,
  name: c.name,
  plan: c.plan,
  user_count: tally(app, tallyKey.people(c.id)),
  created_at: c.created_at,
  last_request_at: c.last_request_at,
});

export const listCompaniesForConsole = adminRoute({
  method: 'GET',
  path: '/__admin/companies',
  operationId: 'adminListCompanies',
  summary: 'An app\'s companies with their user counts',
  description: 'Every company of the app named, in the order they were stored (companies with no users included, unlike GET /companies), each with its number of users and leads; one page at a time.',
  tag: CONTROL_TAG,
  query: pagedQuery(),
  response: { status: 200, description: 'One page of companies', schema: obj({ companies: arr(companySummarySchema), ...pageProps }, ['companies', 'total', 'next_offset']) },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { query: { app: 'demo', offset: 0, limit: 50 } },
  handler: (input) => {
    const app = requireApp(input);
    const companies = app.data.companies;
    const ids = app.companyOrder.ids(companies);
    const page = pageOf({ total: ids.length, slice: (s, e) => ids.slice(s, e).map((id) => companies.get(id) as Company) }, pageRequest(input.query));
    return { body: { companies: page.items.map((c) => companySummary(app, c)), total: page.total, next_offset: page.next_offset } };
  },
});

export const getCompany = adminRoute({
  method: 'GET',
  path: '/__admin/companies/{id}',
  operationId: 'adminGetCompany',
  summary: 'One company with a page of its members',
  description: 'The company as stored, and one page (offset, limit) of its users and leads in the order they joined.',
  tag: CONTROL_TAG,
  params: { id: idParam },
  query: pagedQuery(),
  response: {
    status: 200,
    description: 'The company',
    schema: obj({ company: companySchema, members: obj({ customers: arr(customerSummarySchema), ...pageProps }, ['customers', 'total', 'next_offset']) }, ['company', 'members']),
  },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { params: { id: ACME }, query: { app: 'demo', offset: 0, limit: 50 } },
  handler: (input) => {
    const app = requireApp(input);
    const company = app.data.companies.get(input.params.id ?? '');
    if (!company) throw notFound(`No company ${String(input.params.id).slice(0, 64)} in app ${app.id}`);
    const page = pageOf(companyMembers(app, company.id), pageRequest(input.query));
    return { body: { company, members: { customers: page.items.map(customerSummary), total: page.total, next_offset: page.next_offset } } };
  },
});

export const listTagsForConsole = adminRoute({
  method: 'GET',
  path: '/__admin/tags',
  operationId: 'adminListTags',
  summary: 'An app\'s tags with how many users, leads and companies hold each',
  description: 'Every tag of the app named, in the order they were made, with its holders counted from the tallies (users and leads together, companies); one page at a time.',
  tag: CONTROL_TAG,
  query: pagedQuery(),
  response: {
    status: 200,
    description: 'One page of tags',
    schema: obj({ tags: arr(named({ people: int({ minimum: 0 }), companies: int({ minimum: 0 }) })), ...pageProps }, ['tags', 'total', 'next_offset']),
  },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { query: { app: 'demo', offset: 0, limit: 50 } },
  handler: (input) => {
    const app = requireApp(input);
    const page = pageOf(keysOf(app.data.tags), pageRequest(input.query));
    const tags = page.items.map((t) => ({ id: t.id, name: t.name, people: tally(app, tallyKey.tag('user', t.id)), companies: tally(app, tallyKey.tag('company', t.id)) }));
    return { body: { tags, total: page.total, next_offset: page.next_offset } };
  },
});

export const listSegmentsForConsole = adminRoute({
  method: 'GET',
  path: '/__admin/segments',
  operationId: 'adminListSegments',
  summary: 'An app\'s segments with their member counts',
  description: 'Every segment of the app named with the kind of record it groups and how many it holds (users and leads, or companies); one page at a time.',
  tag: CONTROL_TAG,
  query: pagedQuery(),
  response: {
    status: 200,
    description: 'One page of segments',
    schema: obj({ segments: arr(named({ person_type: oneOfStrings(['user', 'company']), count: int({ minimum: 0 }) })), ...pageProps }, ['segments', 'total', 'next_offset']),
  },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { query: { app: 'demo', offset: 0, limit: 50 } },
  handler: (input) => {
    const app = requireApp(input);
    const page = pageOf(keysOf(app.data.segments), pageRequest(input.query));
    const segments = page.items.map((s) => ({
      id: s.id,
      name: s.name,
      person_type: s.person_type,
      count: tally(app, tallyKey.segment(s.person_type, s.id)),
    }));
    return { body: { segments, total: page.total, next_offset: page.next_offset } };
  },
});

export const RECORD_ROUTES = [searchCustomers, getCustomer, listCompaniesForConsole, getCompany, listTagsForConsole, listSegmentsForConsole];
