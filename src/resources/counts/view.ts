// Wire shapes of GET /counts: app totals (count.hash) and the count objects of spec 2.2.

import type { Pages } from '../../core/pagination.js';
import type { AppTotals, CountEntry, CountKind, CountResult, CountType } from './rules.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { companyCount, userCount } from './shapes.js';

export function totalsView(t: AppTotals) {
  return {
    type: 'count.hash' as const,
    company: { count: t.company },
    segment: { count: t.segment },
    tag: { count: t.tag },
    user: { count: t.user },
    lead: { count: t.lead },
  };
}

// Computed keys define own properties, so a tag named `__proto__` is still just a key.
const entryView = (e: CountEntry): Record<string, number | string> =>
  e.remote_company_id === undefined ? { [e.name]: e.count } : { [e.name]: e.count, remote_company_id: e.remote_company_id };

/**
 * Company counts always carry `pages`: nested at pages.pages for tag counts, empty otherwise.
 * User counts carry none, as the real API's did.
 */
export function countView(type: CountType, kind: CountKind, entries: readonly CountEntry[], pages?: Pages) {
  const body: Record<string, unknown> = { type: 'count', [type]: { [kind]: entries.map(entryView) } };
  if (type === 'company') body.pages = pages ? { pages } : {};
  // Built key by key (the type and the kind name its members), so the compiler cannot follow it;
  // the contract check of every test's answers holds it to the schema.
  return body as StaticOf<typeof companyCount> | StaticOf<typeof userCount>;
}

export const countsView = (r: CountResult) => (r.kind === 'totals' ? totalsView(r.totals) : countView(r.type, r.count, r.entries, r.pages));
