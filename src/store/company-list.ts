// GET /companies without company_id: the list (C1), by tag or segment (C2) and by name (C3).
// Like the real API's list, companies with no users or leads are left out, and the list is sorted
// by last_request_at, newest first (nulls last), ties by id. The plain list reads a slice of a
// sorted index the writes keep (sorted-index.ts); a filtered one sorts the tag's or segment's
// companies, never the app's.

import { apiError } from '../core/errors.js';
import { listingOf, type Listing } from '../core/pagination.js';
import type { AppState } from './app-state.js';
import type { Order } from './customer-filters.js';
import { allHolders, holderKey } from './memberships.js';
import { SortedIndex } from './sorted-index.js';
import type { Company } from './types.js';

export interface CompanyFilter {
  tag_id?: string;
  segment_id?: string;
  order?: Order;
}

const hasUsers = (app: AppState) => (c: Company) => app.tally(`people:${c.id}`) > 0;

function byLastRequest(a: Company, b: Company): number {
  const ka = a.last_request_at;
  const kb = b.last_request_at;
  if (ka !== kb) return ka === null ? -1 : kb === null ? 1 : ka - kb;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function listCompanies(app: AppState, f: CompanyFilter): Listing<Company> {
  if (f.tag_id !== undefined && f.segment_id !== undefined) {
    throw apiError('bad_request', 'tag_id and segment_id cannot be combined in one request.', 'segment_id');
  }
  const companies = app.data.companies;
  const read = (id: string) => companies.get(id) as Company;
  const desc = (f.order ?? 'desc') === 'desc';
  const label = f.tag_id !== undefined ? holderKey('company', 't', f.tag_id) : f.segment_id !== undefined ? holderKey('company', 's', f.segment_id) : undefined;
  if (label !== undefined) {
    const items = allHolders(app.holderMaps(), label).map(read).filter(hasUsers(app)).sort(byLastRequest);
    return listingOf(desc ? items.reverse() : items);
  }
  const index = app.sorted.get('company:last_request_at', () =>
    new SortedIndex<Company>((c) => c.last_request_at, hasUsers(app)).build(companies.values()),
  );
  return { total: index.length, slice: (start, end) => index.slice(start, end, desc).map(read) };
}

/** C3: the company of that name (exact); several: the most recently updated, then the highest id. */
export function companyByName(app: AppState, name: string): Company {
  let best: Company | undefined;
  for (const id of allHolders(app.holderMaps(), holderKey('company', 'n', name))) {
    const c = app.data.companies.get(id) as Company;
    if (best === undefined || c.updated_at > best.updated_at || (c.updated_at === best.updated_at && c.id > best.id)) best = c;
  }
  if (best === undefined) throw apiError('company_not_found', 'Company Not Found');
  return best;
}
