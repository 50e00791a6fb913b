// Bench rows of issue 13: a page in the middle of a filtered list (GET /users?tag_id=, ?segment_id=,
// ?sort=, a tag or segment with sort or created_since, GET /companies?tag_id=) on a 100,000-customer app against the same request on a 100-customer app; the target is
// the big app within SCALE_BOUND (2x) of the small one. In-process (createApp + app.request, no socket): the
// time is the server's, from the request to the last byte of the answer. The two apps are seeded
// alike (one tag, one user segment, hand-made users; a company for every four users, each with one
// lead, so the company list has them while user pages carry no company); pages hold the same number of users (per_page
// 20, the middle page of each app's list); requests alternate between the apps, and each row is
// the median over every request of every round. The users are hand-made and alike (same members, ids
// of one width, the same custom attributes), so a page of one app serialises like a page of the
// other and the rows compare the lists, not the records (generated users differ in size).
//
// `npx tsx test/bench/filtered-list.ts [--rounds N]` prints the table; `filteredLists()` returns the
// rows for run.ts.

import { MAX_PAGED_RECORDS } from '../../src/core/pagination.js';
import { pathToFileURL } from 'node:url';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { createStore } from '../../src/setup.js';
import { REFERENCE_TIME } from '../../src/fixtures/normalize.js';
import { pairedRow, SCALE_BOUND, timedGet, type PairedRow } from './paired-pages.js';

export const SIZES = { small: 100, big: 100_000 } as const;
const PER_PAGE = 20;
const REQUESTS_PER_ROUND = 200;
const SEGMENT = 'benchsegment0001';

export type FilteredListRow = PairedRow;

const pad = (i: number) => String(i).padStart(6, '0');

/** Companies per app: one for every four users, all holding the tag, alike. */
const companiesOf = (n: number) => Math.max(1, Math.floor(n / 4));
const companyId = (i: number) => `c0bench00000000000${pad(i)}`;
const company = (i: number, n: number) => ({
  id: companyId(i),
  company_id: `company-${pad(i)}`,
  name: `Company ${pad(i)}`,
  created_at: REFERENCE_TIME - n + i,
  updated_at: REFERENCE_TIME - n + i,
  last_request_at: REFERENCE_TIME - n + i,
  tags: ['1'],
});

/** The i-th company's one lead, so it is listed (users hold no company: their pages stay alike across sizes). */
const lead = (i: number, n: number) => ({
  type: 'contact' as const,
  id: `bench00000000000lead${pad(i)}`.slice(-24),
  user_id: `8a7c6b2e-0000-4000-8000-${String(i).padStart(12, '0')}`,
  created_at: REFERENCE_TIME - n + i,
  updated_at: REFERENCE_TIME - n + i,
  companies: [companyId(i)],
});

/** The i-th of n alike users: two in three hold the tag, two in three are in the segment. */
const user = (i: number, n: number) => ({
  id: `bench0000000000000${pad(i)}`,
  user_id: `user-${pad(i)}`,
  email: `user-${pad(i)}@example.com`,
  name: `User ${pad(i)}`,
  created_at: REFERENCE_TIME - n + i,
  updated_at: REFERENCE_TIME - n + i,
  last_request_at: REFERENCE_TIME - n + i,
  tags: i % 3 === 2 ? [] : ['1'],
  segments: i % 3 === 0 ? [] : [SEGMENT],
  custom_attributes: { plan_tier: 'pro', seats: 5 },
});

const QUERIES: readonly { request: string; query: string; list?: 'companies' }[] = [
  { request: 'GET /users?tag_id=', query: 'tag_id=1' },
  { request: 'GET /users?segment_id=', query: `segment_id=${SEGMENT}` },
  { request: 'GET /users?sort=updated_at', query: 'sort=updated_at' },
  { request: 'GET /users?tag_id=&sort=updated_at', query: 'tag_id=1&sort=updated_at' },
  { request: 'GET /users?segment_id=&created_since=', query: `segment_id=${SEGMENT}&created_since=10000` },
  { request: 'GET /companies?tag_id=', query: 'tag_id=1', list: 'companies' },
];

export async function filteredLists(options: { rounds?: number } = {}): Promise<FilteredListRow[]> {
  const rounds = options.rounds ?? 10;
  const store = createStore({ seed: 1, clock: new Clock({ start: REFERENCE_TIME + 86_400, frozen: true }) });
  const app = createApp({ store, log: () => undefined });
  const apps = Object.entries(SIZES).map(([name, users]) => {
    const token = `${name}-bench-token`;
    store.seedApp(
      {
        app: { id: `bench-${name}`, tokens: [token], rate_limit_per_minute: 1_000_000_000 },
        tags: [{ id: '1', name: 'Bench tag' }],
        segments: [{ id: SEGMENT, name: 'Bench segment', person_type: 'user' }],
        companies: Array.from({ length: companiesOf(users) }, (_, i) => company(i, users)),
        customers: [...Array.from({ length: users }, (_, i) => user(i, users)), ...Array.from({ length: companiesOf(users) }, (_, i) => lead(i, users))],
      },
      'replace',
    );
    return { name, headers: { authorization: `Bearer ${token}` } };
  });
  const get = timedGet<Record<string, unknown> & { total_count: number }>(app);

  const rows: FilteredListRow[] = [];
  for (const { request, query, list = 'users' } of QUERIES) {
    const plan = await Promise.all(
      apps.map(async (a) => {
        const total = (await get(`/${list}?${query}&per_page=1`, a.headers)).body.total_count;
        // The middle page, or the deepest a list serves (it pages only to record 10,000).
        const page = Math.max(1, Math.min(Math.ceil(total / PER_PAGE / 2), Math.floor(MAX_PAGED_RECORDS / PER_PAGE)));
        const path = `/${list}?${query}&per_page=${PER_PAGE}&page=${page}`;
        const first = await get(path, a.headers);
        const items = first.body[list] as unknown[];
        if (items.length !== PER_PAGE) throw new Error(`${path} on ${a.name}: ${items.length} ${list}, not a full page`);
        return { ...a, total, page, path };
      }),
    );
    rows.push(await pairedRow(request, plan, { rounds, perRound: REQUESTS_PER_ROUND, get }));
  }
  return rows;
}

export function formatFilteredRows(rows: readonly FilteredListRow[]): string {
  const lines = [
    `| request (per_page ${PER_PAGE}, middle page) | 100 customers ms | 100,000 customers ms | ratio | members (small / big), page read | target ≤ ${SCALE_BOUND} |`,
    '|---|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| \`${r.request}\` | ${r.smallMs.toFixed(3)} | ${r.bigMs.toFixed(3)} | ${r.ratio.toFixed(3)} | ${r.small.total} p${r.small.page} / ${r.big.total} p${r.big.page} | ${r.ratio <= SCALE_BOUND ? 'PASS' : 'MISS'} |`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--rounds');
  const rounds = i >= 0 ? Number(process.argv[i + 1]) : 10;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) throw new Error('--rounds must be an integer from 1 to 100');
  process.stdout.write(`${formatFilteredRows(await filteredLists({ rounds }))}\n`);
}
