// Bench row (a) of issue 12: for each write endpoint, the worst requests an app token can send at
// the body limit (1 MiB), and how long each one blocked the event loop. Run against an in-process
// app (createApp + createStore, app.request): the measure is the longest stretch with no turn of
// the event loop while the request is handled (a setImmediate ticker records the largest gap
// between its turns), so body reading, parsing, validation, the write, serialisation and any
// garbage collection on the way all count. Each request runs on a fresh provisioned app (a new
// `test_` token, provisioned before the clock starts), after one warm-up round.
//
// `npx tsx test/bench/worst-writes.ts [--rounds N]` prints the table, PASS when the median block is
// within the 50 ms target, next to JSON.parse alone on the same body (the floor any Node server
// pays); `worstWrites()` returns the rows for run.ts.

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import {
  MAX_ATTACHMENTS,
  MAX_COMPANIES_PER_WRITE,
  MAX_CUSTOM_ATTRIBUTES,
  MAX_TAG_TARGETS,
} from '../../src/schemas/fields.js';
import { createStore } from '../../src/setup.js';
import { REFERENCE_TIME } from '../../src/fixtures/normalize.js';

export const BODY_LIMIT = 1024 * 1024;
export const TARGET_MS = 50;

export interface WorstWriteRow {
  endpoint: string;
  request: string;
  /** Status the request was answered with (the worst requests include refused ones). */
  status: number;
  bodyBytes: number;
  /** Median over the rounds of the longest event-loop block while the request was handled. */
  blockedMs: number;
  /** The largest over the rounds. */
  maxBlockedMs: number;
  /** Median time of JSON.parse alone on the same body, in the same rounds: the floor no server avoids. */
  parseMs: number;
}

const GROUP = '5714dd359a3fd47136000501';
const LONG_CONVERSATION = '5714dd359a3fd47136000503';
const VISITOR_USER_ID = '3f0b3a6c-7f6d-4d5e-9d2b-7a1c5e8f9a01';

interface Case {
  method: string;
  path: string;
  request: string;
  /** The body, given the user_ids and company_ids the app holds. */
  body(known: Known): unknown;
}

interface Known {
  userIds: string[];
  companyIds: string[];
}

const bytes = (body: unknown): number => Buffer.byteLength(JSON.stringify(body));

/** The largest n in [1, max] for which make(n) stays within the body limit. */
function largest(make: (n: number) => unknown, max = 1_000_000): number {
  let lo = 1;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (bytes(make(mid)) <= BODY_LIMIT) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const members = (n: number, prefix: string): Record<string, number> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));

/** `base` plus as many members the schema does not list (and so ignores) as fit in the limit. */
function padded(base: Record<string, unknown>): Record<string, unknown> {
  const make = (n: number) => ({ ...base, ...members(n, 'ignored_') });
  return make(largest(make));
}

/** Custom attributes as long as the rules allow (190-character names, 255-character values). */
function longAttributes(count: number, tag: string): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`${tag}${i}_`.padEnd(190, 'n'), 'v'.repeat(255)]));
}

/** The companies of one customer write at the cap, each with as many custom attributes as fit. */
function fullCompanies(): { company_id: string; custom_attributes: Record<string, string> }[] {
  const make = (n: number) =>
    Array.from({ length: MAX_COMPANIES_PER_WRITE }, (_, i) => ({
      company_id: `worst-${i}`,
      custom_attributes: Object.fromEntries(Array.from({ length: n }, (_, j) => [`a${j}`, 'v'.repeat(20)])),
    }));
  return make(largest((n) => ({ user_id: 'worst', custom_attributes: longAttributes(MAX_CUSTOM_ATTRIBUTES, 'u'), companies: make(n) }), MAX_CUSTOM_ATTRIBUTES));
}

/** A customer write at the limit: every custom attribute at full length, and the companies at their cap, filled. */
const fullCustomerWrite = (identity: Record<string, unknown>) => ({
  ...identity,
  custom_attributes: longAttributes(MAX_CUSTOM_ATTRIBUTES, 'u'),
  companies: fullCompanies(),
});

/** A list far over its cap (refused by the validator), as long as the limit allows. */
function overCap(base: Record<string, unknown>, key: string, item: (i: number) => unknown): Record<string, unknown> {
  const make = (n: number) => ({ ...base, [key]: Array.from({ length: n }, (_, i) => item(i)) });
  return make(largest(make));
}

const tagTargets = (known: Known) => ({
  name: 'worst',
  users: Array.from({ length: MAX_TAG_TARGETS }, (_, i) => ({ user_id: known.userIds[i % known.userIds.length] })),
  companies: Array.from({ length: MAX_TAG_TARGETS }, (_, i) => ({ company_id: known.companyIds[i % known.companyIds.length] })),
});

