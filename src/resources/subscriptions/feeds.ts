// The sent and error feeds of an app's subscriptions, kept within their count (FEED_LIMIT a feed)
// and their bytes (bytes.ts). Past the bytes the app's oldest entry goes, whichever feed
// holds it: an app-wide log of the entries in the order they were kept (keyed by place, first and
// next place in the tallies, as the events' log) finds it at once, so making room never walks the
// feeds. Entries that leave otherwise (past FEED_LIMIT, with their subscription) leave the log too.

import type { AppState } from '../../state/app-state.js';
import { FEED_BYTES_TALLY } from '../../engine/byte-budget.js';
import { entryBytes, makeWebhookRoom, type WebhookPart } from './bytes.js';
import { FEED_LIMIT } from './limits.js';
import type { FeedEntry, WebhookFeeds } from './rules.js';

export type FeedName = 'sent' | 'error';

/** One entry of the app-wide log: where the entry is kept. */
export interface FeedRef {
  subscription_id: string;
  feed: FeedName;
  entry: FeedEntry;
}

const FIRST = 'feedlog:first';
const NEXT = 'feedlog:next';
const placeKey = (place: number): string => String(place);

/** Each entry's place in its app's log (an entry is kept by one app only, in its states and snapshots). */
const places = new WeakMap<FeedEntry, number>();

const moveTally = (app: AppState, delta: number): void => {
  app.data.tallies.set(FEED_BYTES_TALLY, (app.data.tallies.get(FEED_BYTES_TALLY) ?? 0) + delta);
};

/**
 * An entry that left its feed leaves the log (every kept entry has a place) and the tally. The
 * oldest leaving moves FIRST on past the places already empty, each passed once for good, so FIRST
 * is always the oldest entry's place (or NEXT): a drop never walks a run of them.
 */
function forget(app: AppState, entry: FeedEntry): void {
  const { feedLog, tallies } = app.data;
  let place = places.get(entry) as number;
  feedLog.delete(placeKey(place));
  moveTally(app, -entryBytes(entry));
  if (place !== tallies.get(FIRST)) return;
  const next = tallies.get(NEXT) ?? 1;
  while (++place < next && !feedLog.has(placeKey(place)));
  tallies.set(FIRST, place);
}

/** Gives up the app's oldest feed entry; false when its feeds hold none. */
function dropOldestEntry(app: AppState): boolean {
  const { feedLog, tallies, webhookFeeds } = app.data;
  const ref = feedLog.get(placeKey(tallies.get(FIRST) ?? 1));
  if (ref === undefined) return false;
  // A logged entry's feeds are there: a subscription's deletion takes its entries out of the log.
  const feeds = webhookFeeds.get(ref.subscription_id) as WebhookFeeds;
  webhookFeeds.set(ref.subscription_id, { ...feeds, [ref.feed]: feeds[ref.feed].filter((e) => e !== ref.entry) });
  // FIRST moves on with it.
  forget(app, ref.entry);
  return true;
}

export const queuePart = (app: AppState): WebhookPart => ({
  held: () => app.deliveries.bytes,
  limit: app.limits.webhookQueueBytes,
  dropOldest: () => app.deliveries.shift() !== undefined,
});

export const feedPart = (app: AppState): WebhookPart => ({
  held: () => app.data.tallies.get(FEED_BYTES_TALLY) ?? 0,
  limit: app.limits.webhookFeedBytes,
  dropOldest: () => dropOldestEntry(app),
});

/** Puts an attempt first in a subscription's feed, unless it cannot be kept (bytes.ts). */
export function keepEntry(app: AppState, subscriptionId: string, feed: FeedName, entry: FeedEntry): void {
  const bytes = entryBytes(entry);
  if (bytes > app.limits.webhookFeedBytes) return;
  // At FEED_LIMIT the feed's oldest goes whatever the bytes: gone before the room is made, so the
  // room counts it freed and no other entry goes in its stead.
  const before = app.data.webhookFeeds.get(subscriptionId);
  // Stryker disable next-line ConditionalExpression: the variant that survives, the length test forced true, is equivalent: a feed under the cap trims nothing and is written back as it was
  if (before && before[feed].length >= FEED_LIMIT) {
    for (const old of before[feed].slice(FEED_LIMIT - 1)) forget(app, old);
    app.data.webhookFeeds.set(subscriptionId, { ...before, [feed]: before[feed].slice(0, FEED_LIMIT - 1) });
  }
  if (!makeWebhookRoom(app, feedPart(app), queuePart(app), bytes)) return;
  // Read after the room is made: it may have taken this feed's oldest.
  const prev = app.data.webhookFeeds.get(subscriptionId) ?? { sent: [], error: [] };
  app.data.webhookFeeds.set(subscriptionId, { ...prev, [feed]: [entry, ...prev[feed]] });
  const { feedLog, tallies } = app.data;
  const place = tallies.get(NEXT) ?? 1;
  tallies.set(NEXT, place + 1);
  if (tallies.get(FIRST) === undefined) tallies.set(FIRST, place);
  feedLog.set(placeKey(place), { subscription_id: subscriptionId, feed, entry });
  places.set(entry, place);
  moveTally(app, bytes);
}

/** A deleted subscription's feeds leave the log and the tally with it. */
export function dropFeeds(app: AppState, subscriptionId: string): void {
  const feeds = app.data.webhookFeeds.get(subscriptionId);
  if (!feeds) return;
  for (const entry of feeds.sent) forget(app, entry);
  for (const entry of feeds.error) forget(app, entry);
  app.data.webhookFeeds.delete(subscriptionId);
}
