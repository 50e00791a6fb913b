// Bench row of issue 13: archiving a user (DELETE /users/{id}) on a 100,000-customer app against a
// 100-customer app, target within SCALE_BOUND (2x). In-process (createApp + createStore, app.request): each
// sample is the time of one DELETE, request to response text; the user is then brought back by
// POST /users (not timed), so both apps keep their size. Archives alternate between the apps
// request by request (one on each app, which first alternating), and the ratio is the median of
// the paired ratios, so a collection or a noisy neighbour taxes both alike.
//
// `npx tsx test/bench/archive-scale.ts [--rounds N]` prints the row; `archiveScale()` returns it for run.ts.
// `--after-change` prints the rows of `afterChange()` instead (reads after a change, below).

import { MAX_PAGED_RECORDS } from '../../src/core/pagination.js';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { createStore } from '../../src/setup.js';
import { REFERENCE_TIME } from '../../src/fixtures/normalize.js';
import { median } from './lib.js';
import { SCALE_BOUND } from './paired-pages.js';

export interface ArchiveScaleRow {
  /** Median ms of one archive, on the small and on the big app. */
  smallMs: number;
  bigMs: number;
  /** Median of the paired ratios big / small (one pair per archive, back to back): the target is <= SCALE_BOUND. */
  ratio: number;
  rounds: number;
  perRound: number;
}

const SIZES = { small: 100, big: 100_000 } as const;
const companyOf = (k: number) => `c0bench0000000000000000${String(k).padStart(2, '0')}`.slice(-24);
const PER_ROUND = 100;

export async function archiveScale(options: { rounds?: number } = {}): Promise<ArchiveScaleRow> {
  const rounds = options.rounds ?? 15;
  const store = createStore({ seed: 1, clock: new Clock({ start: REFERENCE_TIME + 86_400, frozen: true }) });
  const app = createApp({ store, log: () => undefined });
  const call = async (method: string, path: string, token: string | null, body?: unknown) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const res = await app.request(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as Record<string, any>;
  };
  const ids: Record<keyof typeof SIZES, string[]> = { small: [], big: [] };
  for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
    const id = `archive-${size}`;
    // Alike hand-made users (same members and sizes at both sizes, each with an email, the tag and
    // one of 20 companies), so the row compares the archive, not records of different sizes.
    const n = SIZES[size];
    store.seedApp(
      {
        app: { id, tokens: [`${id}-token`], rate_limit_per_minute: 1_000_000_000 },
        tags: [{ id: '1', name: 'all' }],
        companies: Array.from({ length: 20 }, (_, k) => ({ id: companyOf(k), company_id: `company-${k}`, name: `Company ${k}` })),
        customers: Array.from({ length: n }, (_, i) => ({ ...alike(i, n), email: `user-${i}@example.com`, companies: [companyOf(i % 20)] })),
      },
      'replace',
    );
    // Users spread over the list: ten from each of ten pages from the first to the last it serves
    // (lists page only to record 10,000).
    const pages = Math.min(Math.ceil(SIZES[size] / 60), Math.floor(MAX_PAGED_RECORDS / 60));
    const picks = Math.min(pages, 10);
    for (let k = 0; k < picks; k++) {
      const page = 1 + Math.floor((k * (pages - 1)) / Math.max(1, picks - 1));
      const users = (await call('GET', `/users?per_page=60&page=${page}`, `${id}-token`)).users as { id: string }[];
      ids[size].push(...users.slice(0, Math.ceil(PER_ROUND / picks)).map((u) => u.id));
    }
    ids[size] = ids[size].slice(0, PER_ROUND);
  }
  const archiveOnce = async (size: keyof typeof SIZES, id: string): Promise<number> => {
    const token = `archive-${size}-token`;
    const start = performance.now();
    await call('DELETE', `/users/${id}`, token);
    const ms = performance.now() - start;
    await call('POST', '/users', token, { id });
    return ms;
  };
  // Request by request, alternating which app goes first, so the machine's load (other processes,
  // collections) falls on both alike; each pair gives one ratio. Round 0 is the warm-up.
  const samples: Record<keyof typeof SIZES, number[]> = { small: [], big: [] };
  const ratios: number[] = [];
  for (let r = 0; r <= rounds; r++) {
    for (let k = 0; k < PER_ROUND; k++) {
      const order = (r + k) % 2 === 0 ? (['small', 'big'] as const) : (['big', 'small'] as const);
      const pair: Partial<Record<keyof typeof SIZES, number>> = {};
      for (const size of order) pair[size] = await archiveOnce(size, ids[size][k % ids[size].length] as string);
      if (r === 0) continue;
      samples.small.push(pair.small as number);
      samples.big.push(pair.big as number);
      ratios.push((pair.big as number) / (pair.small as number));
    }
  }
  const smallMs = median(samples.small);
  const bigMs = median(samples.big);
  return { smallMs, bigMs, ratio: median(ratios), rounds, perRound: PER_ROUND };
}

export function formatArchiveRow(row: ArchiveScaleRow): string {
  return `DELETE /users/{id} (archive), ${row.rounds} rounds of ${row.perRound} paired archives: 100 customers ${row.smallMs.toFixed(3)} ms, 100k customers ${row.bigMs.toFixed(3)} ms (medians), median paired ratio ${row.ratio.toFixed(3)} (target <= ${SCALE_BOUND}: ${row.ratio <= SCALE_BOUND ? 'PASS' : 'MISS'})`;
}


