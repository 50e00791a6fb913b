// The scroll API (surface U4, L3, C4): one scroll slot per app, shared by users, leads and
// companies. Opening takes the list order as it stands (the order index's arrays and their length,
// never a copy: the index only appends to them or marks entries dead, and shifts entries only in
// copies once a scroll holds them), so writes
// during a scroll do not shift its pages; each page reads the next 100 records still present from
// there. The slot is replaced, never mutated, so a snapshot keeps it.

import { apiError, invalid } from '../../core/errors.js';
import type { AppState } from '../../state/app-state.js';
import type { Company, Customer } from '../../engine/types.js';

export type ScrollKind = 'user' | 'contact' | 'company';

export interface ScrollSlot {
  readonly kind: ScrollKind;
  readonly param: string;
  /** The list order when the scroll opened: only its first `end` ids belong to the scroll. */
  readonly ids: readonly string[];
  /** 1 where an entry of `ids` had left the order (customers/order.ts): its id may be listed again further on. */
  readonly dead?: readonly number[] | undefined;
  /** Each id's rank in the customer order (customers only), so a page reads seeded records in base order. */
  readonly ranks?: readonly (number | null)[] | undefined;
  readonly end: number;
  /** Index in `ids` of the next record to read. */
  readonly position: number;
  /** When it was last used, on the mock's clock (Unix seconds). */
  readonly usedAt: number;
}

export const SCROLL_PAGE_SIZE = 100;
/** A scroll not used for this long has expired (the real API's "1 minute"). */
export const SCROLL_IDLE_SECONDS = 60;

export const SCROLL_EXPIRED_MESSAGE = 'scroll_param is invalid or has expired';

const isLive = (slot: ScrollSlot | null, now: number): slot is ScrollSlot => slot !== null && now - slot.usedAt < SCROLL_IDLE_SECONDS;

function open(app: AppState, kind: ScrollKind, now: number): ScrollSlot {
  if (isLive(app.scroll, now)) throw apiError('scroll_exists', 'scroll already exists for this app');
  const { ids, dead, keys } = kind === 'company' ? { ids: app.companyOrder.ids(app.data.companies), dead: undefined, keys: undefined } : app.order.held(app.data.customers, kind);
  return { kind, param: app.random.uuid(), ids, dead, ranks: keys, end: ids.length, position: 0, usedAt: now };
}

function resume(app: AppState, kind: ScrollKind, param: string, now: number): ScrollSlot {
  const slot = app.scroll;
  // A param of another resource's scroll names no scroll of this one.
  if (!isLive(slot, now) || slot.param !== param || slot.kind !== kind) throw invalid('scroll_param', SCROLL_EXPIRED_MESSAGE);
  return slot;
}

/** The record behind an id (of rank `rank`, for customers), if it is still in the app and still of the scroll's kind. */
function recordOf(app: AppState, kind: ScrollKind, id: string, rank: number | null | undefined): Customer | Company | undefined {
  if (kind === 'company') return app.data.companies.get(id);
  // getAt answers as get for any place (at a wrong one it asks the hash table), so no rank is no place.
  const c = app.data.customers.getAt(id, rank ?? -1);
  return c?.type === kind ? c : undefined;
}

/**
 * One page of a scroll: opens one without `param`, continues it with one. An empty page ends the
 * scroll and frees the app's slot; every other page extends the scroll's life by a minute.
 */
export function scrollPage(app: AppState, kind: ScrollKind, param: string | undefined, now: number): { items: (Customer | Company)[]; param: string } {
  const slot = param === undefined ? open(app, kind, now) : resume(app, kind, param, now);
  const items: (Customer | Company)[] = [];
  let i = slot.position;
  // Records removed (or of another type now) since the scroll opened are skipped, each once.
  for (; i < slot.end && items.length < SCROLL_PAGE_SIZE; i++) {
    if (slot.dead?.[i] === 1) continue;
    const record = recordOf(app, kind, slot.ids[i] as string, slot.ranks?.[i]);
    if (record !== undefined) items.push(record);
  }
  app.scroll = items.length === 0 ? null : { ...slot, position: i, usedAt: now };
  return { items, param: slot.param };
}
