import { apiError, badChoice, missing, notFound } from '../../core/errors.js';
import { idParams } from '../../schemas/fields.js';
import { pageRequestOf, paginate, scrollablePageRequestOf } from '../../core/pagination.js';
import { companyBodySchema, companySchema } from './shapes.js';
import { labelQuery, orderQuery } from '../customers/list-filters.js';
import { companyListSchema } from '../segments/shapes.js';
import { companyByName, listCompanies, type CompanyFilter } from './list.js';
import { pagingQuery, userListSchema } from '../customers/shapes.js';
import { anyOf, openObj, str } from '../../schemas/json-schema.js';
import { requireCompany, requireCompanyByCompanyId, upsertCompany } from './rules.js';
import { companyMembers } from '../customers/rules.js';
import type { Company } from '../../engine/types.js';
import { companyView } from './view.js';
import { companyListView } from '../segments/view.js';
import { userListView } from '../customers/view.js';
import { appRoute, type AppInput } from '../../http/route.js';
import { ACME } from '../demo-examples.js';

function membersPage(input: AppInput, company: Company) {
  const members = companyMembers(input.app, company.id);
  const page = paginate(members, pageRequestOf(input.query), input);
  return userListView(input.app, members.total, page.items, page.pages);
}

const MEMBERS_RULES = 'Users and leads (type contact) in the order they joined, paged: per_page default 50, max 60; `next` is an absolute URL, absent on the last page.';

export const getCompany = appRoute({
  method: 'GET',
  path: '/companies/{id}',
  operationId: 'getCompany',
  summary: 'Fetch a company by id',
  description: 'Read-back of a company by its server-assigned id; user_count is live.',
  tag: 'Companies',
  params: idParams(),
  response: { status: 200, description: 'The company', schema: companySchema },
  errors: ['company_not_found'],
  examples: { params: { id: ACME } },
  handler: ({ app, params }) => ({ body: companyView(app, requireCompany(app, params.id ?? '')) }),
});

export const listCompanyUsers = appRoute({
  method: 'GET',
  path: '/companies/{id}/users',
  operationId: 'listCompanyUsers',
  summary: 'List the users and leads of a company',
  description: MEMBERS_RULES,
  tag: 'Companies',
  params: idParams(),
  query: openObj(pagingQuery),
  response: { status: 200, description: 'The users and leads', schema: userListSchema },
  errors: ['company_not_found', 'parameter_invalid'],
  examples: { params: { id: ACME }, query: { page: 1, per_page: 50 } },
  handler: (input) => ({ body: membersPage(input, requireCompany(input.app, input.params.id ?? '')) }),
});

const companyAnswer = anyOf(companySchema, userListSchema, companyListSchema);

/** The list's own parameters mean nothing beside a lookup: say so rather than ignore them. */
function refuseListParameters(query: Record<string, unknown>, lookup: string, single: boolean): void {
  for (const key of ['tag_id', 'segment_id', 'order']) {
    if (query[key] !== undefined) throw apiError('bad_request', `${key} filters the company list; it cannot be combined with ${lookup}.`, key);
  }
  // One company is not a list: paging it would be a parameter silently ignored.
  for (const key of single ? ['page', 'per_page'] : []) {
    if (query[key] !== undefined) throw apiError('bad_request', `${key} pages a list; ${lookup} answers one company (add type=user with company_id for its users).`, key);
  }
}

function companyList(input: AppInput) {
  const companies = listCompanies(input.app, input.query as CompanyFilter);
  const page = paginate(companies, scrollablePageRequestOf(input.query), input);
  return companyListView(input.app, companies.total, page.items, page.pages);
}

export const findCompany = appRoute({
  method: 'GET',
  path: '/companies',
  operationId: 'findCompany',
  summary: 'List companies, find one by company_id or name, or list its users',
  description:
    `With company_id: the company; with company_id and type=user (or users, the Java client's plural): its user list (${MEMBERS_RULES}); another type is a 400, type without company_id a 400 parameter_not_found. ` +
    'Else with name: the company of that exact name (several: the most recently updated), none: 404 company_not_found. ' +
    'Else the company list: companies with at least one user or lead, by last_request_at newest first (order=asc reverses; nulls last), paged; tag_id or segment_id (not both: 400 bad_request) keeps the companies holding it. ' +
    'tag_id, segment_id and order beside company_id or name: 400 bad_request.',
  tag: 'Companies',
  query: openObj({ company_id: str(), type: str({ description: 'user (or users), with company_id' }), name: str({ description: 'the exact company name' }), ...labelQuery, ...orderQuery, ...pagingQuery }),
  response: { status: 200, description: 'The company, its users with type=user, or the company list', schema: companyAnswer },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'company_not_found'],
  examples: { query: { company_id: '', type: '', name: '', tag_id: '17516', segment_id: '', order: 'desc', page: 1, per_page: 50 } },
  handler: (input) => {
    const { company_id: companyId, type, name } = input.query;
    if (companyId === undefined) {
      if (type !== undefined) throw missing('company_id', 'company_id is a required parameter with type.');
      if (name === undefined) return { body: companyList(input) };
      refuseListParameters(input.query, 'name', true);
      return { body: companyView(input.app, companyByName(input.app, name)) };
    }
    refuseListParameters(input.query, 'company_id', type === undefined);
    if (type !== undefined && type !== 'user' && type !== 'users') throw badChoice('type', ['user', 'users'], 'with company_id ');
    const company = requireCompanyByCompanyId(input.app, companyId);
    return { body: type === undefined ? companyView(input.app, company) : membersPage(input, company) };
  },
});

/** A 2.x-only operation (python-intercom's companies.delete): v1 answers as for a path it does not have. */
export const deleteCompany = appRoute({
  method: 'DELETE',
  path: '/companies/{id}',
  operationId: 'deleteCompany',
  summary: 'Not in API 1.x (always 404)',
  description:
    'python-intercom\'s companies.delete sends this, but companies cannot be deleted in the v1 API (2.x added it): the answer is the unknown-path 404 not_found "The requested resource does not exist; check your path and try again", and nothing changes.',
  tag: 'Companies',
  params: idParams(),
  response: { status: 200, description: 'Never answered', schema: companySchema },
  errors: ['not_found'],
  examples: { params: { id: ACME }, status: 404 },
  handler: () => {
    throw notFound('The requested resource does not exist; check your path and try again');
  },
});

export const upsertCompanyRoute = appRoute({
  method: 'POST',
  path: '/companies',
  operationId: 'upsertCompany',
  summary: 'Create or update a company',
  description: 'Created when company_id is new, updated otherwise; only the members sent change. Without company_id, id names the company by its Intercom id; with neither, a name names it (the company of that name, else a new one whose company_id is the name), with a missing_identifier warning (strict mode: 400 parameter_not_found). Custom attributes follow the customer rules; a rejected request changes nothing.',
  tag: 'Companies',
  body: companyBodySchema,
  response: { status: 200, description: 'The company', schema: companySchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'unsupported_media_type', 'request_too_large'],
  examples: {
    body: { company_id: 'acme', name: 'Acme Corp', monthly_spend: 49, plan: 'Paid', size: 85, website: 'https://acme.example.com', industry: 'Manufacturing', remote_created_at: 1690000000, custom_attributes: { region: 'EMEA' } },
  },
  handler: ({ store, app, body }) => ({ body: companyView(app, upsertCompany(store, app, body)) }),
});

export const COMPANY_ROUTES = [findCompany, upsertCompanyRoute, getCompany, deleteCompany, listCompanyUsers];
