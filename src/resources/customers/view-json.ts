// Serialised customer views for the single-record reads (GET /users/{id}, /contacts/{id}), reused
// while nothing the view shows has changed. Records are replaced, never mutated, so "unchanged" is
// identity: the same customer record, read in the same app, whose companies, tags and segments are
// still the same records. Serialising is most of what such a read costs; checking is a few lookups.
//
// One cache for the process, bounded (oldest entries leave first), keyed by record: apps that share
// seeded records share nothing else here, as an entry is only used for the app that made it.

import type { AppState } from '../../state/app-state.js';
import type { Customer } from '../../engine/types.js';
import { customerView } from './view.js';
import { JsonText } from '../../views/json-text.js';

interface Entry {
  app: AppState;
  /** The company, tag and segment records the view showed, in the order it read them. */
  shown: unknown[];
  json: JsonText;
}

/** Most views kept (a typical view is ~1.3 KB of text)... */
export const CUSTOMER_JSON_CACHE_SIZE = 4096;
/** ...and most characters of view text kept, since a view with 250 long custom attributes is ~70 KB. */
export const CUSTOMER_JSON_CACHE_CHARS = 8 * 1024 * 1024;

const entries = new Map<Customer, Entry>();
let chars = 0;

function evictOldest(): void {
  const oldest = entries.entries().next();
  if (oldest.done === true) return;
  entries.delete(oldest.value[0]);
  chars -= oldest.value[1].json.text.length;
}

function shownRecords(app: AppState, c: Customer): unknown[] {
  const out: unknown[] = [];
  for (const id of c.companies) out.push(app.data.companies.get(id));
  for (const id of c.tags) out.push(app.data.tags.get(id));
  for (const id of c.segments) out.push(app.data.segments.get(id));
  return out;
}

function stillShown(app: AppState, c: Customer, shown: readonly unknown[]): boolean {
  const now = shownRecords(app, c);
  return now.every((record, i) => record === shown[i]);
}

/** The customer's view as JSON text, serialised again only when something it shows has changed. */
export function customerJson(app: AppState, c: Customer): JsonText {
  const hit = entries.get(c);
  if (hit !== undefined && hit.app === app && stillShown(app, c, hit.shown)) return hit.json;
  const json = new JsonText(JSON.stringify(customerView(app, c)));
  if (hit !== undefined) {
    entries.delete(c);
    chars -= hit.json.text.length;
  }
  while (entries.size > 0 && (entries.size >= CUSTOMER_JSON_CACHE_SIZE || chars + json.text.length > CUSTOMER_JSON_CACHE_CHARS)) evictOldest();
  entries.set(c, { app, shown: shownRecords(app, c), json });
  chars += json.text.length;
  return json;
}

/** Views and characters held now (for tests of the bounds). */
export const customerJsonCacheUse = (): { views: number; chars: number } => ({ views: entries.size, chars });
