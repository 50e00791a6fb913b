// One pager for every paged list (users, contacts, company members, tag counts), so page maths and
// the absolute `next` link behave the same everywhere.

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
  next?: string;
}

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 60;

export function paginate<T>(items: readonly T[], req: PageRequest, link: PageLink): { items: T[]; pages: Pages } {
  const totalPages = Math.ceil(items.length / req.perPage);
  const start = (req.page - 1) * req.perPage;
  const pages: Pages = { type: 'pages', page: req.page, per_page: req.perPage, total_pages: totalPages };
  if (req.page < totalPages) pages.next = pageUrl(link, req.page + 1);
  return { items: items.slice(start, start + req.perPage), pages };
}

function pageUrl(link: PageLink, page: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(link.query)) {
    if (key === 'page' || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  params.set('page', String(page));
  return `${link.origin}${link.path}?${params.toString()}`;
}

/** page and per_page of a validated query (the route's schema has already checked the ranges). */
export function pageRequestOf(query: Record<string, unknown>): PageRequest {
  return {
    page: typeof query.page === 'number' ? query.page : 1,
    perPage: typeof query.per_page === 'number' ? query.per_page : DEFAULT_PER_PAGE,
  };
}
