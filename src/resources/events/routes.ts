// POST /events and GET /events (surface E1-E3).

import { apiError, badChoice, missing } from '../../core/errors.js';
import { EVENT_DEFAULT_PER_PAGE, eventBodySchema, eventListOrSummarySchema, eventListQuerySchema } from './shapes.js';
import { cursorOf, eventPage, eventPerson, parseCursor, submitEvent, summariesOf } from './rules.js';
import { eventListView, eventSummaryView } from './view.js';
import { appRoute } from '../../http/route.js';

const TAG = 'Events';

export const submitEventRoute = appRoute({
  method: 'POST',
  path: '/events',
  operationId: 'submitEvent',
  summary: 'Submit a data event',
  description:
    'Records an event about a user (user_id or email) or a lead or user (id, the way leads are named), found in the order id, user_id, email. Answers 202 with no body; the same person, event_name and created_at again is a duplicate: still 202, stored once. metadata keeps its first 10 members in the order sent (text, numbers, _date keys as Unix seconds, rich links {url,value}, monetary amounts {amount,currency}); any other value is a 400. An unknown person is 404 "User Not Found". The app keeps its most recent events up to its cap, the oldest going first.',
  tag: TAG,
  body: eventBodySchema,
  response: { status: 202, description: 'Accepted (no body)' },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'conflict', 'resource_limit_exceeded', 'unsupported_media_type', 'request_too_large'],
  examples: {
    body: {
      event_name: 'placed-order',
      created_at: 1767225600,
      user_id: 'ada-1',
      metadata: { order_date: 1767225600, stripe_invoice: 'inv_3434343434', order_number: { value: '3434-3434', url: 'https://example.org/orders/3434-3434' }, price: { amount: 2999, currency: 'usd' } },
    },
  },
  handler: ({ store, app, body }) => {
    submitEvent(app, body, app.limits.events, store.budgets);
    return { status: 202, body: undefined };
  },
});

export const listEventsRoute = appRoute({
  method: 'GET',
  path: '/events',
  operationId: 'listEvents',
  summary: 'List a person\'s events, or their summary',
  description:
    'type=user and one of intercom_user_id (a user or lead), user_id or email (users), taken in that order. The events of the last 90 days on the mock\'s clock, newest first (by created_at, then arrival), per_page (default 15, max 60) a page, with pages.next (an absolute URL whose before= cursor continues after the last event) absent on the last page. summary=true answers one entry per event name instead: count, first and last (ISO 8601) over every event of that name the app accepted while one of them was kept, unpaged.',
  tag: TAG,
  query: eventListQuerySchema,
  response: { status: 200, description: 'An event.list or, with summary=true, an event.summary', schema: eventListOrSummarySchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'conflict'],
  examples: { query: { type: 'user', user_id: 'ada-1', email: '', intercom_user_id: '', per_page: 15, before: '', summary: 'false' } },
  handler: ({ store, app, query, origin, path }) => {
    const q = query as { type?: string; user_id?: string; email?: string; intercom_user_id?: string; per_page?: number; before?: string; summary?: string };
    if (q.type !== 'user') throw badChoice('type', ['user']);
    if (!q.intercom_user_id && !q.user_id && !q.email) throw missing('user_id', 'One of intercom_user_id, user_id or email is required.');
    const person = eventPerson(app, q.intercom_user_id ? { id: q.intercom_user_id } : q.user_id ? { user_id: q.user_id } : { email: q.email ?? '' }, 'intercom_user_id');
    if (q.summary === 'true') {
      for (const name of ['per_page', 'before'] as const) {
        if (q[name] !== undefined) throw apiError('bad_request', `${name} does not apply to summary=true: the summary is not paged.`, name);
      }
      return { body: eventSummaryView(person, summariesOf(app.data, person.id)) };
    }
    const perPage = q.per_page ?? EVENT_DEFAULT_PER_PAGE;
    const { items, more } = eventPage(app.data, person.id, parseCursor(q.before), perPage, store.now());
    const last = items.at(-1);
    let next: string | undefined;
    if (more && last) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined && key !== 'before') params.append(key, String(value));
      params.set('before', cursorOf(last));
      next = `${origin}${path}?${params.toString()}`;
    }
    return { body: eventListView(person, items, next) };
  },
});

export const EVENT_ROUTES = [submitEventRoute, listEventsRoute];
