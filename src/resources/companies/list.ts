// GET /companies without company_id: the list (C1), by tag or segment (C2) and by name (C3).
// Like the real API's list, companies with no users or leads are left out, and the list is sorted
// by last_request_at, newest first (nulls last), ties by id. Every list reads a slice of a sorted
// index the writes keep (sorted-index.ts): the whole list's, or one per tag or segment, built once
// from its holders, never from the app's companies.

import { apiError } from '../../core/errors.js';
import { listingOf, type Listing } from '../../core/pagination.js';
import type { AppState } from '../../state/app-state.js';
import { labelExists, type Order } from '../customers/filters.js';
import { allHolders, holderKey, holderMaps, type Label } from '../cross-resource/memberships.js';
import { SortedIndex } from '../../engine/sorted-index.js';
import type { Company } from '../../engine/types.js';
import { seededTally, tally, tallyKey } from '../counts/tallies.js';
import { COMPANY_LIST } from './collections.js';

export interface CompanyFilter {
  tag_id?: string;
  segment_id?: string;
  order?: Order;
}

const hasUsers = (app: AppState) => (c: Company) => tally(app, tallyKey.people(c.id)) > 0;

export function listCompanies(app: AppState, f: CompanyFilter): Listing<Company> {
  if (f.tag_id !== undefined && f.segment_id !== undefined) {
    throw apiError('bad_request', 'tag_id and segment_id cannot be combined in one request.', 'segment_id');
  }
  const companies = app.data.companies;
  const read = (id: string) => companies.get(id) as Company;
  const desc = (f.order ?? 'desc') === 'desc';
  const withUsers = hasUsers(app);
  const label: [Label, string] | undefined = f.tag_id !== undefined ? ['t', f.tag_id] : f.segment_id !== undefined ? ['s', f.segment_id] : undefined;
  if (label !== undefined && !labelExists(app, label)) return listingOf([]);
  // One index for the whole list and one per tag or segment asked for (built from its holders),
  // kept by company writes and by customers joining or leaving companies.
  const index =
    label === undefined
      ? app.sorted.fromBase(
          COMPANY_LIST,
          // Stryker disable next-line StringLiteral: equivalent, the key only names the index within its group, which holds no other
          'last_request_at',
          {
            // The base's companies with users in the base: no count the app changed since is read.
            seeded: () => new SortedIndex<Company>(lastRequest, (c) => seededTally(app, tallyKey.people(c.id)) > 0).build(companies.seeded.values()),
            make: () => new SortedIndex<Company>(lastRequest, withUsers),
            // Stryker disable next-line ArrowFunction: equivalent, an app's state always stands on a base (its seed, a reset, a snapshot of one), so its list is never sorted from the records
            records: () => companies.values(),
            current: (id) => companies.get(id),
          },
        )
      : app.sorted.get(
          `company:${label[0]}:${label[1]}`,
          // Stryker disable next-line StringLiteral: equivalent, as above
          'last_request_at',
          () => {
            const holds = label[0] === 't' ? (c: Company) => c.tags.includes(label[1]) : (c: Company) => c.segments.includes(label[1]);
            return new SortedIndex<Company>(lastRequest, (c) => withUsers(c) && holds(c)).build(allHolders(holderMaps(app), holderKey('company', ...label)).map(read));
          },
        );
  return { total: index.length, slice: (start, end) => index.slice(start, end, desc).map(read) };
}

const lastRequest = (c: Company): number | null => c.last_request_at;

/** C3: the company of that name (exact); several: the most recently updated, then the highest id. */
export function companyByName(app: AppState, name: string): Company {
  const best = companyNamed(app, name);
  if (best === undefined) throw apiError('company_not_found', 'Company Not Found');
  return best;
}

/** The company C3 answers for a name, or undefined when none has it. */
export function companyNamed(app: AppState, name: string): Company | undefined {
  let best: Company | undefined;
  for (const id of allHolders(holderMaps(app), holderKey('company', 'n', name))) {
    const c = app.data.companies.get(id) as Company;
    const newer = best === undefined || c.updated_at > best.updated_at;
    const tie = best !== undefined && c.updated_at === best.updated_at;
    const tieWon = tie && c.id > (best as Company).id;
    if (newer || tieWon) best = c;
  }
  return best;
}
