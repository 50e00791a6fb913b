// Customer search (surface §16, Unstable only): the request body and the customer.list answer,
// whose pages.next is a cursor object rather than a URL (Ruby's SearchCollectionProxy re-posts it).

import { DEFAULT_SEARCH_PER_PAGE, MAX_GROUP_DEPTH, MAX_GROUP_SIZE, MAX_SEARCH_PER_PAGE, SEARCH_OPERATORS } from './search.js';
import { userOrLeadSchema } from './shapes.js';
import { arr, constant, int, nullable, obj, oneOfStrings, openObj, str } from '../../schemas/json-schema.js';

export const searchBodySchema = openObj(
  {
    query: {
      type: 'object',
      description:
        `A filter {field, operator, value} (operators ${SEARCH_OPERATORS.join(' ')}; field: a customer field, role (user or lead), tag_id, segment_id, custom_attributes.<name> or location_data.<field>) ` +
        `or a group {operator: AND|OR, value: [queries]} of 1 to ${MAX_GROUP_SIZE}, nested at most ${MAX_GROUP_DEPTH} deep.`,
    },
    sort: obj({ field: str({ description: 'a field a filter may name' }), order: oneOfStrings(['ascending', 'descending'], { description: 'default ascending; nulls last either way' }) }, ['field']),
    pagination: obj({
      per_page: int({ minimum: 1, maximum: MAX_SEARCH_PER_PAGE, default: DEFAULT_SEARCH_PER_PAGE }),
      starting_after: nullable(str({ description: 'pages.next.starting_after of the page before' })),
    }),
  },
  ['query'],
);

const cursorSchema = obj({ page: int({ minimum: 2 }), starting_after: str() }, ['page', 'starting_after']);

export const customerListSchema = obj(
  {
    type: constant('customer.list'),
    total_count: int({ minimum: 0 }),
    customers: arr(userOrLeadSchema, { maxItems: MAX_SEARCH_PER_PAGE }),
    pages: obj(
      { type: constant('pages'), page: int({ minimum: 1 }), per_page: int({ minimum: 1 }), total_pages: int({ minimum: 0 }), next: nullable(cursorSchema) },
      ['type', 'page', 'per_page', 'total_pages', 'next'],
    ),
  },
  ['type', 'total_count', 'customers', 'pages'],
);
