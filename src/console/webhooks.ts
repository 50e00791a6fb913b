// GET /__admin/webhooks/deliveries: an app's webhook deliveries with their attempts, newest first,
// for the console's Traffic view. Read from the subscriptions' sent and error feeds (each kept to
// FEED_LIMIT entries, so the walk is bounded by MAX_SUBSCRIPTIONS × 2 × FEED_LIMIT) and grouped by
// subscription and notification id; the grouping is cached per version of the feeds map, so paging
// costs a slice until the next attempt lands.

import type { CowMap } from '../engine/cow.js';
import { adminRoute } from '../http/route.js';
import { arr, int, nullable, obj, oneOfStrings, str } from '../schemas/json-schema.js';
import type { AppState } from '../state/app-state.js';
import { attemptTiming } from '../resources/subscriptions/attempts.js';
import type { FeedEntry, WebhookFeeds } from '../resources/subscriptions/rules.js';
import { CONTROL_TAG, requireApp } from '../admin/target.js';
import { pageOf, pageProps, pageRequest, pagedQuery } from './paging.js';

const headers = obj({}, [], { additionalProperties: str() });

const attemptSchema = obj(
  {
    attempt: int({ minimum: 1, description: 'delivery_attempts as sent' }),
    at: nullable(int({ description: 'Unix second (the mock\'s clock) the answer or failure came; null for an attempt loaded from disk' })),
    duration_ms: nullable(int({ minimum: 0, description: 'Wall-clock milliseconds the receiver took; null for an attempt loaded from disk' })),
    status: int({ minimum: 0, description: 'The receiver\'s HTTP status; 0 when none came' }),
    error: nullable(str({ description: 'Why no answer came (refused target, connection, timeout); null when one came' })),
    request: obj({ method: str(), uri: str(), headers, body: str({ description: 'The exact bytes sent (what X-Hub-Signature signs)' }) }, ['method', 'uri', 'headers', 'body']),
    response: obj({ status: int({ minimum: 0 }), headers, body: str({ description: 'At most 64 KiB of the answer' }) }, ['status', 'headers', 'body']),
  },
  ['attempt', 'at', 'duration_ms', 'status', 'error', 'request', 'response'],
);

const deliverySchema = obj(
  {
    subscription_id: str(),
    url: str({ description: 'Where the last attempt went' }),
    topic: str(),
    notification_id: str(),
    created_at: int({ description: 'When the notification was made' }),
    state: oneOfStrings(['delivered', 'failed'], { description: 'delivered once an attempt got a 2xx' }),
    attempts: arr(attemptSchema, { description: 'Newest first' }),
  },
  ['subscription_id', 'url', 'topic', 'notification_id', 'created_at', 'state', 'attempts'],
);

export type DeliveryAttempt = ReturnType<typeof attemptOf>;
export type Delivery = ReturnType<typeof groupDeliveries>[number];

function attemptOf(entry: FeedEntry) {
  const h = entry.http_request;
  const timing = attemptTiming(entry);
  return {
    attempt: typeof entry.notification.delivery_attempts === 'number' ? entry.notification.delivery_attempts : 1,
    at: timing?.at ?? null,
    duration_ms: timing?.duration_ms ?? null,
    status: h.response_status_code,
    error: h.response_status_code === 0 ? h.response_entity : null,
    request: { method: h.request_method, uri: h.request_uri, headers: h.request_headers, body: h.request_entity },
    response: { status: h.response_status_code, headers: h.response_headers, body: h.response_entity },
  };
}

function groupDeliveries(feeds: CowMap<WebhookFeeds>) {
  const byKey = new Map<string, { delivery: ReturnType<typeof deliveryOf>; latest: number }>();
  function deliveryOf(subscriptionId: string, entry: FeedEntry) {
    const n = entry.notification;
    return {
      subscription_id: subscriptionId,
      url: entry.http_request.request_uri,
      topic: String(n.topic),
      notification_id: String(n.id),
      created_at: typeof n.created_at === 'number' ? n.created_at : 0,
      state: 'failed' as 'delivered' | 'failed',
      attempts: [] as ReturnType<typeof attemptOf>[],
    };
  }
  for (const [subscriptionId, feed] of feeds.entries()) {
    for (const [kind, entries] of [['sent', feed.sent], ['error', feed.error]] as const) {
      for (const entry of entries) {
        const key = `${subscriptionId}\u0000${String(entry.notification.id)}`;
        let known = byKey.get(key);
        if (!known) {
          known = { delivery: deliveryOf(subscriptionId, entry), latest: -1 };
          byKey.set(key, known);
        }
        if (kind === 'sent') known.delivery.state = 'delivered';
        known.delivery.attempts.push(attemptOf(entry));
        known.latest = Math.max(known.latest, attemptTiming(entry)?.seq ?? -1);
      }
    }
  }
  const all = [...byKey.values()];
  for (const d of all) d.delivery.attempts.sort((a, b) => b.attempt - a.attempt);
  // Newest attempt first; attempts with no timing (loaded from disk) after, newest notification first.
  all.sort((a, b) => b.latest - a.latest || b.delivery.created_at - a.delivery.created_at);
  return all.map((d) => d.delivery);
}

const grouped = new WeakMap<CowMap<WebhookFeeds>, { version: number; deliveries: Delivery[] }>();

export function deliveriesOf(app: AppState): Delivery[] {
  const feeds = app.data.webhookFeeds as CowMap<WebhookFeeds>;
  let known = grouped.get(feeds);
  if (known === undefined || known.version !== feeds.version) {
    known = { version: feeds.version, deliveries: groupDeliveries(feeds) };
    grouped.set(feeds, known);
  }
  return known.deliveries;
}

export const listDeliveries = adminRoute({
  method: 'GET',
  path: '/__admin/webhooks/deliveries',
  operationId: 'adminListWebhookDeliveries',
  summary: 'An app\'s webhook deliveries with their attempts',
  description:
    'The webhook deliveries the app\'s subscriptions hold in their sent and error feeds, one per subscription and notification, the most recent attempt first; each with its topic, notification id, state and every attempt the feeds keep (newest first): when it was answered, how long the receiver took, its status or why none came, the request as sent (headers with X-Hub-Signature, body) and the answer. ?subscription= narrows to one subscription. One page at a time.',
  tag: CONTROL_TAG,
  query: pagedQuery({ subscription: str({ description: 'Only this subscription\'s deliveries' }) }),
  response: {
    status: 200,
    description: 'One page of deliveries',
    schema: obj({ deliveries: arr(deliverySchema), ...pageProps }, ['deliveries', 'total', 'next_offset']),
  },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { query: { app: 'demo', subscription: '', offset: 0, limit: 20 } },
  handler: (input) => {
    const app = requireApp(input);
    const sub = input.query.subscription;
    const all = deliveriesOf(app);
    const list = typeof sub === 'string' ? all.filter((d) => d.subscription_id === sub) : all;
    const page = pageOf({ total: list.length, slice: (s, e) => list.slice(s, e) }, pageRequest(input.query));
    return { body: { deliveries: page.items, total: page.total, next_offset: page.next_offset } };
  },
});