export const CASES: readonly Case[] = [
  { method: 'POST', path: '/users', request: `250 full-length custom attributes + ${MAX_COMPANIES_PER_WRITE} companies with custom attributes`, body: () => fullCustomerWrite({ user_id: 'worst' }) },
  { method: 'POST', path: '/users', request: 'companies far over the cap (refused)', body: () => overCap({ user_id: 'worst' }, 'companies', (i) => ({ company_id: `c${i}` })) },
  { method: 'POST', path: '/users', request: 'custom_attributes far over the cap (refused)', body: () => {
    const make = (n: number) => ({ user_id: 'worst', custom_attributes: members(n, 'attr_') });
    return make(largest(make));
  } },
  { method: 'POST', path: '/users', request: '1 MiB of members the schema ignores', body: () => padded({ user_id: 'worst' }) },
  { method: 'POST', path: '/contacts', request: `250 full-length custom attributes + ${MAX_COMPANIES_PER_WRITE} companies with custom attributes`, body: () => fullCustomerWrite({}) },
  { method: 'POST', path: '/visitors', request: `250 full-length custom attributes + ${MAX_COMPANIES_PER_WRITE} companies with custom attributes`, body: () => fullCustomerWrite({ user_id: VISITOR_USER_ID }) },
  { method: 'POST', path: '/visitors/convert', request: 'merge a visitor into a user + 1 MiB of ignored members', body: () => padded({ type: 'user', visitor: { user_id: VISITOR_USER_ID }, user: { user_id: 'ada-1' } }) },
  { method: 'POST', path: '/companies', request: '250 full-length custom attributes + ignored members to 1 MiB', body: () => padded({ company_id: 'worst', custom_attributes: longAttributes(MAX_CUSTOM_ATTRIBUTES, 'c') }) },
  { method: 'POST', path: '/tags', request: `${MAX_TAG_TARGETS} users + ${MAX_TAG_TARGETS} companies (every record of the app, repeated)`, body: tagTargets },
  { method: 'POST', path: '/tags', request: 'users far over the cap (refused)', body: () => overCap({ name: 'worst' }, 'users', (i) => ({ user_id: `u${i}` })) },
  {
    method: 'POST',
    path: `/conversations/${LONG_CONVERSATION}/reply`,
    request: `65,535-character body + ${MAX_ATTACHMENTS} 2,048-character URLs, on the 620-part conversation`,
    body: () => ({
      type: 'admin',
      admin_id: '814860',
      message_type: 'note',
      body: `<p>${'x'.repeat(65_528)}</p>`,
      attachment_urls: Array.from({ length: MAX_ATTACHMENTS }, (_, i) => `https://files.example.com/${i}/`.padEnd(2048, 'f')),
    }),
  },
  { method: 'POST', path: `/conversations/${GROUP}/customers`, request: 'a new lead by email + 1 MiB of ignored members', body: () => padded({ admin_id: '814860', customer: { email: 'worst@example.com' } }) },
];

/** The longest gap between turns of the event loop while `run` is under way, in ms. */
export async function longestBlock(run: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const tick = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await run();
  } finally {
    running = false;
  }
  return Math.max(longest, performance.now() - last);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/** Runs every case `rounds` times (after a warm-up round) and returns one row per case. */
export async function worstWrites(options: { rounds?: number } = {}): Promise<WorstWriteRow[]> {
  const rounds = options.rounds ?? 5;
  const store = createStore({ seed: 1, clock: new Clock({ start: REFERENCE_TIME + 86_400, frozen: true }) });
  const app = createApp({ store, log: () => undefined });
  let n = 0;
  const fresh = async (): Promise<string> => {
    const token = `test_worst_${n++}`;
    await app.request('/admins', { headers: { authorization: `Bearer ${token}` } });
    return token;
  };
  const demo = store.exportApp('demo');
  const known: Known = {
    userIds: demo.customers.filter((c) => c.type !== 'visitor' && c.user_id !== null).map((c) => c.user_id as string),
    companyIds: demo.companies.map((c) => c.company_id),
  };
  const rows: WorstWriteRow[] = [];
  for (const c of CASES) {
    const text = JSON.stringify(c.body(known));
    if (Buffer.byteLength(text) > BODY_LIMIT) throw new Error(`${c.method} ${c.path}: body over the limit`);
    const times: number[] = [];
    const parses: number[] = [];
    let status = 0;
    for (let round = 0; round <= rounds; round++) {
      const token = await fresh();
      const init = { method: c.method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: text };
      const ms = await longestBlock(async () => {
        const res = await app.request(c.path, init);
        status = res.status;
        await res.text();
      });
      const start = performance.now();
      JSON.parse(text);
      const parse = performance.now() - start;
      if (round > 0) {
        times.push(ms);
        parses.push(parse);
      }
    }
    rows.push({ endpoint: `${c.method} ${c.path.replace(/\/[0-9a-f]{24}\//, '/{id}/')}`, request: c.request, status, bodyBytes: Buffer.byteLength(text), blockedMs: median(times), maxBlockedMs: Math.max(...times), parseMs: median(parses) });
  }
  return rows;
}

export function formatRows(rows: readonly WorstWriteRow[]): string {
  const lines = [
    `| endpoint | worst request (body ≤ 1 MiB) | status | body KiB | blocked ms (median / max) | JSON.parse alone ms | target ≤ ${TARGET_MS} ms |`,
    '|---|---|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    lines.push(`| \`${r.endpoint}\` | ${r.request} | ${r.status} | ${(r.bodyBytes / 1024).toFixed(0)} | ${r.blockedMs.toFixed(1)} / ${r.maxBlockedMs.toFixed(1)} | ${r.parseMs.toFixed(1)} | ${r.blockedMs <= TARGET_MS ? 'PASS' : 'MISS'} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--rounds');
  const rounds = i >= 0 ? Number(process.argv[i + 1]) : 5;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) throw new Error('--rounds must be an integer from 1 to 100');
  const rows = await worstWrites({ rounds });
  process.stdout.write(`${formatRows(rows)}\n`);
}
