// The notification_subscription object as the fixtures of the official clients show it
// (research-webhooks.md §5.1), and the feeds (§4.6).

import type { AppState } from '../../state/app-state.js';
import type { FeedEntry, Subscription } from './rules.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { notificationListSchema } from './shapes.js';

export function subscriptionView(app: AppState, sub: Subscription, origin: string) {
  const self = `${origin}/subscriptions/${sub.id}`;
  return {
    type: 'notification_subscription' as const,
    id: sub.id,
    created_at: sub.created_at,
    updated_at: sub.updated_at,
    service_type: 'web' as const,
    app_id: app.id,
    url: sub.url,
    self,
    topics: sub.topics,
    active: sub.active,
    metadata: sub.metadata,
    hub_secret: sub.hub_secret,
    mode: 'point' as const,
    links: { sent: `${self}/sent`, retry: `${self}/retry`, errors: `${self}/errors` },
    notes: [] as string[],
  };
}

export const subscriptionListView = (app: AppState, subs: readonly Subscription[], origin: string) => ({
  type: 'notification_subscription.list' as const,
  items: subs.map((s) => subscriptionView(app, s, origin)),
});

/** Sent feed: the notifications as delivered; error feed: each with the exchange (`http_request`). */
export const feedView = (entries: readonly FeedEntry[], withExchange: boolean) => ({
  type: 'notification.list' as const,
  // A feed keeps the notification as the emitter wrote it (emit.ts, held to the schema by the contract check).
  notifications: entries.map((e) => (withExchange ? { ...e.notification, http_request: e.http_request } : e.notification)) as StaticOf<typeof notificationListSchema>['notifications'],
});
