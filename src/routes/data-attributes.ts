import { dataAttributeListSchema } from '../schemas/data-attribute.js';
import { oneOfStrings, openObj } from '../schemas/json-schema.js';
import { dataAttributeListView } from '../views/data-attributes.js';
import { appRoute } from './route.js';

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
  handler: ({ app, query }) => ({ body: dataAttributeListView(app, query.include_archived === 'true') }),
});

export const DATA_ATTRIBUTE_ROUTES = [listCustomerDataAttributes];
