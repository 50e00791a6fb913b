// Webhook subscriptions (surface §17, W1–W8) and the notifications they are owed. The rules live
// here; rendering the item happens in resources/subscriptions/emit.ts and sending in resources/subscriptions/delivery.ts,
// which is the only code that makes outbound requests.

import type { Stored } from '../../engine/types.js';
import type { subscriptionSchema } from '../../fixtures/schema.js';
import { apiError } from '../../core/errors.js';
import type { AppState } from '../../state/app-state.js';
import { newJob } from '../../engine/job-queue.js';
import type { WebhookJob } from '../../engine/types.js';

import { MAX_PENDING_DELIVERIES, MAX_SUBSCRIPTIONS, MAX_THROTTLE_SECONDS, THROTTLE_SECONDS } from './limits.js';
import { deliveryBytes, makeWebhookRoom } from './bytes.js';
import { dropFeeds, feedPart, queuePart } from './feeds.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { updateSubscriptionBodySchema } from './shapes.js';

export * from './limits.js';

export type Subscription = Stored<typeof subscriptionSchema>;

/** One feed entry: the notification as sent, and the exchange as the real feed shows it (RM-feeds). */
export interface FeedEntry {
  notification: Record<string, unknown>;
  http_request: {
    request_method: 'POST';
    request_uri: string;
    request_headers: Record<string, string>;
    request_entity: string;
    response_status_code: number;
    response_headers: Record<string, string>;
    response_entity: string;
  };
}

export interface WebhookFeeds {
  sent: readonly FeedEntry[];
  error: readonly FeedEntry[];
  /** Set while the receiver's last answer was 429: its deliveries wait until `until` (research §4.1). */
  throttle?: { delay: number; until: number };
}

/** What the request sends, as its schema declares it. */
export type SubscriptionInput = StaticOf<typeof updateSubscriptionBodySchema>;

/** The delivery module (resources/subscriptions/delivery.ts) as the store sees it: Store.webhooks. */
export interface WebhookSink {
  take(app: AppState, job: WebhookJob): void;
  /** Resolves once nothing is being sent, retries queued meanwhile aside. */
  settled(): Promise<void>;
  /** Whether a subscription may point at this URL. */
  allows(url: string): boolean;
  /** The port the mock listens on, so a delivery never calls the mock itself. */
  listening(port: number): void;
  /** Sends under way over every app (at most MAX_DELIVERIES_IN_FLIGHT), and those waiting for a slot. */
  inFlight(): { sending: number; waiting: number };
  /** Whether an attempt of this notification was taken and has not finished yet. */
  sending(app: AppState, notificationId: string): boolean;
  /** Deliveries the app has handed over and not settled, and the entries kept to track them (settled ones included until cut out). */
  held(app: AppState): { waiting: number; kept: number };
}

export function requireSubscription(app: AppState, id: string): Subscription {
  const sub = app.data.subscriptions.get(id);
  if (!sub) throw apiError('not_found', `No subscription "${id.slice(0, 100)}".`);
  return sub;
}

export function listSubscriptions(app: AppState): Subscription[] {
  return [...app.data.subscriptions.values()];
}

function checkEventNames(topics: readonly string[], metadata: Subscription['metadata']): void {
  // "The event_names array is required for an events subscription" (RM-events).
  if (topics.includes('event.created') && !(metadata.event_names && metadata.event_names.length > 0)) {
    throw apiError('parameter_not_found', 'metadata.event_names is required with the event.created topic.', 'metadata.event_names');
  }
}

const uniqueTopics = (topics: readonly string[]): string[] => [...new Set(topics.filter((t) => t !== 'ping'))];

const textOf = (sub: Subscription): number =>
  sub.url.length + (sub.hub_secret?.length ?? 0) + sub.topics.reduce((n, t) => n + t.length, 0) + (sub.metadata.event_names ?? []).reduce((n, e) => n + e.length, 0);

/** The text of an app's subscriptions, but the one named. */
// Stryker disable next-line StringLiteral: equivalent, no subscription id is any other text either
export function subscriptionText(app: AppState, except = ''): number {
  let total = 0;
  for (const sub of app.data.subscriptions.values()) if (sub.id !== except) total += textOf(sub);
  return total;
}

/**
 * 250 subscriptions at their largest members would hold about 8 MiB an app (8 GiB over 1,000 test
 * apps): their text together is capped instead, an app's and every app's, which leaves room for
 * 250 ordinary ones. `others`: the text of the other apps' subscriptions.
 */
function checkText(app: AppState, next: Subscription, others: number): void {
  const total = textOf(next) + subscriptionText(app, next.id);
  const { subscriptionText: max, allSubscriptionText: maxAll } = app.limits;
  if (total > max) {
    throw apiError('resource_limit_exceeded', `This app's subscriptions would hold ${total} characters of urls, secrets, topics and event names: at most ${max}; delete some, or name fewer event names.`);
  }
  if (total + others > maxAll) {
    throw apiError('resource_limit_exceeded', `The mock's apps together would hold ${total + others} characters of subscriptions: at most ${maxAll}; reset apps or delete subscriptions.`);
  }
}

