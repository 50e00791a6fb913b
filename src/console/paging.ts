// Paging of the console's control-plane lists: offset and limit (at most MAX_CONSOLE_LIMIT), the
// total and the next offset. Every list reads one page of an index or a bounded scan, so a
// 100k-customer app never travels whole to the browser.

import type { CowMap } from '../engine/cow.js';
import type { Listing } from '../core/pagination.js';
import { int, nullable, openObj, type Schema } from '../schemas/json-schema.js';
import { appParam } from '../admin/target.js';

export const MAX_CONSOLE_LIMIT = 100;
export const DEFAULT_CONSOLE_LIMIT = 50;

export const offsetParam = int({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Where the page starts (0 is the first record)' });
export const limitParam = int({ minimum: 1, maximum: MAX_CONSOLE_LIMIT, default: DEFAULT_CONSOLE_LIMIT, description: `Records per page, at most ${MAX_CONSOLE_LIMIT}` });

/** `?app=&offset=&limit=` plus the list's own parameters. */
export const pagedQuery = (extra: Record<string, Schema> = {}) => openObj({ app: appParam, offset: offsetParam, limit: limitParam, ...extra });

/** The members every paged answer carries beside its items. */
export const pageProps: Record<string, Schema> = {
  total: int({ minimum: 0 }),
  next_offset: nullable(int({ minimum: 0, description: 'Offset of the next page; null on the last' })),
};

export interface Page<T> {
  items: T[];
  total: number;
  next_offset: number | null;
}

export interface PageRequest {
  offset: number;
  limit: number;
}

export function pageRequest(query: Record<string, unknown>): PageRequest {
  return {
    offset: typeof query.offset === 'number' ? query.offset : 0,
    limit: typeof query.limit === 'number' ? query.limit : DEFAULT_CONSOLE_LIMIT,
  };
}

export function pageOf<T>(listing: Listing<T>, { offset, limit }: PageRequest): Page<T> {
  const end = offset + limit;
  return { items: offset >= listing.total ? [] : listing.slice(offset, end), total: listing.total, next_offset: end < listing.total ? end : null };
}

/**
 * A map's keys in its order, cached per version of the map: paging tags or segments costs a slice,
 * and one walk after each change of the map. Weak, so a reset or restore (a new map) drops it.
 */
const keyOrder = new WeakMap<CowMap<unknown>, { version: number; ids: readonly string[] }>();

export function keysOf<V>(map: CowMap<V>): Listing<V> {
  let known = keyOrder.get(map as CowMap<unknown>);
  if (known === undefined || known.version !== map.version) {
    known = { version: map.version, ids: [...map.keys()] };
    keyOrder.set(map as CowMap<unknown>, known);
  }
  const ids = known.ids;
  return { total: ids.length, slice: (start, end) => ids.slice(start, end).map((id) => map.get(id) as V) };
}
