// The webhook feeds recounted from their entries, for the tests that check the running tally
// (src/resources/subscriptions/feeds.ts) against it: a walk of every entry, which the mock itself never needs.

import type { AppState } from '../src/state/app-state.js';
import { entryBytes } from '../src/resources/subscriptions/bytes.js';

/** The feeds' bytes and entries recounted, and the entries the app-wide log holds. */
export function recountFeeds(app: AppState): { bytes: number; entries: number; logged: number } {
  let bytes = 0;
  let entries = 0;
  for (const feeds of app.data.webhookFeeds.values()) {
    for (const e of [...feeds.sent, ...feeds.error]) {
      bytes += entryBytes(e);
      entries++;
    }
  }
  return { bytes, entries, logged: app.data.feedLog.size };
}
