// One pager for every paged list (users, contacts, company members, tag counts), so page maths and
// the absolute `next` link behave the same everywhere.

import { apiError } from './errors.js';

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PageLink {
  /** scheme://host[:port] of the request: `next` must point back at the server the client used. */
  origin: string;
  path: string;
  /** The request's own query; every parameter is carried into `next`, with `page` replaced. */
  query: Record<string, unknown>;
}

export interface Pages {
  type: 'pages';
  page: number;
  per_page: number;
  total_pages: number;
  /** The next page's absolute URL; null on the last page (the real API's and every client fixture's form: Python's client reads the key whenever `type` is there). */
  next: string | null;
}

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 60;

/** A list that knows its length and can give a slice without being built whole. */
export interface Listing<T> {
  total: number;
  slice(start: number, end: number): T[];
}

export const listingOf = <T>(items: readonly T[]): Listing<T> => ({ total: items.length, slice: (start, end) => items.slice(start, end) });

export function paginate<T>(items: readonly T[] | Listing<T>, req: PageRequest, link: PageLink): { items: T[]; pages: Pages } {
  const listing = Array.isArray(items) ? listingOf(items as readonly T[]) : (items as Listing<T>);
  const totalPages = Math.ceil(listing.total / req.perPage);
  const start = (req.page - 1) * req.perPage;
  const pages: Pages = { type: 'pages', page: req.page, per_page: req.perPage, total_pages: totalPages, next: req.page < totalPages ? pageUrl(link, req.page + 1) : null };
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, every listing's slice past its end is empty (the check spares the call)
  return { items: start >= listing.total ? [] : listing.slice(start, start + req.perPage), pages };
}

function pageUrl(link: PageLink, page: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(link.query)) {
    if (value === undefined) continue;
    // Skipped, not replaced by set() below: set() keeps a sent page where it stood, and next puts it last.
    if (key === 'page') continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  params.set('page', String(page));
  return `${link.origin}${link.path}?${params.toString()}`;
}

/** How deep the lists that have a scroll may be paged (the real API's limit; surface U4). */
export const MAX_PAGED_RECORDS = 10_000;

/**
 * page and per_page of a list the real API pages only to its first 10,000 records (users, leads,
 * companies): deeper is a 400 that points to the scroll.
 */
export function scrollablePageRequestOf(query: Record<string, unknown>): PageRequest {
  const req = pageRequestOf(query);
  if ((req.page - 1) * req.perPage >= MAX_PAGED_RECORDS) {
    throw apiError('bad_request', 'page limit reached, please use scroll API', 'page');
  }
  return req;
}

/** page and per_page of a validated query (the route's schema has already checked the ranges). */
export function pageRequestOf(query: Record<string, unknown>): PageRequest {
  return {
    page: typeof query.page === 'number' ? query.page : 1,
    perPage: typeof query.per_page === 'number' ? query.per_page : DEFAULT_PER_PAGE,
  };
}
