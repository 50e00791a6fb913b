// Counts computed from the live state on every request, so a write is reflected at once.

import { apiError, badChoice, missing } from '../../core/errors.js';
import { DEFAULT_PER_PAGE, paginate, type PageLink, type Pages } from '../../core/pagination.js';
import type { AppState } from '../../state/app-state.js';
import { tally, tallyKey } from './tallies.js';

export type CountType = 'company' | 'user';
export type CountKind = 'segment' | 'tag' | 'user';

/** One `{name: n}` entry; company user counts also carry the company's client-assigned id. */
export interface CountEntry {
  name: string;
  count: number;
  remote_company_id?: string;
}

export interface AppTotals {
  company: number;
  segment: number;
  tag: number;
  user: number;
  lead: number;
}

export interface CountQuery {
  type?: unknown;
  count?: unknown;
  page?: number;
  per_page?: number;
}

export type CountResult =
  | { kind: 'totals'; totals: AppTotals }
  | { kind: 'count'; type: CountType; count: CountKind; entries: CountEntry[]; pages?: Pages };

/** GET /counts: the app totals, or one count; only company tag counts are paged. */
export function counts(app: AppState, query: CountQuery, link: PageLink): CountResult {
  const req = countRequest(query.type, query.count);
  const paged = req?.type === 'company' && req.count === 'tag';
  // Paging what is not paged would be a parameter silently ignored.
  for (const key of paged ? [] : (['page', 'per_page'] as const)) {
    if (query[key] !== undefined) throw apiError('bad_request', `${key} pages only type=company&count=tag; this count is not paged.`, key);
  }
  if (!req) return { kind: 'totals', totals: appTotals(app) };
  const entries = countEntries(app, req.type, req.count);
  if (!paged) return { kind: 'count', ...req, entries };
  const { items, pages } = paginate(entries, { page: query.page ?? 1, perPage: query.per_page ?? DEFAULT_PER_PAGE }, link);
  return { kind: 'count', ...req, entries: items, pages };
}

const KINDS: Record<CountType, readonly CountKind[]> = { company: ['segment', 'tag', 'user'], user: ['segment', 'tag'] };

/** Checks the type/count pair; both absent means the app totals (returns null). */
export function countRequest(rawType: unknown, rawCount: unknown): { type: CountType; count: CountKind } | null {
  // An empty parameter (`type=`) is as good as an absent one.
  const type = rawType === '' ? undefined : rawType;
  const count = rawCount === '' ? undefined : rawCount;
  if (type === undefined && count === undefined) return null;
  if (type === undefined) throw missing('type', 'type is a required parameter.');
  if (type !== 'company' && type !== 'user') throw badChoice('type', ['company', 'user', 'conversation']);
  if (count === undefined) throw missing('count', 'count is a required parameter.');
  if (!(KINDS[type] as readonly unknown[]).includes(count)) throw badChoice('count', KINDS[type], `with type=${type} `);
  return { type, count: count as CountKind };
}

export function appTotals(app: AppState): AppTotals {
  const d = app.data;
  return { company: d.companies.size, segment: d.segments.size, tag: d.tags.size, user: tally(app, tallyKey.type('user')), lead: tally(app, tallyKey.type('contact')) };
}

/**
 * Read from the running tallies the writes keep (AppState), so a count costs the number of tags,
 * segments or companies listed, never the number of customers.
 */
export function countEntries(app: AppState, type: CountType, kind: CountKind): CountEntry[] {
  if (type === 'company' && kind === 'user') {
    // A company's users are its users and leads, as GET /companies/{id}/users lists them.
    return [...app.data.companies.values()].map((co) => ({ name: co.name, count: tally(app, tallyKey.people(co.id)), remote_company_id: co.company_id }));
  }
  if (kind === 'tag') return [...app.data.tags.values()].map((t) => ({ name: t.name, count: tally(app, tallyKey.tag(type, t.id)) }));
  // Only the segments that group this kind of record.
  return [...app.data.segments.values()].filter((s) => s.person_type === type).map((s) => ({ name: s.name, count: tally(app, tallyKey.segment(type, s.id)) }));
}