export function createSubscription(app: AppState, now: number, input: SubscriptionInput, others = 0): Subscription {
  if (app.data.subscriptions.size >= MAX_SUBSCRIPTIONS) {
    throw apiError('parameter_invalid', `A maximum of ${MAX_SUBSCRIPTIONS} subscriptions can be created through the API; delete one first.`);
  }
  const topics = uniqueTopics(input.topics ?? []);
  const metadata = input.metadata?.event_names ? { event_names: [...input.metadata.event_names] } : {};
  checkEventNames(topics, metadata);
  // Java's client sends "active": false with every new subscription; the real API's answer to a
  // create shows it active, so a new subscription is active whatever it says [I].
  if (input.active !== undefined) app.warn('unused_field', 'active applies to an update: a new subscription is active: ignored.', 'active');
  const fields = {
    created_at: now,
    updated_at: now,
    url: input.url ?? '',
    topics,
    active: true,
    hub_secret: input.hub_secret ?? null,
    metadata,
  };
  // Checked before the id is drawn, so a refusal leaves the app's random stream where it was.
  // Stryker disable next-line StringLiteral: equivalent, the id only excludes the subscription from the app's others and no stored id is this
  checkText(app, { id: '', ...fields }, others);
  const sub: Subscription = { id: `nsub_${app.random.uuid()}`, ...fields };
  app.data.subscriptions.set(sub.id, sub);
  return sub;
}

/** Topics and event_names are replaced, not merged (RM-update, RM-events). */
export function updateSubscription(app: AppState, id: string, now: number, input: SubscriptionInput, others = 0): Subscription {
  const prev = requireSubscription(app, id);
  const next: Subscription = {
    ...prev,
    updated_at: now,
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.topics !== undefined ? { topics: uniqueTopics(input.topics) } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
    ...(input.hub_secret !== undefined ? { hub_secret: input.hub_secret } : {}),
    ...(input.metadata !== undefined ? { metadata: input.metadata.event_names ? { event_names: [...input.metadata.event_names] } : {} } : {}),
  };
  checkEventNames(next.topics, next.metadata);
  checkText(app, next, others);
  app.data.subscriptions.set(id, next);
  // "events triggered when a subscription is inactive may not be sent" (RM-update): its queue goes.
  if (!next.active) dropQueued(app, id);
  return next;
}

export function deleteSubscription(app: AppState, id: string): Subscription {
  const sub = requireSubscription(app, id);
  app.data.subscriptions.delete(id);
  dropFeeds(app, id);
  dropQueued(app, id);
  return sub;
}

function dropQueued(app: AppState, id: string): void {
  for (const job of app.deliveries.ofSubscription(id)) app.deliveries.remove(job);
}

/**
 * Whether a subscription wants a notification of this topic (event.created: only the names it
 * lists). Not asked of a ping, which goes to the one subscription pinged whatever its topics.
 */
export function wants(sub: Subscription, topic: string, eventName?: string): boolean {
  if (!sub.active) return false;
  if (!sub.topics.includes(topic)) return false;
  return topic !== 'event.created' || (sub.metadata.event_names ?? []).includes(eventName as string);
}

/** The notification_event envelope in the key order real deliveries had (research §2.1). */
export function notificationEvent(app: AppState, topic: string, item: Record<string, unknown>, now: number): Record<string, unknown> {
  return {
    type: 'notification_event',
    app_id: app.id,
    data: { type: 'notification_event_data', item },
    links: {},
    id: `notif_${app.random.uuid()}`,
    topic,
    delivery_status: 'pending',
    delivery_attempts: 1,
    delivered_at: 0,
    first_sent_at: now,
    created_at: now,
    self: null,
  };
}

/**
 * Queues one attempt of a notification for a subscription, due `dueAt` (or when the subscription's
 * throttle ends, if later). Past the cap, or past the queue's bytes, the oldest queued deliveries
 * are dropped: a receiver that is down for long loses the oldest news, never the API's memory.
 * O(log n) a delivery queued or dropped: app.deliveries is a heap.
 */
