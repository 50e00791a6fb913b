// Webhook subscriptions and their bounded feeds. Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { FeedRef } from './feeds.js';
import type { Subscription, WebhookFeeds } from './rules.js';

export const subscriptionCollections = {
  /** Webhook subscriptions by id (resources/subscriptions/rules.ts); not in fixtures yet, so a seed starts with none. */
  subscriptions: map<Subscription>(),
  /** subscription id -> its sent and error feeds, each bounded (resources/subscriptions/rules.ts) */
  webhookFeeds: map<WebhookFeeds>(),
  /** place -> a feed entry, in the order the app's feeds kept them, so the oldest goes first past their bytes (resources/subscriptions/feeds.ts) */
  feedLog: map<FeedRef>(),
};
