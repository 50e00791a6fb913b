import { dataAttributeListSchema } from './shapes.js';
import { oneOfStrings, openObj } from '../../schemas/json-schema.js';
import { companyDataAttributeListView, dataAttributeListView } from './view.js';
import { appRoute } from '../../http/route.js';

export const listCustomerDataAttributes = appRoute({
  method: 'GET',
  path: '/data_attributes/customer',
  operationId: 'listCustomerDataAttributes',
  summary: 'List customer data attributes',
  description:
    'The built-in attributes (custom false), then the app\'s custom ones (custom true, full_name custom_attributes.<name>), including those registered on first write. Archived ones only with include_archived=true.',
  tag: 'Data attributes',
  query: openObj({ include_archived: oneOfStrings(['true', 'false'], { default: 'false' }) }),
  response: { status: 200, description: 'The data attribute list', schema: dataAttributeListSchema },
  errors: ['parameter_invalid'],
  versions: { until: '1.3' },
  examples: { query: { include_archived: 'true' } },
  handler: ({ app, query }) => ({ body: dataAttributeListView(app, query.include_archived === 'true') }),
});

export const listCompanyDataAttributes = appRoute({
  method: 'GET',
  path: '/data_attributes/company',
  operationId: 'listCompanyDataAttributes',
  summary: 'List company data attributes',
  description:
    'The built-in company attributes (custom false: name, company_id, last_request_at, remote_created_at, user_count, session_count, plan.name, monthly_spend, size, industry, website, id, created_at, updated_at, plan.id), then the app\'s custom company attributes (custom true, full_name custom_attributes.<name>), each registered with a type inferred from its value the first time a company carries it (POST /companies, or companies[] of a customer write). Archived ones only with include_archived=true.',
  tag: 'Data attributes',
  query: openObj({ include_archived: oneOfStrings(['true', 'false'], { default: 'false' }) }),
  response: { status: 200, description: 'The data attribute list', schema: dataAttributeListSchema },
  errors: ['parameter_invalid'],
  versions: { until: '1.3' },
  examples: { query: { include_archived: 'true' } },
  handler: ({ app, query }) => ({ body: companyDataAttributeListView(app, query.include_archived === 'true') }),
});

const VIEWS = { customer: dataAttributeListView, company: companyDataAttributeListView };

export const listDataAttributes = appRoute({
  method: 'GET',
  path: '/data_attributes',
  operationId: 'listDataAttributes',
  summary: 'List the data attributes of a model (API version 1.4)',
  description:
    'What GET /data_attributes/customer (model=customer) or /data_attributes/company (model=company) list in 1.0–1.3, each item carrying its model; those paths answer 400 intercom_version_invalid in 1.4, and this one in 1.0–1.3. Archived ones only with include_archived=true.',
  tag: 'Data attributes',
  query: openObj({ model: oneOfStrings(['customer', 'company']), include_archived: oneOfStrings(['true', 'false'], { default: 'false' }) }, ['model']),
  response: { status: 200, description: 'The data attribute list', schema: dataAttributeListSchema },
  errors: ['parameter_not_found', 'parameter_invalid'],
  versions: { since: '1.4' },
  examples: { query: { model: 'customer', include_archived: 'true' } },
  handler: ({ app, query }) => {
    const model = query.model as keyof typeof VIEWS;
    const list = VIEWS[model](app, query.include_archived === 'true');
    return { body: { ...list, data_attributes: list.data_attributes.map((a) => ({ ...a, model })) } };
  },
});

export const DATA_ATTRIBUTE_ROUTES = [listCustomerDataAttributes, listCompanyDataAttributes, listDataAttributes];
