import { apiError } from '../core/errors.js';
import { pageRequestOf, paginate } from '../core/pagination.js';
import { companyBodySchema, companySchema } from '../schemas/company.js';
import { pagingQuery, userListSchema } from '../schemas/customer.js';
import { openObj, str, type Schema } from '../schemas/json-schema.js';
import { requireCompany, requireCompanyByCompanyId, upsertCompany, type CompanyInput } from '../store/companies.js';
import { companyMembers } from '../store/customers.js';
import type { Company } from '../store/types.js';
import { companyView } from '../views/company.js';
import { userListView } from '../views/customer.js';
import { appRoute, type AppInput } from './route.js';

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
  params: { id: str({ description: 'The id assigned by the server' }) },
  response: { status: 200, description: 'The company', schema: companySchema },
  errors: ['company_not_found'],
  handler: ({ app, params }) => ({ body: companyView(app, requireCompany(app, params.id ?? '')) }),
});

export const listCompanyUsers = appRoute({
  method: 'GET',
  path: '/companies/{id}/users',
  operationId: 'listCompanyUsers',
  summary: 'List the users and leads of a company',
  description: MEMBERS_RULES,
  tag: 'Companies',
  params: { id: str({ description: 'The id assigned by the server' }) },
  query: openObj(pagingQuery),
  response: { status: 200, description: 'The users and leads', schema: userListSchema },
  errors: ['company_not_found', 'parameter_invalid'],
  handler: (input) => ({ body: membersPage(input, requireCompany(input.app, input.params.id ?? '')) }),
});

const companyOrUsers: Schema = { anyOf: [companySchema, userListSchema] };

export const findCompany = appRoute({
  method: 'GET',
  path: '/companies',
  operationId: 'findCompany',
  summary: 'Find a company by company_id, or list its users',
  description: `With type=user: the company's user list. ${MEMBERS_RULES} Without type: the company itself. Any other type is a 400.`,
  tag: 'Companies',
  query: openObj({ company_id: str(), type: str({ description: 'user, or absent' }), ...pagingQuery }, ['company_id']),
  response: { status: 200, description: 'The company, or its users with type=user', schema: companyOrUsers },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'company_not_found'],
  handler: (input) => {
    const { company_id: companyId, type } = input.query as { company_id: string; type?: string };
    if (type !== undefined && type !== 'user') throw apiError('bad_request', "bad 'type' parameter", 'type');
    const company = requireCompanyByCompanyId(input.app, companyId);
    return { body: type === 'user' ? membersPage(input, company) : companyView(input.app, company) };
  },
});

export const upsertCompanyRoute = appRoute({
  method: 'POST',
  path: '/companies',
  operationId: 'upsertCompany',
  summary: 'Create or update a company',
  description: 'Created when company_id is new, updated otherwise; only the members sent change. Custom attributes follow the customer rules; a rejected request changes nothing.',
  tag: 'Companies',
  body: companyBodySchema,
  response: { status: 200, description: 'The company', schema: companySchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'unsupported_media_type', 'request_too_large'],
  handler: ({ store, app, body }) => ({ body: companyView(app, upsertCompany(store, app, body as unknown as CompanyInput)) }),
});

export const COMPANY_ROUTES = [findCompany, upsertCompanyRoute, getCompany, listCompanyUsers];
