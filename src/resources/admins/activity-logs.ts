// Admin activity logs (GET /admins/activity_logs, API version 1.2 on): the admin actions the mock
// performs, kept per app in arrival order under a cap, the oldest out first. Entries live in a
// collection of the app's state (keyed by their place in the log), so a transaction, a reset, a
// snapshot and a provisioned copy carry them like any record; listing reads a sorted index by
// created_at, so a page costs O(log n + page), never a walk of the log.

import type { Stored } from '../../engine/types.js';
import type { activityLogSchema } from '../../fixtures/schema.js';
import type { CowMap } from '../../engine/cow.js';
import type { AppState } from '../../state/app-state.js';
import { SortedIndex } from '../../engine/sorted-index.js';
import type { Admin } from '../../engine/types.js';

/** Most entries an app keeps; past it the oldest goes (README "API versions"). */
export const MAX_ACTIVITY_LOGS = 1000;

/** An entry as the docs show it (v1.2 "View admin activity logs", model `activity_log` of 2.x). */
export type ActivityLog = Stored<typeof activityLogSchema>;

/** Tallies holding the log's bounds: the place of its oldest entry, the next place, the next id. */
const FIRST = 'activity-logs:first';
const NEXT = 'activity-logs:next';
const NEXT_ID = 'activity-logs:next-id';

/** A place as a key that sorts as a number, so entries with the same created_at keep arrival order. */
export const placeKey = (place: number): string => String(place).padStart(16, '0');

type Row = { id: string; created_at: number };

const rowOf = (key: string, log: ActivityLog): Row => ({ id: key, created_at: log.created_at });

function index(app: AppState): SortedIndex<Row> {
  return app.sorted.get('activity-logs', 'created_at', () => {
    const rows: Row[] = [];
    for (const [key, log] of app.data.activityLogs.entries()) rows.push(rowOf(key, log));
    return new SortedIndex<Row>((r) => r.created_at, () => true).build(rows);
  });
}

/** Appends an entry made now by `performer`; the oldest entry goes once the log holds more than the cap. */
export function logActivity(app: AppState, performer: Admin, now: number, activity: Pick<ActivityLog, 'activity_type' | 'activity_description' | 'metadata'>): ActivityLog {
  const { activityLogs, tallies } = app.data;
  const place = tallies.get(NEXT) ?? 1;
  const first = tallies.get(FIRST) ?? 1;
  const id = tallies.get(NEXT_ID) ?? 1;
  const log: ActivityLog = { id: String(id), performed_by: { type: 'admin', id: performer.id, email: performer.email, ip: null }, created_at: now, ...activity };
  activityLogs.set(placeKey(place), log);
  app.sorted.update('activity-logs', placeKey(place), rowOf(placeKey(place), log));
  tallies.set(NEXT, place + 1);
  tallies.set(NEXT_ID, id + 1);
  tallies.set(FIRST, first);
  if (place + 1 - first > MAX_ACTIVITY_LOGS) {
    activityLogs.delete(placeKey(first));
    app.sorted.update('activity-logs', placeKey(first), undefined);
    tallies.set(FIRST, first + 1);
  }
  return log;
}

/**
 * POST and DELETE /subscriptions: `app_webhook_creation` / `app_webhook_deletion` of the token's
 * admin (none in an app without admins: nothing is logged). The docs show no metadata for these
 * types; the mock names the subscription [I].
 */
export function logWebhookChange(app: AppState, performer: Admin | undefined, now: number, kind: 'creation' | 'deletion', subscription: { id: string; url: string }): void {
  if (performer === undefined) return;
  logActivity(app, performer, now, {
    activity_type: `app_webhook_${kind}`,
    activity_description: `${performer.name} ${kind === 'creation' ? 'created' : 'deleted'} a webhook subscription to ${subscription.url}.`,
    metadata: { subscription_id: subscription.id, url: subscription.url },
  });
}

/** Entries with `after` <= created_at <= `before`, newest first: how many, and a slice of them. */
export function activityLogsBetween(app: AppState, after: number, before: number): { total: number; slice: (start: number, end: number) => ActivityLog[] } {
  const sorted = index(app);
  // Entries before `after`, and entries up to `before`: the range is the difference, newest at its end.
  const below = sorted.countBelow(after);
  const upTo = sorted.countBelow(before + 1);
  const total = Math.max(0, upTo - below);
  return {
    total,
    slice: (start, end) => {
      return sorted
        // Both ends within the range: a page past its end is empty, not counted from the index's end.
        .slice(Math.max(below, upTo - end), Math.max(below, upTo - start), false)
        .reverse()
        .map((key) => app.data.activityLogs.get(key) as ActivityLog);
    },
  };
}

/** The log as a fixture document carries it: oldest first, only when the app has entries. */
export function exportActivityLogs(app: AppState): ActivityLog[] {
  const { activityLogs, tallies } = app.data;
  const out: ActivityLog[] = [];
  // Eviction takes the oldest only, so every place from the first to the last holds an entry.
  const next = tallies.get(NEXT) ?? 1;
  for (let place = tallies.get(FIRST) ?? 1; place < next; place++) out.push(activityLogs.get(placeKey(place)) as ActivityLog);
  return out;
}

/** Seeds a base's log from a fixture's entries (oldest first): places from 1, ids going on past the highest held. */
export function seedActivityLogs(logs: readonly ActivityLog[], tallies: Map<string, number>): Map<string, ActivityLog> {
  const out = new Map<string, ActivityLog>();
  let maxId = 0;
  logs.forEach((log, i) => {
    out.set(placeKey(i + 1), log);
    maxId = Math.max(maxId, Number(log.id));
  });
  tallies.set(FIRST, 1);
  tallies.set(NEXT, logs.length + 1);
  tallies.set(NEXT_ID, Math.max(maxId, logs.length) + 1);
  return out;
}

export type ActivityLogMap = CowMap<ActivityLog>;
