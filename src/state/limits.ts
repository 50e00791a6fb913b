// How much an app may hold through API writes: one limit per kind, so no client loop can exhaust memory.

import { apiError } from '../core/errors.js';
import { DEFAULT_WEBHOOK_FEED_BYTES, DEFAULT_WEBHOOK_QUEUE_BYTES } from '../resources/subscriptions/bytes.js';

/** Most records an app may hold through API writes, so no client loop can exhaust memory. */
export interface AppLimits {
  customers: number;
  companies: number;
  /** Conversation parts over all of the app's conversations. */
  parts: number;
  /** Notes over all of the app's people (resources/notes/rules.ts). */
  notes: number;
  /** Tags an app may reach through API writes (each name up to 255 characters). */
  tags: number;
  /** Tags every app of the store together may hold (resources/tags/rules.ts). */
  allTags: number;
  /** Characters of urls, secrets, topics and event names an app's subscriptions may hold (resources/subscriptions/rules.ts). */
  subscriptionText: number;
  /** The same over every app of the store. */
  allSubscriptionText: number;
  /** Data events kept; past it the oldest go (resources/events/timeline.ts). */
  events: number;
  /** Bytes of queued webhook deliveries kept; past it the oldest queued go (resources/subscriptions/bytes.ts). */
  webhookQueueBytes: number;
  /** Bytes of webhook feed entries kept; past it the app's oldest entries go. */
  webhookFeedBytes: number;
}

export const DEFAULT_LIMITS: AppLimits = {
  customers: 200_000,
  companies: 50_000,
  parts: 500_000,
  notes: 100_000,
  tags: 10_000,
  // About 50 MiB at the longest names, however many test apps the store keeps.
  allTags: 100_000,
  subscriptionText: 128 * 1024,
  // About 32 MiB over every app.
  allSubscriptionText: 16 * 1024 * 1024,
  events: 100_000,
  webhookQueueBytes: DEFAULT_WEBHOOK_QUEUE_BYTES,
  webhookFeedBytes: DEFAULT_WEBHOOK_FEED_BYTES,
};

/** Refuses a write that would take the app past one of its limits; `count` is what it would hold. */
export function checkRoom(app: { readonly limits: AppLimits }, kind: keyof AppLimits, count: number, what: string): void {
  if (count > app.limits[kind]) {
    throw apiError('resource_limit_exceeded', `This app already holds the most ${what} the mock allows (${app.limits[kind]}); reset it or raise the limit.`);
  }
}