// --- reads after a change (issue: no request walks the app) ---------------------------------------
// Each sample makes a change (not timed: an archive, or a write the limit rejects after it wrote a
// company), times one read that the change used to send on a walk of the app, then undoes the
// change (not timed). `npx tsx test/bench/archive-scale.ts --after-change [--rounds N]`.

export interface AfterChangeRow {
  request: string;
  smallMs: number;
  bigMs: number;
  ratio: number;
}

/** Alike hand-made users, all holding tag 1, oldest first. */
const alike = (i: number, n: number) => ({
  type: 'user' as const,
  id: `bench0000000000000${String(i).padStart(6, '0')}`,
  user_id: `user-${i}`,
  created_at: REFERENCE_TIME - n + i,
  updated_at: REFERENCE_TIME - n + i,
  tags: ['1'],
});

export async function afterChange(options: { rounds?: number } = {}): Promise<AfterChangeRow[]> {
  const samples = options.rounds ?? 30;
  const apps = Object.entries(SIZES).map(([name, n]) => {
    const clock = new Clock({ start: REFERENCE_TIME + 86_400, frozen: true });
    const store = createStore({ seed: 1, clock });
    store.seedApp({ app: { id: 'after', tokens: ['after-token'], rate_limit_per_minute: 1_000_000_000 }, tags: [{ id: '1', name: 'all' }], customers: Array.from({ length: n }, (_, i) => alike(i, n)) }, 'replace');
    // At the customer limit, so creating one is refused after its new company was written.
    (store.limits as { customers: number }).customers = n;
    const app = createApp({ store, log: () => undefined });
    const call = async (method: string, path: string, body?: unknown) => {
      const headers = { authorization: 'Bearer after-token', 'content-type': 'application/json' };
      const res = await app.request(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: res.status, text: await res.text() };
    };
    return { name, n, clock, call, victim: alike(Math.floor(n / 2), n).id };
  });
  type App = (typeof apps)[number];
  // The deepest page within the 10,000 records a list may be paged to (page 500 of 20), or page 3 of 5.
  const deep = (a: App) => Math.min(a.n / 20 - 2, 500);
  const archive = async (a: App) => {
    if ((await a.call('DELETE', `/users/${a.victim}`)).status !== 200) throw new Error('archive failed');
  };
  const unarchive = async (a: App) => {
    if ((await a.call('POST', '/users', { id: a.victim })).status !== 200) throw new Error('unarchive failed');
  };
  const rows: { request: string; path: (a: App) => string; before: (a: App) => Promise<void>; after: (a: App) => Promise<void> }[] = [
    { request: 'GET /users?tag_id=1&per_page=20&order=desc after an archive', path: () => '/users?tag_id=1&per_page=20&order=desc', before: archive, after: unarchive },
    { request: 'GET /users?tag_id=1&per_page=20&page=(3 or 500) after an archive', path: (a) => `/users?tag_id=1&per_page=20&page=${deep(a)}`, before: archive, after: unarchive },
    { request: 'GET /users?per_page=20&page=(3 or 500) after an archive', path: (a) => `/users?per_page=20&page=${deep(a)}`, before: archive, after: unarchive },
    {
      request: 'GET /users/scroll (open) after an archive',
      path: () => '/users/scroll',
      before: archive,
      after: async (a) => {
        a.clock.advance(61);
        await unarchive(a);
      },
    },
    {
      request: 'GET /users?sort=updated_at&per_page=20 after a rejected write',
      path: () => '/users?sort=updated_at&per_page=20',
      before: async (a) => {
        const res = await a.call('POST', '/users', { user_id: 'one-too-many', companies: [{ company_id: 'new-co', name: 'New' }] });
        if (res.status !== 403) throw new Error(`expected a refusal, got ${res.status}`);
      },
      after: async () => undefined,
    },
  ];
  // The order index is first built with every seeded user present, as a running app's is: a seeded
  // user archived before it was ever built has no rank yet, and its return costs one rebuild.
  for (const a of apps) await a.call('GET', `/users?per_page=20&page=${deep(a)}`);
  const out: AfterChangeRow[] = [];
  for (const row of rows) {
    const times: Record<string, number[]> = { small: [], big: [] };
    for (let s = 0; s <= samples; s++) {
      for (const a of s % 2 === 0 ? apps : [...apps].reverse()) {
        await row.before(a);
        const start = performance.now();
        const res = await a.call('GET', row.path(a));
        const ms = performance.now() - start;
        if (res.status !== 200) throw new Error(`${row.path(a)} → ${res.status} ${res.text.slice(0, 200)}`);
        if (s > 0) times[a.name]?.push(ms);
        await row.after(a);
      }
    }
    const smallMs = median(times.small ?? []);
    const bigMs = median(times.big ?? []);
    out.push({ request: row.request, smallMs, bigMs, ratio: bigMs / smallMs });
  }
  return out;
}

export const formatAfterChangeRows = (rows: readonly AfterChangeRow[]): string =>
  ['| request | 100 customers ms | 100,000 customers ms | ratio |', '|---|---:|---:|---:|', ...rows.map((r) => `| \`${r.request}\` | ${r.smallMs.toFixed(3)} | ${r.bigMs.toFixed(3)} | ${r.ratio.toFixed(2)} |`)].join('\n');

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--rounds');
  const rounds = i >= 0 ? Number(process.argv[i + 1]) : process.argv.includes('--after-change') ? 30 : 15;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 1000) throw new Error('--rounds must be an integer from 1 to 1000');
  if (process.argv.includes('--after-change')) process.stdout.write(`${formatAfterChangeRows(await afterChange({ rounds }))}\n`);
  else process.stdout.write(`${formatArchiveRow(await archiveScale({ rounds }))}\n`);
}
