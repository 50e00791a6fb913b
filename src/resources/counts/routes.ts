import { countQuerySchema, countResponseSchema } from './shapes.js';
import { conversationCounts } from './conversation-counts.js';
import { conversationCountsView } from './conversation-view.js';
import { counts, type CountQuery } from './rules.js';
import { countsView } from './view.js';
import { appRoute } from '../../http/route.js';

export const getCounts = appRoute({
  method: 'GET',
  path: '/counts',
  operationId: 'getCounts',
  summary: 'Counts of companies and users by segment, tag and user',
  description:
    'No parameters: the app totals (count.hash). type=company&count=segment|tag|user: per-segment, per-tag and per-company counts; tag counts are paged (per_page default 50, max 60) with pages at pages.pages, the others have an empty pages. ' +
    'type=user&count=segment|tag: users and leads per user segment and per tag (every tag, zero included). ' +
    'type=conversation: open (snoozed included), closed, assigned and unassigned (of the open ones); with count=admin, each admin\'s open and closed conversations (every admin, zeros included). Counts follow every write. A bad type or count value answers 400 bad_request.',
  tag: 'Counts',
  query: countQuerySchema,
  response: { status: 200, description: 'The count object or the app totals', schema: countResponseSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request'],
  examples: { query: { type: 'company', count: 'tag', per_page: 50, page: 1 } },
  handler: ({ app, query, origin, path }) => {
    if (query.type === 'conversation') return { body: conversationCountsView(conversationCounts(app, query)) };
    return { body: countsView(counts(app, query as CountQuery, { origin, path, query })) };
  },
});

export const COUNT_ROUTES = [getCounts];
