// What webhook state keeps, in bytes: queued deliveries (their notifications) and feed entries (the
// notification as sent and the exchange). Counts alone do not bound it: with customer views at the
// attribute limit, 1,000 queued deliveries and 250 × 2 × 100 feed entries are GiBs an app. Each is
// measured once, when it is kept (keptBytes' rules), and the totals are running tallies: the queue's
// in the queue (delivery-queue.ts), the feeds' in the app's tallies, so a reset, a restore, a
// snapshot and a rolled-back write carry them exactly with what they count.

import type { AppState } from '../../state/app-state.js';
import { keptBytes, webhookShare, type ByteBudgets } from '../../engine/byte-budget.js';
import type { WebhookJob } from '../../engine/types.js';

/** A queued job beside its notification: the record, its heap slot and its subscription-index entry. */
const DELIVERY_BYTES = 256;
/** A feed entry beside what it holds: its slot in the feed and its app-wide log entry (feeds.ts). */
const ENTRY_BYTES = 256;

/** Bytes one app may keep of each, whatever the store-wide budget leaves (store option `limits`). */
export const DEFAULT_WEBHOOK_QUEUE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_WEBHOOK_FEED_BYTES = 16 * 1024 * 1024;

const measured = new WeakMap<object, number>();

/**
 * keptBytes, each object down to `depth` levels remembered: a change owed to 250 subscriptions
 * renders its item once and wraps it in a new envelope for each, and a retry, a throttled requeue
 * and a feed entry keep the same objects, so each is walked once.
 */
function bytesOf(value: unknown, depth: number): number {
  if (value === null || typeof value !== 'object') return keptBytes(value);
  let bytes = measured.get(value);
  if (bytes !== undefined) return bytes;
  if (depth === 0) bytes = keptBytes(value);
  else if (Array.isArray(value)) {
    bytes = 32 + 8 * value.length;
    for (const item of value) bytes += bytesOf(item, depth - 1);
  } else {
    bytes = 32;
    const o = value as Record<string, unknown>;
    for (const key of Object.keys(o)) bytes += 24 + 2 * key.length + bytesOf(o[key], depth - 1);
  }
  measured.set(value, bytes);
  return bytes;
}

/** The envelope, its `data` and the item inside: the levels copies share. */
export const notificationBytes = (notification: Record<string, unknown>): number => bytesOf(notification, 2);

export const deliveryBytes = (job: WebhookJob): number => DELIVERY_BYTES + notificationBytes(job.notification);

export interface MeasuredEntry {
  notification: Record<string, unknown>;
  http_request: object;
}

export const entryBytes = (entry: MeasuredEntry): number => ENTRY_BYTES + notificationBytes(entry.notification) + bytesOf(entry.http_request, 0);

/** Which of an app's webhook state a new item joins, and how its oldest item is given up. */
export interface WebhookPart {
  held(): number;
  limit: number;
  /** Gives up the oldest item; false when there is none. */
  dropOldest(): boolean;
}

/**
 * Makes room for `bytes` more of `part`: past the app's own limit `part`'s oldest items go (as past
 * the count caps); past the store-wide budget the app gives up its own, `part`'s oldest first and
 * then `other`'s, never another app's. False: the new item is not kept, because it alone is over the
 * limit, or because all the app added would not make the store-wide room (then nothing more goes).
 */
export function makeWebhookRoom(app: AppState, part: WebhookPart, other: WebhookPart, bytes: number): boolean {
  if (bytes > part.limit) return false;
  while (part.held() + bytes > part.limit && part.dropOldest());
  const budgets: ByteBudgets | undefined = app.budgets;
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent, every app of a store has the store's budgets (only an AppState made alone has none)
  if (!budgets) return true;
  const over = budgets.excess(app, 'webhooks', bytes);
  // Stryker disable next-line ConditionalExpression: equivalent when forced false, with nothing over the budget nothing is dropped and the item fits
  if (over === 0) return true;
  const target = webhookShare(app) - over;
  if (target < 0) return false;
  while (webhookShare(app) > target && (part.dropOldest() || other.dropOldest()));
  // Counted now that the room is made (the recount in excess saw every app).
  return budgets.fits(app, 'webhooks', bytes);
}
