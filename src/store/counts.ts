// Counts computed from the live state on every request, so a write is reflected at once.

import { apiError, missing } from '../core/errors.js';
import { DEFAULT_PER_PAGE, paginate, type PageLink, type Pages } from '../core/pagination.js';
import type { AppState } from './app-state.js';
import type { Customer } from './types.js';

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
  if (!req) return { kind: 'totals', totals: appTotals(app) };
  const entries = countEntries(app, req.type, req.count);
  if (req.type !== 'company' || req.count !== 'tag') return { kind: 'count', ...req, entries };
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
  if (type !== 'company' && type !== 'user') throw apiError('bad_request', "bad 'type' parameter", 'type');
  if (count === undefined) throw missing('count', 'count is a required parameter.');
  if (!(KINDS[type] as readonly unknown[]).includes(count)) throw apiError('bad_request', "bad 'count' parameter", 'count');
  return { type, count: count as CountKind };
}

export function appTotals(app: AppState): AppTotals {
  let user = 0;
  let lead = 0;
  for (const c of app.data.customers.values()) {
    if (c.type === 'user') user++;
    else if (c.type === 'contact') lead++;
  }
  return { company: app.data.companies.size, segment: app.data.segments.size, tag: app.data.tags.size, user, lead };
}

export function countEntries(app: AppState, type: CountType, kind: CountKind): CountEntry[] {
  if (type === 'company') {
    const companies = [...app.data.companies.values()];
    if (kind === 'user') {
      return companies.map((co) => ({ name: co.name, count: people(app.membersOf(co.id)), remote_company_id: co.company_id }));
    }
    return kind === 'tag' ? byTag(app, companies) : bySegment(app, 'company', companies);
  }
  const users = [...app.data.customers.values()].filter((c) => c.type === 'user');
  return kind === 'tag' ? byTag(app, users) : bySegment(app, 'user', users);
}

// A company's users are its users and leads, as GET /companies/{id}/users lists them.
const people = (members: readonly Customer[]): number => members.filter((c) => c.type !== 'visitor').length;

function tally(records: readonly { tags?: readonly string[]; segments?: readonly string[] }[], key: 'tags' | 'segments'): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of records) for (const id of r[key] ?? []) out.set(id, (out.get(id) ?? 0) + 1);
  return out;
}

function byTag(app: AppState, records: readonly { tags: readonly string[] }[]): CountEntry[] {
  const counts = tally(records, 'tags');
  return [...app.data.tags.values()].map((t) => ({ name: t.name, count: counts.get(t.id) ?? 0 }));
}

/** Only the segments that group this kind of record. */
function bySegment(app: AppState, personType: 'user' | 'company', records: readonly { segments: readonly string[] }[]): CountEntry[] {
  const counts = tally(records, 'segments');
  return [...app.data.segments.values()].filter((s) => s.person_type === personType).map((s) => ({ name: s.name, count: counts.get(s.id) ?? 0 }));
}