export function queueDelivery(app: AppState, subscriptionId: string, notification: Record<string, unknown>, attempt: number, dueAt: number): void {
  // A throttled subscription's deliveries all wait for the throttle's end, so they keep their order.
  const held = throttleOf(app, subscriptionId);
  const job = newJob<WebhookJob>(app, { kind: 'webhook', subscription_id: subscriptionId, notification, attempt }, held ? Math.max(dueAt, held.until) : dueAt);
  const bytes = deliveryBytes(job);
  // One the queue will never keep costs no queued delivery its place.
  if (bytes > app.limits.webhookQueueBytes) return;
  // A loop, not an if: a seeded queue may start over the cap; each delivery is dropped at most once.
  // The count cap goes first, as a feed's does: a store-wide refusal below does not bring it back.
  while (app.deliveries.size >= MAX_PENDING_DELIVERIES) app.deliveries.shift();
  if (makeWebhookRoom(app, queuePart(app), feedPart(app), bytes)) app.deliveries.add(job);
}

/** Where a subscription's throttle stands: the delay its next 429 doubles, and until when it holds. */
export function throttleOf(app: AppState, subscriptionId: string): { delay: number; until: number } | undefined {
  return app.data.webhookFeeds.get(subscriptionId)?.throttle;
}

/**
 * A 429 throttles the subscription: 1 minute, doubling with each further 429 up to 2 hours; a 2xx
 * lifts it (research §4.1). Returns when its deliveries may go again. The sender calls this and
 * `deactivate` (as it calls feeds.ts's `keepEntry`) only for a subscription still there.
 */
export function setThrottle(app: AppState, subscriptionId: string, now: number, tooMany: boolean): number {
  const prev = app.data.webhookFeeds.get(subscriptionId);
  if (!tooMany) {
    // Stryker disable next-line ConditionalExpression,OptionalChaining: the variants that survive are equivalent: without a throttle the feeds are written back as they were, or (none kept) the sender's attempt, done by then, ends on the error
    if (prev?.throttle) app.data.webhookFeeds.set(subscriptionId, { sent: prev.sent, error: prev.error });
    return now;
  }
  const delay = prev?.throttle ? Math.min(prev.throttle.delay * 2, MAX_THROTTLE_SECONDS) : THROTTLE_SECONDS;
  // No feeds yet when the 429's entry was too big to keep: the throttle holds all the same.
  app.data.webhookFeeds.set(subscriptionId, { ...(prev ?? { sent: [], error: [] }), throttle: { delay, until: now + delay } });
  return now + delay;
}

/**
 * POST /subscriptions/{id}/retry: the notifications of the error feed that were never delivered
 * afterwards and are not queued, oldest first, queued again due now with one more attempt. An
 * inactive subscription gets none. Returns how many were queued.
 */
export function retryFailed(app: AppState, id: string, now: number, sending: (notificationId: string) => boolean): number {
  const sub = requireSubscription(app, id);
  if (!sub.active) return 0;
  const feeds = feedsOf(app, id);
  const settled = new Set<unknown>(feeds.sent.map((e) => e.notification.id));
  for (const j of app.deliveries.ofSubscription(id)) settled.add(j.notification.id);
  // Newest first in the feed: the first entry met per id is its last attempt. One being sent right
  // now is owed nothing more yet.
  const last = new Map<unknown, FeedEntry>();
  for (const e of feeds.error) {
    const nid = e.notification.id;
    if (!settled.has(nid) && !last.has(nid) && !sending(String(nid))) last.set(nid, e);
  }
  const again = [...last.values()].reverse();
  for (const e of again) {
    const attempts = Number(e.notification.delivery_attempts) || 1;
    queueDelivery(app, id, { ...e.notification, delivery_status: 'pending', delivery_attempts: 1, delivered_at: 0 }, attempts + 1, now);
  }
  return again.length;
}

/** Takes the subscription's queued deliveries out of the queue, in order (a 429 holds them all back). */
export function takeQueued(app: AppState, subscriptionId: string): WebhookJob[] {
  const mine = app.deliveries.ofSubscription(subscriptionId);
  for (const job of mine) app.deliveries.remove(job);
  return mine;
}

/** Deactivates a subscription whose receiver answered 410 Gone (DH-1.x). */
export function deactivate(app: AppState, subscriptionId: string, now: number): void {
  const sub = app.data.subscriptions.get(subscriptionId) as Subscription;
  app.data.subscriptions.set(subscriptionId, { ...sub, active: false, updated_at: now });
  dropQueued(app, subscriptionId);
}

/** The doc example's ping text (RM-ping). */
export const PING_MESSAGE = "shipping is your company's heartbeat";

/** POST /subscriptions/{id}/ping: a ping notification queued like any other (an inactive subscription gets none). */
export function pingSubscription(app: AppState, id: string, now: number, delaySeconds: number): Subscription {
  const sub = requireSubscription(app, id);
  if (sub.active) queueDelivery(app, id, notificationEvent(app, 'ping', { type: 'ping', message: PING_MESSAGE }, now), 1, now + delaySeconds);
  return sub;
}

export function feedsOf(app: AppState, id: string): WebhookFeeds {
  requireSubscription(app, id);
  return app.data.webhookFeeds.get(id) ?? { sent: [], error: [] };
}
