// Webhook subscriptions (surface §17, W1–W8; research-webhooks.md §5): request bodies, the
// notification_subscription object, its list and the sent/error feeds.

import { MAX_EVENT_NAMES, TOPICS } from './limits.js';
import { arr, bool, constant, int, nullable, obj, oneOfStrings, openObj, str } from '../../schemas/json-schema.js';

/** Longest url and hub_secret a subscription may hold. */
export const MAX_URL_LENGTH = 2048;
export const MAX_SECRET_LENGTH = 255;
/** Most topics one request may list (duplicates included). */
export const MAX_TOPICS_SENT = 100;

const topic = oneOfStrings(TOPICS);
const metadataSchema = obj(
  { event_names: arr(str({ minLength: 1, maxLength: 255 }), { maxItems: MAX_EVENT_NAMES, description: 'event.created is delivered only for these names; replaced on update' }) },
  [],
  { description: 'Required (with event_names) when topics has event.created.' },
);

const members = (required: boolean) => ({
  url: str({ minLength: 1, maxLength: MAX_URL_LENGTH, description: required ? 'where notifications are POSTed; the mock delivers to loopback only unless it runs with --webhook-hosts any (another host is kept with an undeliverable_target warning)' : 'a new target' }),
  topics: arr(topic, { minItems: 1, maxItems: MAX_TOPICS_SENT, description: required ? 'topics to receive; ping is always subscribed' : 'replaces the topics (no merge)' }),
  service_type: oneOfStrings(['web'], { description: 'only web' }),
  hub_secret: nullable(str({ minLength: 1, maxLength: MAX_SECRET_LENGTH, description: 'signs each delivery: X-Hub-Signature: sha1=<HMAC-SHA1 hex of the body>' })),
  active: bool({ description: 'false: nothing is delivered, and what is queued is dropped' }),
  metadata: metadataSchema,
});

export const createSubscriptionBodySchema = openObj(members(true), ['url', 'topics']);
export const updateSubscriptionBodySchema = openObj(members(false));

export const subscriptionSchema = obj(
  {
    type: constant('notification_subscription'),
    id: str(),
    created_at: int(),
    updated_at: int(),
    service_type: constant('web'),
    app_id: str(),
    url: str(),
    self: str(),
    topics: arr(str()),
    active: bool(),
    metadata: obj({ event_names: arr(str()) }),
    hub_secret: nullable(str()),
    mode: constant('point'),
    links: obj({ sent: str(), retry: str(), errors: str() }, ['sent', 'retry', 'errors']),
    notes: arr(str()),
  },
  ['type', 'id', 'created_at', 'updated_at', 'service_type', 'app_id', 'url', 'self', 'topics', 'active', 'metadata', 'hub_secret', 'mode', 'links', 'notes'],
);

export const subscriptionListSchema = obj({ type: constant('notification_subscription.list'), items: arr(subscriptionSchema) }, ['type', 'items']);

const notificationSchema = openObj(
  {
    type: constant('notification_event'),
    app_id: str(),
    data: obj({ type: constant('notification_event_data'), item: openObj({ type: str() }, ['type']) }, ['type', 'item']),
    links: obj({}),
    id: str(),
    topic: str(),
    delivery_status: oneOfStrings(['delivered', 'failed']),
    delivery_attempts: int({ minimum: 1 }),
    delivered_at: int(),
    first_sent_at: int(),
    created_at: int(),
    self: { type: 'null' },
    http_request: obj(
      {
        request_method: constant('POST'),
        request_uri: str(),
        request_headers: { type: 'object', additionalProperties: str() },
        request_entity: str(),
        response_status_code: int({ description: '0: no answer (timeout, refused connection or target)' }),
        response_headers: { type: 'object', additionalProperties: str() },
        response_entity: str(),
      },
      ['request_method', 'request_uri', 'request_headers', 'request_entity', 'response_status_code', 'response_headers', 'response_entity'],
    ),
  },
  ['type', 'app_id', 'data', 'links', 'id', 'topic', 'delivery_status', 'delivery_attempts', 'delivered_at', 'first_sent_at', 'created_at', 'self'],
);

export const notificationListSchema = obj({ type: constant('notification.list'), notifications: arr(notificationSchema) }, ['type', 'notifications']);
