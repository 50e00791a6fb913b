// Webhook subscriptions W1–W8 (surface §17; research-webhooks.md §5.2). Delivery itself is
// resources/subscriptions/emit.ts (what is owed) and resources/subscriptions/delivery.ts (sending).

import { apiError } from '../../core/errors.js';
import { str } from '../../schemas/json-schema.js';
import { createSubscriptionBodySchema, notificationListSchema, subscriptionListSchema, subscriptionSchema, updateSubscriptionBodySchema } from './shapes.js';
import { logWebhookChange } from '../admins/activity-logs.js';
import { tokenOwner } from '../admins/rules.js';
import {
  createSubscription as create,
  deleteSubscription as remove,
  feedsOf,
  listSubscriptions as all,
  pingSubscription as ping,
  requireSubscription,
  retryFailed,
  subscriptionText,
  updateSubscription as update,
} from './rules.js';
import { feedView, subscriptionListView, subscriptionView } from './view.js';
import { appRoute, type AppInput } from '../../http/route.js';
import { SUBSCRIPTION } from '../demo-examples.js';

const TAG = 'Subscriptions';
const subId = { id: str({ description: 'The subscription id (nsub_…)' }) };
const writeErrors = ['parameter_not_found', 'parameter_invalid', 'bad_request', 'unsupported_media_type', 'request_too_large'] as const;

/** What every other app's subscriptions hold: a subscription write is rare, and each app holds at most 250. */
function otherAppsText({ store, app }: AppInput): number {
  let total = 0;
  for (const id of store.appIds()) {
    const other = store.app(id);
    if (other && other !== app) total += subscriptionText(other);
  }
  return total;
}

const REFUSED_HOST = 'url must be an http(s) URL on a loopback address (localhost, 127.0.0.0/8, [::1]) unless the mock runs with --webhook-hosts any.';

const isHttpUrl = (url: string): boolean => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);

/**
 * A url that is not http(s) is refused. One on a host this mock does not deliver to is what the
 * real API accepted (Python's README subscribes http://example.com): kept, with a warning, and
 * each delivery fails with "Target refused"; strict mode refuses it as before.
 */
function checkUrl({ store, warnings }: AppInput, url: unknown): void {
  if (typeof url !== 'string') return;
  if (!isHttpUrl(url)) throw apiError('parameter_invalid', REFUSED_HOST, 'url');
  if (!(store.webhooks?.allows(url) ?? false)) {
    warnings.add('undeliverable_target', 'url is not on a host this mock delivers to (loopback, unless it runs with --webhook-hosts any): kept, and each delivery fails with "Target refused".', 'url', REFUSED_HOST);
  }
}

export const createSubscription = appRoute({
  method: 'POST',
  path: '/subscriptions',
  operationId: 'createSubscription',
  summary: 'Create a webhook subscription',
  description:
    'Subscribes url to topics (ping is always subscribed and not listed); hub_secret signs deliveries; event.created needs metadata.event_names. At most 250 subscriptions per app (400 parameter_invalid past it). A url the mock does not deliver to (not loopback, unless it runs with --webhook-hosts any) is kept with an undeliverable_target warning (strict mode: 400 parameter_invalid), and each delivery fails with "Target refused".',
  tag: TAG,
  body: createSubscriptionBodySchema,
  response: { status: 200, description: 'The subscription, active', schema: subscriptionSchema },
  errors: [...writeErrors],
  examples: { body: { url: 'http://127.0.0.1:8080/hooks', topics: ['user.created', 'conversation.user.replied'], hub_secret: 'change-me' } },
  handler: (input) => {
    const { store, app, body, origin, token } = input;
    checkUrl(input, body.url);
    const subscription = create(app, store.now(), body, otherAppsText(input));
    logWebhookChange(app, tokenOwner(app, token), store.now(), 'creation', subscription);
    return { body: subscriptionView(app, subscription, origin) };
  },
});

export const listSubscriptions = appRoute({
  method: 'GET',
  path: '/subscriptions',
  operationId: 'listSubscriptions',
  summary: 'List the webhook subscriptions',
  description: 'Every subscription of the app, oldest first, under items (unpaged: at most 250).',
  tag: TAG,
  response: { status: 200, description: 'The subscriptions', schema: subscriptionListSchema },
  errors: [],
  handler: ({ app, origin }) => ({ body: subscriptionListView(app, all(app), origin) }),
});

export const getSubscription = appRoute({
  method: 'GET',
  path: '/subscriptions/{id}',
  operationId: 'getSubscription',
  summary: 'View a webhook subscription',
  description: 'The subscription; unknown: 404 not_found.',
  tag: TAG,
  params: subId,
  response: { status: 200, description: 'The subscription', schema: subscriptionSchema },
  errors: ['not_found'],
  examples: { params: { id: SUBSCRIPTION } },
  exampleAfter: 'createSubscription',
  handler: ({ app, params, origin }) => ({ body: subscriptionView(app, requireSubscription(app, params.id ?? ''), origin) }),
});

const updateHandler = (input: AppInput) => {
  const { store, app, params, body, origin } = input;
  checkUrl(input, body.url);
  return { body: subscriptionView(app, update(app, params.id ?? '', store.now(), body, otherAppsText(input)), origin) };
};

const updateDescription =
  'Changes what the body names: topics and metadata.event_names are replaced, not merged; active false stops deliveries and drops the queued ones. Unknown: 404 not_found.';

