// POST /customers/search: the v1-era customer search, served only under Intercom-Version: Unstable.

import { customerListSchema, searchBodySchema } from './search-shapes.js';
import { searchCustomers } from './search.js';
import { customerView } from './view.js';
import { appRoute } from '../../http/route.js';

export const searchCustomersRoute = appRoute({
  method: 'POST',
  path: '/customers/search',
  operationId: 'searchCustomers',
  summary: 'Search users and leads (Intercom-Version: Unstable)',
  description:
    'The users and leads the query matches, oldest first unless sort names a field, paged by pagination.per_page (default 50, max 150) and the cursor pages.next.starting_after. = and != compare as text (null: no value), IN and NIN take an array, < and > a number, ~ !~ ^ $ (contains, does not contain, starts with, ends with) a string, case-insensitive; a list field (tag_id, segment_id) matches when one of its values does (!= and NIN: when none does). Any problem of the query is 400 (parameter_invalid or parameter_not_found) with its path, all at once. Reads every user and lead of the app. Other versions: 400 intercom_version_invalid.',
  tag: 'Users',
  body: searchBodySchema,
  versions: { since: 'Unstable' },
  response: { status: 200, description: 'One page of the matches', schema: customerListSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'unsupported_media_type', 'request_too_large'],
  examples: {
    body: { query: { operator: 'AND', value: [{ field: 'role', operator: '=', value: 'user' }, { field: 'email', operator: '~', value: 'example.com' }] }, sort: { field: 'created_at', order: 'descending' }, pagination: { per_page: 10 } },
  },
  handler: ({ app, body }) => {
    const page = searchCustomers(app, body);
    const next = page.next === undefined ? null : { page: page.page + 1, starting_after: page.next };
    return {
      body: {
        type: 'customer.list' as const,
        total_count: page.total,
        customers: page.customers.map((c) => customerView(app, c)),
        pages: { type: 'pages' as const, page: page.page, per_page: page.perPage, total_pages: page.totalPages, next },
      },
    };
  },
});
