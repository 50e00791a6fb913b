// The list filters of GET /users and GET /contacts beyond the lookups: tag_id or segment_id (the
// holders' index, memberships.ts), created_since (days, on the mock's clock), sort and order (the
// sorted indexes, sorted-index.ts). No list walks the app: a page reads a slice of an index, the
// tag's or segment's holders in their own order (up to the page's end), or a sorted index of the
// type's whole list or of the tag's or segment's holders when sorted or limited by created_since.

import { apiError } from '../../core/errors.js';
import { listingOf, type Listing } from '../../core/pagination.js';
import type { AppState } from '../../state/app-state.js';
import { listCustomers } from './rules.js';
import { allHolders, holderKey, holderMaps, seededHolderMaps, holders, type Label } from '../cross-resource/memberships.js';
import { SortedIndex } from '../../engine/sorted-index.js';
import type { Customer, CustomerType } from '../../engine/types.js';

export const SORT_KEYS = ['created_at', 'last_request_at', 'signed_up_at', 'updated_at'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type Order = 'asc' | 'desc';

export interface ListFilter {
  tag_id?: string;
  segment_id?: string;
  /** Days: customers created at most this long ago. */
  created_since?: number;
  sort?: SortKey;
  order?: Order;
}

const DAY = 86_400;

/** The filter members of a validated list query; tag_id and segment_id together are a 400. */
export function listFilterOf(query: Record<string, unknown>): ListFilter {
  const out: ListFilter = {};
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, an absent member set to undefined is absent to every reader
  if (typeof query.tag_id === 'string') out.tag_id = query.tag_id;
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, an absent member set to undefined is absent to every reader
  if (typeof query.segment_id === 'string') out.segment_id = query.segment_id;
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, an absent member set to undefined is absent to every reader
  if (typeof query.created_since === 'number') out.created_since = query.created_since;
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, an absent member set to undefined is absent to every reader
  if (typeof query.sort === 'string') out.sort = query.sort as SortKey;
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, an absent member set to undefined is absent to every reader
  if (typeof query.order === 'string') out.order = query.order as Order;
  if (out.tag_id !== undefined && out.segment_id !== undefined) {
    throw apiError('bad_request', 'tag_id and segment_id cannot be combined in one request.', 'segment_id');
  }
  return out;
}

/** A listing read backwards. */
export function reversed<T>(l: Listing<T>): Listing<T> {
  return { total: l.total, slice: (start, end) => l.slice(Math.max(0, l.total - end), Math.max(0, l.total - start)).reverse() };
}

/**
 * `order` defaults to desc (the documented default) whenever `sort` is sent; without `sort` a list
 * keeps its own order (oldest first, or the order the holders got the tag) and desc reverses it.
 */
const descending = (f: ListFilter): boolean => f.order === 'desc' || (f.order === undefined && f.sort !== undefined);

const keyOf = (sort: SortKey) => (c: Customer): number | null => c[sort];

// An index's key and filter are made here, outside any request: an index kept as a seeded base's
// template (SortedIndexes.over) outlives the request, and must hold nothing of its app.
const typeIndex = (type: CustomerType, key: SortKey): SortedIndex<Customer> => new SortedIndex<Customer>(keyOf(key), (c) => c.type === type);

function labelIndex(type: CustomerType, key: SortKey, label: Label, id: string): SortedIndex<Customer> {
  const holds = label === 't' ? (c: Customer) => c.tags.includes(id) : (c: Customer) => c.segments.includes(id);
  return new SortedIndex<Customer>(keyOf(key), (c) => c.type === type && holds(c));
}

function compareBy(sort: SortKey): (a: Customer, b: Customer) => number {
  return (a, b) => {
    const ka = a[sort];
    const kb = b[sort];
    if (ka !== kb) return ka === null ? -1 : kb === null ? 1 : ka - kb;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/** Customers of `type` as the filter says (no user_id/email lookup: see `refine`). */
export function filteredCustomers(app: AppState, type: CustomerType, f: ListFilter, now: number): Listing<Customer> {
  const customers = app.data.customers;
  const read = (id: string) => customers.get(id) as Customer;
  const label: [Label, string] | undefined = f.tag_id !== undefined ? ['t', f.tag_id] : f.segment_id !== undefined ? ['s', f.segment_id] : undefined;
  const since = f.created_since === undefined ? undefined : now - f.created_since * DAY;
  if (f.sort === undefined && since === undefined) {
    const listing = label === undefined ? listCustomers(app, type) : holders(holderMaps(app), holderKey(type, ...label), read);
    return descending(f) ? reversed(listing) : listing;
  }
  // Indexes are kept only for labels the app holds, so requests naming unknown ones keep nothing.
  if (label !== undefined && !labelExists(app, label)) return listingOf([]);
  const sort = f.sort ?? 'created_at';
  // One index per list and key: the type's whole list, or one tag's or segment's holders of the type
  // (built from the holders' index, never the app), kept by the writes from then on.
  const indexBy = (key: SortKey): SortedIndex<Customer> =>
    label === undefined
      ? app.sorted.over(`customer:${type}`, key, customers, () => typeIndex(type, key), () => customers.seeded.values())
      : app.sorted.over(
          `customer:${type}:${label[0]}:${label[1]}`,
          key,
          customers,
          () => labelIndex(type, key, label[0], label[1]),
          // The seeded base's holders: the template reads no other record.
          () => allHolders(seededHolderMaps(app), holderKey(type, ...label)).map((id) => customers.seeded.get(id) as Customer),
        );
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent, reading the created_at index and sorting by the key gives what the key's index gives, at another cost
  if (since !== undefined && sort !== 'created_at') {
    // created_since is about created_at whatever the sort: the customers created since, read from
    // the created_at index, sorted by the key asked: O(k log k) in the k customers it keeps.
    const byCreation = indexBy('created_at');
    const items = byCreation.slice(byCreation.countBelow(since), byCreation.length, false).map(read).sort(compareBy(sort));
    return listingOf(descending(f) ? items.reverse() : items);
  }
  const index = indexBy(sort);
  return sortedListing(index, since === undefined ? 0 : index.countBelow(since), descending(f), read);
}

/** Whether the tag or segment a list names is one of the app's. */
export const labelExists = (app: AppState, [kind, id]: [Label, string]): boolean => (kind === 't' ? app.data.tags : app.data.segments).has(id);

/** A sorted index read as a list: past its first `skip` entries (created_since), either way. */
export function sortedListing<T extends { id: string }>(index: SortedIndex<T>, skip: number, desc: boolean, read: (id: string) => T): Listing<T> {
  const total = index.length - skip;
  return {
    total,
    slice: (start, end) => {
      const stop = Math.min(end, total);
      const ids = desc ? index.slice(start, stop, true) : index.slice(skip + start, skip + stop, false);
      return ids.map(read);
    },
  };
}

/** The filter applied to a short list: an email's customers (`customersWithEmail`), oldest first. */
export function refine(listing: Listing<Customer>, f: ListFilter, now: number): Listing<Customer> {
  const since = f.created_since === undefined ? undefined : now - f.created_since * DAY;
  let items = listing.slice(0, listing.total).filter(
    (c) =>
      (f.tag_id === undefined || c.tags.includes(f.tag_id)) &&
      (f.segment_id === undefined || c.segments.includes(f.segment_id)) &&
      (since === undefined || c.created_at >= since),
  );
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent when the sort is forced, a short list (an email's customers) is oldest first already
  if (f.sort !== undefined || since !== undefined) items = items.sort(compareBy(f.sort ?? 'created_at'));
  if (descending(f)) items.reverse();
  return listingOf(items);
}