/** POST is the documented form, PUT what Ruby and Python's save sends: one update under both. */
const updateRoute = (method: 'POST' | 'PUT', operationId: string, summary: string, description: string, body: Record<string, unknown>) =>
  appRoute({
    method,
    path: '/subscriptions/{id}',
    operationId,
    summary,
    description,
    tag: TAG,
    params: subId,
    body: updateSubscriptionBodySchema,
    response: { status: 200, description: 'The updated subscription', schema: subscriptionSchema },
    errors: ['not_found', ...writeErrors],
    examples: { params: { id: SUBSCRIPTION }, body },
    exampleAfter: 'createSubscription',
    handler: updateHandler,
  });

export const updateSubscription = updateRoute('POST', 'updateSubscription', 'Update a webhook subscription', updateDescription, { topics: ['user.created', 'user.deleted'] });

export const replaceSubscription = updateRoute(
  'PUT',
  'replaceSubscription',
  'Update a webhook subscription (PUT form)',
  `The same update as POST /subscriptions/{id}, for clients that send PUT. ${updateDescription}`,
  { active: false },
);

export const deleteSubscription = appRoute({
  method: 'DELETE',
  path: '/subscriptions/{id}',
  operationId: 'deleteSubscription',
  summary: 'Delete a webhook subscription',
  description: 'Removes the subscription, its feeds and its queued deliveries; answers the deleted subscription. Unknown: 404 not_found.',
  tag: TAG,
  params: subId,
  response: { status: 200, description: 'The deleted subscription', schema: subscriptionSchema },
  errors: ['not_found'],
  examples: { params: { id: SUBSCRIPTION } },
  exampleAfter: 'createSubscription',
  handler: ({ store, app, params, origin, token }) => {
    const subscription = remove(app, params.id ?? '');
    logWebhookChange(app, tokenOwner(app, token), store.now(), 'deletion', subscription);
    return { body: subscriptionView(app, subscription, origin) };
  },
});

export const pingSubscription = appRoute({
  method: 'POST',
  path: '/subscriptions/{id}/ping',
  operationId: 'pingSubscription',
  summary: 'Send a ping notification',
  description: 'Queues a ping notification ({type: ping, message}) for the subscription, delivered like any other; answers the subscription. Unknown: 404 not_found.',
  tag: TAG,
  params: subId,
  response: { status: 200, description: 'The subscription', schema: subscriptionSchema },
  errors: ['not_found'],
  examples: { params: { id: SUBSCRIPTION } },
  exampleAfter: 'createSubscription',
  handler: ({ store, app, params, origin }) => ({ body: subscriptionView(app, ping(app, params.id ?? '', store.now(), store.jobDelaySeconds), origin) }),
});

export const retrySubscription = appRoute({
  method: 'POST',
  path: '/subscriptions/{id}/retry',
  operationId: 'retrySubscription',
  summary: 'Re-deliver the failed notifications',
  description:
    'Queues again, due now and oldest first, each notification of the error feed that was not delivered since and is not queued, with delivery_attempts one more than its last attempt; an inactive subscription gets none. Answers the subscription. Undocumented by the real API (its clients link it as links.retry). Unknown: 404 not_found.',
  tag: TAG,
  params: subId,
  response: { status: 200, description: 'The subscription', schema: subscriptionSchema },
  errors: ['not_found'],
  examples: { params: { id: SUBSCRIPTION } },
  exampleAfter: 'createSubscription',
  handler: ({ store, app, params, origin }) => {
    const id = params.id ?? '';
    retryFailed(app, id, store.now(), (nid) => store.webhooks?.sending(app, nid) ?? false);
    return { body: subscriptionView(app, requireSubscription(app, id), origin) };
  },
});

export const getSubscriptionSent = appRoute({
  method: 'GET',
  path: '/subscriptions/{id}/sent',
  operationId: 'getSubscriptionSent',
  summary: 'The feed of notifications sent',
  description: 'Delivered notifications, newest first (the last 100 kept), delivery_status delivered. Unknown: 404 not_found.',
  tag: TAG,
  params: subId,
  response: { status: 200, description: 'The sent feed', schema: notificationListSchema },
  errors: ['not_found'],
  examples: { params: { id: SUBSCRIPTION } },
  exampleAfter: 'createSubscription',
  handler: ({ app, params }) => ({ body: feedView(feedsOf(app, params.id ?? '').sent, false) }),
});

const errorFeed = (path: string, operationId: string, summary: string) =>
  appRoute({
    method: 'GET',
    path,
    operationId,
    summary,
    description:
      'Failed attempts, newest first (the last 100 kept), each with http_request: the request sent and the answer (response_status_code 0: no answer within the timeout, or no connection). Unknown: 404 not_found.',
    tag: TAG,
    params: subId,
    response: { status: 200, description: 'The error feed', schema: notificationListSchema },
    errors: ['not_found'],
    examples: { params: { id: SUBSCRIPTION } },
    exampleAfter: 'createSubscription',
    handler: ({ app, params }) => ({ body: feedView(feedsOf(app, params.id ?? '').error, true) }),
  });

export const getSubscriptionError = errorFeed('/subscriptions/{id}/error', 'getSubscriptionError', 'The feed of delivery errors');
/** The clients' fixtures link the error feed as /errors. */
export const getSubscriptionErrors = errorFeed('/subscriptions/{id}/errors', 'getSubscriptionErrors', 'The feed of delivery errors (the links form)');

export const SUBSCRIPTION_ROUTES = [
  createSubscription,
  listSubscriptions,
  getSubscription,
  updateSubscription,
  replaceSubscription,
  deleteSubscription,
  pingSubscription,
  retrySubscription,
  getSubscriptionSent,
  getSubscriptionError,
  getSubscriptionErrors,
];
