// `npm run bench [-- --quick] [-- --no-build] [-- --json FILE] [-- --scenarios KEY,KEY]`: the benchmark suite of issue 7
// (`--scenarios post-events,post-users`: only those rows of the load table, e.g. to compare one change).
//
// Builds (npm run build), then runs the mock from dist/ as its own process and, alternating with
// it in the same run, the bare Hono floor (bare-hono.ts) serving the same JSON, and loads both from
// this process with autocannon on 127.0.0.1 (10 connections, warm-up first, bounded in time).
// Prints one table (req/s, p50/p99 latency, server RSS per scenario), the scale, memory and start-up
// figures, and each target of the issue as PASS/MISS with the measured figure. Numbers, never
// assertions: the exit status says only whether the run itself worked. `--quick` finishes in under
// a minute. Every child process is killed at the end, on error and on Ctrl-C too.

import { availableParallelism, cpus, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ADA,
  bearer,
  build,
  call,
  callOk,
  DEMO_TOKEN,
  flag,
  fmt,
  load,
  main,
  mean,
  median,
  option,
  probeMemory,
  rssMiB,
  scratchDir,
  serverMs,
  sleep,
  startBare,
  startMock,
  startProbedMock,
  table,
  type LoadResult,
  type LoadSpec,
  type Server,
} from './lib.js';
import { CUSTOMER_JSON_CACHE_SIZE } from '../../src/resources/customers/view-json.js';
import { boundedUserWrites, captureBodies, scenarios, seedLimitedApp, userWrites } from './scenarios.js';
import { MAX_PAGED_RECORDS } from '../../src/core/pagination.js';
import { journalMemory } from './journal-memory.js';
import { formatRows, TARGET_MS, worstWrites } from './worst-writes.js';
import { filteredLists, formatFilteredRows } from './filtered-list.js';
import { conversationLists, formatConversationRows } from './conversation-list.js';
import { SCALE_BOUND } from './paired-pages.js';
import { formatScrollScale, scrollScale } from './scroll-scale.js';
import { archiveScale, formatArchiveRow } from './archive-scale.js';
import { bulkMemory, formatBulkMemory } from './bulk-memory.js';
import { eventBackdate, formatBackdate } from './event-backdate.js';

const quick = flag('--quick');
const CFG = quick
  ? { warm: 0.3, seconds: 1, rounds: 1, lookupRounds: 2, coldRuns: 5, rssSeconds: 15, resetRuns: 3, appCount: 1000 }
  : { warm: 1, seconds: 3, rounds: 3, lookupRounds: 6, coldRuns: 5, rssSeconds: 60, resetRuns: 5, appCount: 1000 };
const RAISED = ['--rate-limit', '1000000000'];
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const log = (s: string) => process.stderr.write(`[bench ${elapsed()}] ${s}\n`);

interface Row {
  label: string;
  server: string;
  rounds: LoadResult[];
  bad: number;
}

const rps = (r: Row) => mean(r.rounds.map((x) => x.rps));
const p50 = (r: Row) => median(r.rounds.map((x) => x.p50));
const p99 = (r: Row) => median(r.rounds.map((x) => x.p99));
const rss = (r: Row) => Math.max(...r.rounds.map((x) => x.rssPeak));
const noise = (r: Row) => Math.max(...r.rounds.map((x) => x.foreign));

function badCount(results: LoadResult[], expect: number[]): number {
  let bad = 0;
  for (const r of results) {
    bad += r.errors + r.timeouts;
    for (const [code, count] of Object.entries(r.statuses)) if (!expect.includes(Number(code))) bad += count;
  }
  return bad;
}

/** Warm-up, then `rounds` measured runs of each server, alternating which goes first. */
async function compare(
  pair: { name: string; server: Server; spec: LoadSpec }[],
  label: string,
  expect: number[],
  rounds = CFG.rounds,
  /** Run before every measured load (e.g. a full GC, so no collection left over from one row lands in the next). */
  settle?: (server: Server) => Promise<unknown>,
): Promise<Row[]> {
  for (const p of pair) await load(p.server, p.spec, CFG.warm);
  const rows = new Map<string, LoadResult[]>(pair.map((p) => [p.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? pair : [...pair].reverse();
    for (const p of order) {
      await settle?.(p.server);
      rows.get(p.name)?.push(await load(p.server, p.spec, CFG.seconds));
    }
  }
  return pair.map((p) => {
    const rounds = rows.get(p.name) ?? [];
    return { label, server: p.name, rounds, bad: badCount(rounds, expect) };
  });
}

// --- 1. the scenario table --------------------------------------------------------------------

/** `--scenarios KEY,KEY` (keys of scenarios.ts): only those rows of the table, printed alone. */
const only = option('--scenarios')?.split(',');

async function scenarioTable(): Promise<Row[]> {
  const mock = await startMock(RAISED);
  await seedLimitedApp(mock);
  const bodies = await captureBodies(mock);
  const bodiesFile = join(scratchDir(), 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const bare = await startBare(bodiesFile);
  const out: Row[] = [];
  try {
    for (const s of scenarios().filter((x) => only === undefined || only.includes(x.key))) {
      log(`scenario ${s.label}`);
      const pair = [
        { name: 'mock', server: mock, spec: s.spec },
        { name: 'bare hono', server: bare, spec: s.spec },
      ];
      out.push(...(await compare(pair, s.label, s.expect)));
    }
  } finally {
    await mock.stop();
    await bare.stop();
  }
  return out;
}

// --- 2. scale: fixture generation, reset, lookup at 100 vs 100k users --------------------------

interface Scale {
  /** `otherMaxMs`: the longest wait of another app's GET /admins, sent one after another while the seed ran. */
  generation: { users: number; roundTripMs: number; serverMs: number; otherMaxMs: number; otherCount: number }[];
  reset: { users: number; writes: number; roundTripMs: number; serverMs: number; allMs: number[] }[];
  lookup: Row[];
  lookupSizes: { small: number; big: number; uncached: number };
  listing: { what: string; small: number; big: number }[];
  rssAfterSeed: number;
}

function seedDoc(id: string, users: number) {
  return { app: { id, tokens: [`${id}-token`], rate_limit_per_minute: 1_000_000_000 }, generate: { users } };
}

/** Up to `want` user ids of an app, spread over all of it (read with the scroll: lists page only to 10,000 records). */
async function userIds(server: Server, token: string, total: number, want: number): Promise<string[]> {
  const all: string[] = [];
  let param = '';
  for (;;) {
    const reply = await callOk(`${server.url}/users/scroll${param ? `?scroll_param=${param}` : ''}`, { headers: bearer(token) });
    const body = JSON.parse(reply.text) as { users: { id: string }[]; scroll_param: string };
    if (body.users.length === 0) break;
    all.push(...body.users.map((u) => u.id));
    param = body.scroll_param;
  }
  const picks = Math.min(Math.ceil(total / 60), 5);
  const ids: string[] = [];
  for (let k = 0; k < picks; k++) {
    const at = Math.floor((k * Math.max(0, all.length - 60)) / Math.max(1, picks - 1));
    ids.push(...all.slice(at, at + Math.ceil(want / picks)));
  }
  return ids.slice(0, want);
}

/** The app's first `want` users, oldest first. */
async function firstUserIds(server: Server, token: string, want: number): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ids.length < want; page++) {
    const reply = await callOk(`${server.url}/users?per_page=60&page=${page}`, { headers: bearer(token) });
    const users = (JSON.parse(reply.text) as { users: { id: string }[] }).users;
    if (users.length === 0) break;
    ids.push(...users.map((u) => u.id));
  }
  return ids.slice(0, want);
}

/** More ids than the serialised-view cache holds, read in one order across connections: every read serialises afresh. */
const UNCACHED_IDS = CUSTOMER_JSON_CACHE_SIZE + 904;

async function scale(): Promise<Scale> {
  const mock = await startProbedMock(RAISED);
  try {
    const generation: Scale['generation'] = [];
    for (const [id, users] of [
      ['scale100', 100],
      ['scale10k', 10_000],
      ['scale100k', 100_000],
    ] as const) {
      log(`seeding ${users} users`);
      let seeded = false;
      const seeding = callOk(`${mock.url}/__admin/seed`, { method: 'POST', body: seedDoc(id, users), timeoutMs: 120_000 }).finally(() => (seeded = true));
      const waits: number[] = [];
      while (!seeded) waits.push((await callOk(`${mock.url}/admins`, { headers: bearer('demo-token') })).ms);
      const reply = await seeding;
      generation.push({ users, roundTripMs: reply.ms, serverMs: serverMs(reply), otherMaxMs: Math.max(0, ...waits), otherCount: waits.length });
    }
    const rssAfterSeed = rssMiB(mock.pid);

    log('reset timings');
    const reset: Scale['reset'] = [];
    // The issue's target: a reset at 100k users within 5 ms after 1,000 writes.
    const writes = 1_000;
    for (const [id, users] of [
      ['scale10k', 10_000],
      ['scale100k', 100_000],
    ] as const) {
      const token = `${id}-token`;
      const makeBody = userWrites(`reset-${id}`, 50);
      const trips: number[] = [];
      const server: number[] = [];
      for (let run = 0; run < CFG.resetRuns; run++) {
        let created: string | undefined;
        for (let w = 0; w < writes; w++) {
          const reply = await callOk(`${mock.url}/users`, { method: 'POST', headers: bearer(token), body: makeBody() });
          created ??= (JSON.parse(reply.text) as { user_id: string }).user_id;
        }
        const reply = await callOk(`${mock.url}/__admin/reset?app=${id}`, { method: 'POST' });
        trips.push(reply.ms);
        server.push(serverMs(reply));
        // The reset really happened: the first user this run created is gone.
        const check = await call(`${mock.url}/users?user_id=${created ?? ''}`, { headers: bearer(token) });
        if (check.status !== 404) throw new Error(`reset of ${id} left ${created} behind (${check.status})`);
      }
      reset.push({ users, writes, roundTripMs: median(trips), serverMs: median(server), allMs: trips });
    }

    log('lookup at 100 vs 100k users');
    const smallIds = await userIds(mock, 'scale100-token', 100, 100);
    const bigIds = await userIds(mock, 'scale100k-token', 100_000, 100);
    const uncachedIds = await firstUserIds(mock, 'scale100k-token', UNCACHED_IDS);
    let next = 0;
    const spec = (id: string, ids: string[]): LoadSpec => ({ requests: ids.map((x) => ({ method: 'GET', path: `/users/${x}`, headers: { ...bearer(`${id}-token`), accept: 'application/json' } })) });
    const lookup = await compare(
      [
        { name: '100 users', server: mock, spec: spec('scale100', smallIds) },
        { name: '100k users', server: mock, spec: spec('scale100k', bigIds) },
      ],
      'lookup',
      [200],
      // Rounds on this VM swing by ±10%: more of them, alternating,
      // each after a full GC (the server holds 110k seeded users; a major collection in progress
      // would tax whichever row it fell in).
      CFG.lookupRounds,
      probeMemory,
    );
    // Apart, after: its churn through the view cache (old-generation garbage) would land in the others' rounds.
    const uncached = await compare(
      [{ name: '100k users, uncached', server: mock, spec: { headers: bearer('scale100k-token'), makePath: () => `/users/${uncachedIds[next++ % uncachedIds.length] ?? ''}` } }],
      'lookup uncached',
      [200],
      CFG.rounds,
      probeMemory,
    );
    lookup.push(...uncached);

    // Requests that walk the whole app (informational): one at a time, median of 3, server-side.
    const timed = async (path: string, token: string) => {
      const ms: number[] = [];
      // Any answer: `?user_id=nobody` is a 404 that still walks the index.
      for (let i = 0; i < 3; i++) ms.push(serverMs(await call(`${mock.url}${path}`, { headers: bearer(token) })));
      return median(ms);
    };
    const listing: Scale['listing'] = [];
    // {deepest}: the last page a list serves (the last of the app, or the one ending at record 10,000).
    for (const path of ['/users/{id}', '/users?user_id=nobody', '/users?per_page=60', '/users?per_page=60&page={deepest}', '/counts', '/counts?type=user&count=tag']) {
      const at = (ids: string[], users: number) => path.replace('{id}', ids[0] ?? '').replace('{deepest}', String(Math.min(Math.ceil(users / 60), Math.floor(MAX_PAGED_RECORDS / 60))));
      listing.push({ what: `GET ${path}`, small: await timed(at(smallIds, 100), 'scale100-token'), big: await timed(at(bigIds, 100_000), 'scale100k-token') });
    }
    return { generation, reset, lookup, lookupSizes: { small: smallIds.length, big: bigIds.length, uncached: uncachedIds.length }, listing, rssAfterSeed };
  } finally {
    await mock.stop();
  }
}

// --- 3. memory of provisioned test apps -------------------------------------------------------

interface Apps {
  count: number;
  provisioned: number;
  rss: [number, number, number];
  heap: [number, number, number];
  firstRequestMs: number;
  demoRequestMs: number;
}

async function pool<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

async function testApps(): Promise<Apps> {
  const mock = await startProbedMock(RAISED);
  try {
    const n = CFG.appCount;
    const get = async (token: string) => {
      const reply = await call(`${mock.url}/users/${ADA}`, { headers: bearer(token) });
      if (reply.status !== 200) throw new Error(`GET /users/{id} with ${token}: ${reply.status} ${reply.text.slice(0, 200)}`);
      return reply;
    };
    const indexes = Array.from({ length: n }, (_, i) => i);
    // Warm-up, then the baseline: as many requests with one existing app's token.
    await pool(indexes.slice(0, 300), 10, async () => void (await get(DEMO_TOKEN)));
    const m0 = await probeMemory(mock);
    const r0 = rssMiB(mock.pid);
    const demoMs: number[] = [];
    await pool(indexes, 10, async () => void demoMs.push(serverMs(await get(DEMO_TOKEN))));
    const m1 = await probeMemory(mock);
    const r1 = rssMiB(mock.pid);
    const firstMs: number[] = [];
    await pool(indexes, 10, async (i) => void firstMs.push(serverMs(await get(`test_bench_app_${i}`))));
    const m2 = await probeMemory(mock);
    const r2 = rssMiB(mock.pid);
    const health = JSON.parse((await callOk(`${mock.url}/__admin/health`)).text) as { provisioned_apps: number };
    return {
      count: n,
      provisioned: health.provisioned_apps,
      rss: [r0, r1, r2],
      heap: [m0.heapUsed, m1.heapUsed, m2.heapUsed],
      firstRequestMs: median(firstMs),
      demoRequestMs: median(demoMs),
    };
  } finally {
    await mock.stop();
  }
}

// --- 4. cold start ----------------------------------------------------------------------------

async function firstOk(url: string, headers: Record<string, string>, t0: number, deadlineMs = 30_000): Promise<number> {
  for (;;) {
    try {
      const reply = await call(url, { headers, timeoutMs: 5_000 });
      if (reply.status === 200) return performance.now() - t0;
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > deadlineMs) throw new Error(`no 200 from ${url} within ${deadlineMs} ms`);
    await sleep(5);
  }
}

interface Cold {
  mock: number[];
  bare: number[];
  mockListening: number[];
  bareListening: number[];
}

async function coldStart(): Promise<Cold> {
  const out: Cold = { mock: [], bare: [], mockListening: [], bareListening: [] };
  for (let run = 0; run < CFG.coldRuns; run++) {
    for (const kind of run % 2 === 0 ? (['mock', 'bare'] as const) : (['bare', 'mock'] as const)) {
      const t0 = performance.now();
      const server = kind === 'mock' ? await startMock() : await startBare();
      try {
        // Default fixtures and flags; the first real API request (schemas compile on first use).
        const ms = await firstOk(`${server.url}/users/${ADA}`, bearer(DEMO_TOKEN), t0);
        out[kind].push(ms);
        out[kind === 'mock' ? 'mockListening' : 'bareListening'].push(server.listeningMs);
      } finally {
        await server.stop();
      }
    }
  }
  return out;
}

// --- 5. RSS under a long POST /users load -----------------------------------------------------

interface RssLoad {
  seconds: number;
  result: LoadResult;
  at10: number;
  end: number;
  peak: number;
  afterGc: { rss: number; heapUsed: number };
  customers: number;
}

async function rssUnderLoad(): Promise<RssLoad> {
  const mock = await startProbedMock(RAISED);
  try {
    const spec: LoadSpec = { method: 'POST', path: '/users', headers: bearer(DEMO_TOKEN), makeBody: boundedUserWrites('soak', 5000) };
    log(`RSS under ${CFG.rssSeconds} s of POST /users`);
    const result = await load(mock, spec, CFG.rssSeconds, { sampleMs: 1000 });
    const series = result.rssSeries.filter(([, r]) => Number.isFinite(r));
    const at10 = series.find(([t]) => t >= 10)?.[1] ?? NaN;
    const m = await probeMemory(mock);
    const totals = JSON.parse((await callOk(`${mock.url}/counts`, { headers: bearer(DEMO_TOKEN) })).text) as { user?: { count: number } };
    return { seconds: CFG.rssSeconds, result, at10, end: result.rssEnd, peak: result.rssPeak, afterGc: { rss: m.rss, heapUsed: m.heapUsed }, customers: totals.user?.count ?? NaN };
  } finally {
    await mock.stop();
  }
}

// --- report -----------------------------------------------------------------------------------

const ms = (x: number, d = 2) => `${fmt(x, d)} ms`;
const mib = (x: number) => `${fmt(x, 1)} MiB`;

/** The scenario table: each row, the mock's req/s as a multiple of the floor's. */
function scenarioLines(rows: Row[]): string {
  const floorOf = (label: string) => rows.find((r) => r.label === label && r.server === 'bare hono');
  return table(
    ['scenario', 'server', 'req/s', 'x floor', 'p50 ms', 'p99 ms', 'RSS MiB', 'bad', 'noise'],
    rows.map((r) => {
      const floor = floorOf(r.label);
      return [
        r.server === 'mock' ? r.label : '',
        r.server,
        fmt(rps(r)),
        r.server === 'mock' && floor ? fmt(rps(r) / rps(floor), 2) : '',
        fmt(p50(r), 2),
        fmt(p99(r), 2),
        fmt(rss(r), 0),
        String(r.bad),
        `${fmt(noise(r) * 100, 0)}%`,
      ];
    }),
  );
}

function verdict(ok: boolean): string {
  return ok ? 'PASS' : 'MISS';
}

await main(async () => {
  const machine = `${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${fmt(totalmem() / 2 ** 30, 1)} GiB, node ${process.version}, ${process.platform}`;
  log(`${quick ? 'quick' : 'full'} run on ${machine}`);
  let buildMs = NaN;
  if (!flag('--no-build')) {
    log('npm run build');
    buildMs = build();
  }

  const rows = await scenarioTable();
  if (only !== undefined) {
    process.stdout.write(`${scenarioLines(rows)}\n`);
    return;
  }
  const scaled = await scale();
  log(`memory of ${CFG.appCount} test apps`);
  const apps = await testApps();
  log('cold start');
  const cold = await coldStart();
  const soak = await rssUnderLoad();
  log('worst writes at the body limit');
  const worst = await worstWrites({ rounds: quick ? 2 : 5 });
  log('filtered list pages, 100 vs 100,000 customers');
  const filtered = await filteredLists({ rounds: quick ? 2 : 10 });
  log('filtered conversation list pages, 100 vs 10,000 conversations');
  const conversationRows = await conversationLists({ rounds: quick ? 2 : 10 });
  log('archive a user on 100 vs 100k customers');
  const archive = await archiveScale({ rounds: quick ? 5 : 15 });
  log(`journal memory (1,000 apps x ${quick ? 100 : 1000} requests, two child processes)`);
  const journal = await journalMemory({ requestsPerApp: quick ? 100 : 1000, log });
  log('scroll page, 100 vs 100k customers');
  const scroll = await scrollScale({ rounds: quick ? 2 : 5 });
  log('pending bulk items under the byte budget');
  const bulkMem = await bulkMemory();
  log('backdated events and bare before= cursors, 10 vs 100,000 events of one person');
  const backdate = await eventBackdate({ rounds: quick ? 10 : 50 });

  const lines: string[] = [];
  const say = (s = '') => lines.push(s);
  say();
  say(`messaging-api-mock benchmarks (${quick ? 'quick' : 'full'}): ${machine}`);
  say(`load: autocannon from this process, 10 connections, 127.0.0.1; ${CFG.warm} s warm-up, then ${CFG.rounds} x ${CFG.seconds} s per server, alternating mock / bare Hono`);
  say('req/s: mean of rounds; p50/p99: median of rounds (exact, from every response time); RSS: server peak during the runs;');
  say('bad: unexpected statuses + connection errors; noise: CPU used by other processes during the runs (% of one core, worst round; >10% skews the row)');
  say();
  const floorOf = (label: string) => rows.find((r) => r.label === label && r.server === 'bare hono');
  say(scenarioLines(rows));
  say();

  const [small, big, uncached] = scaled.lookup as [Row, Row, Row];
  say(
    `GET /users/{id} by app size (same server, ${CFG.lookupRounds} alternating rounds of ${CFG.seconds} s; ${scaled.lookupSizes.small} and ${scaled.lookupSizes.big} distinct ids cycled; ` +
      `then, on its own, "uncached": ${fmt(scaled.lookupSizes.uncached)} ids read in one sequence, more than the ${fmt(CUSTOMER_JSON_CACHE_SIZE)} serialised views kept, so every read serialises):`,
  );
  say(
    table(
      ['app', 'req/s', 'p50 ms', 'p99 ms', 'bad', 'noise'],
      [
        ['100 users', fmt(rps(small)), fmt(p50(small), 2), fmt(p99(small), 2), String(small.bad), `${fmt(noise(small) * 100, 0)}%`],
        ['100,000 users', fmt(rps(big)), fmt(p50(big), 2), fmt(p99(big), 2), String(big.bad), `${fmt(noise(big) * 100, 0)}%`],
        ['100,000 users, uncached', fmt(rps(uncached)), fmt(p50(uncached), 2), fmt(p99(uncached), 2), String(uncached.bad), `${fmt(noise(uncached) * 100, 0)}%`],
      ],
    ),
  );
  say();
  say('fixture generation (POST /__admin/seed with generate.users; server-side / round trip; another app\'s GET /admins meanwhile: the longest of N):');
  for (const g of scaled.generation) say(`  ${fmt(g.users).padStart(7)} users  ${ms(g.serverMs, 0).padStart(9)}  /  ${ms(g.roundTripMs, 0)}   other app: ${ms(g.otherMaxMs, 1)} of ${g.otherCount}`);
  say(`  server RSS with the 100 + 10k + 100k user apps loaded: ${mib(scaled.rssAfterSeed)}`);
  say();
  say(`POST /__admin/reset?app= after ${scaled.reset[0]?.writes ?? 0} POST /users writes (median of ${CFG.resetRuns}; server-side / round trip):`);
  for (const r of scaled.reset) say(`  ${fmt(r.users).padStart(7)} users  ${ms(r.serverMs, 3)}  /  ${ms(r.roundTripMs, 3)}   (round trips: ${r.allMs.map((x) => x.toFixed(2)).join(', ')})`);
  say();
  say('requests that walk the app (server-side ms, one at a time, median of 3): 100 users vs 100,000 users');
  say(table(['request', '100 users', '100k users'], scaled.listing.map((l) => [l.what, ms(l.small), ms(l.big)])));
  say();
  say(`memory of ${apps.count} provisioned test apps (first request with ${apps.count} distinct test_ tokens, GET /users/{id}):`);
  const rssApps = apps.rss[2] - apps.rss[1] - (apps.rss[1] - apps.rss[0]);
  const heapApps = apps.heap[2] - apps.heap[1] - (apps.heap[1] - apps.heap[0]);
  say(`  RSS ${mib(apps.rss[0])} -> ${mib(apps.rss[1])} after ${apps.count} requests on one app (baseline) -> ${mib(apps.rss[2])} after the ${apps.count} new apps`);
  say(`  apps cost ${mib(rssApps)} RSS (${fmt((rssApps * 1024) / apps.count, 1)} KiB each), ${mib(heapApps)} heap after GC (${fmt((heapApps * 1024) / apps.count, 1)} KiB each); ${apps.provisioned} apps alive`);
  say(`  server-side time of a provisioning first request ${ms(apps.firstRequestMs, 3)} vs ${ms(apps.demoRequestMs, 3)} on an existing app (medians)`);
  say();
  say(`cold start, default fixtures, spawn to first 200 of GET /users/{id} (median of ${CFG.coldRuns}; spawn to "listening" in brackets):`);
  say(`  mock       ${ms(median(cold.mock), 0)}  (${ms(median(cold.mockListening), 0)})   runs: ${cold.mock.map((x) => x.toFixed(0)).join(', ')}`);
  say(`  bare hono  ${ms(median(cold.bare), 0)}  (${ms(median(cold.bareListening), 0)})   runs: ${cold.bare.map((x) => x.toFixed(0)).join(', ')}`);
  say();
  const growth = soak.end - soak.at10;
  const series = soak.result.rssSeries.filter(([t]) => t >= 0);
  const step = Math.max(1, Math.floor(series.length / 12));
  say(`RSS under ${soak.seconds} s of POST /users (5,000 user_ids created then updated, custom attributes, enrichment jobs):`);
  say(`  ${fmt(soak.result.rps)} req/s (noise ${fmt(soak.result.foreign * 100, 0)}%), p99 ${ms(soak.result.p99)}, bad ${badCount([soak.result], [200])}; RSS at 10 s ${mib(soak.at10)}, end ${mib(soak.end)}, peak ${mib(soak.peak)}; after GC ${mib(soak.afterGc.rss)} RSS, ${mib(soak.afterGc.heapUsed)} heap; ${fmt(soak.customers)} users in the app`);
  say(`  RSS over time (s: MiB): ${series.filter((_, i) => i % step === 0 || i === series.length - 1).map(([t, r]) => `${t.toFixed(0)}: ${r.toFixed(0)}`).join(', ')}`);
  say();
  say('worst write an app token can send at the 1 MiB body limit, per endpoint (in-process, fresh test app per round; longest event-loop block):');
  say(formatRows(worst));
  say();
  say('a page in the middle of a filtered list, 100 vs 100,000 customers (in-process, server-side, median of every request):');
  say(formatFilteredRows(filtered));
  say();
  say('a page in the middle of a filtered conversation list, 100 vs 10,000 conversations (in-process, server-side, median of every request):');
  say(formatConversationRows(conversationRows));
  say(formatArchiveRow(archive));
  say();
  say(
    `journal memory: ${journal.apps} apps x ${journal.requestsPerApp} requests (URL ${fmt(journal.urlChars)} chars, body ${fmt(journal.bodyChars)} chars): ` +
      `peak RSS ${mib(journal.withJournal.peakRssMiB)} with the journal vs ${mib(journal.base.peakRssMiB)} without; journal holds ${mib(journal.withJournal.journalMiB)} in ${fmt(journal.withJournal.journalEntries)} entries`,
  );
  say();
  say(formatScrollScale(scroll));
  for (const line of formatBulkMemory(bulkMem)) say(line);
  for (const line of formatBackdate(backdate)) say(line);
  say();

  const getMock = rows.find((r) => r.label === 'GET /users/{id}' && r.server === 'mock') as Row;
  const getBare = floorOf('GET /users/{id}') as Row;
  const postMock = rows.find((r) => r.label.startsWith('POST /users') && r.server === 'mock') as Row;
  const postBare = rows.find((r) => r.label.startsWith('POST /users') && r.server === 'bare hono') as Row;
  const eventsMock = rows.find((r) => r.label.startsWith('POST /events') && r.server === 'mock') as Row;
  const eventsBare = floorOf(eventsMock.label) as Row;
  const convMock = rows.find((r) => r.label.startsWith('GET /conversations') && r.server === 'mock') as Row;
  const convBare = rows.find((r) => r.label.startsWith('GET /conversations') && r.server === 'bare hono') as Row;
  const reset100k = scaled.reset.find((r) => r.users === 100_000);
  const targets: [string, boolean, string][] = [
    ['GET /users/{id} >= 0.6x bare Hono req/s', rps(getMock) / rps(getBare) >= 0.6, `${fmt(rps(getMock) / rps(getBare), 2)}x (${fmt(rps(getMock))} vs ${fmt(rps(getBare))})`],
    ['GET /users/{id} p99 <= 3 ms', p99(getMock) <= 3, ms(p99(getMock))],
    ['POST /users >= 0.4x bare Hono POST', rps(postMock) / rps(postBare) >= 0.4, `${fmt(rps(postMock) / rps(postBare), 2)}x (${fmt(rps(postMock))} vs ${fmt(rps(postBare))})`],
    ['POST /events >= 0.4x bare Hono POST /events', rps(eventsMock) / rps(eventsBare) >= 0.4, `${fmt(rps(eventsMock) / rps(eventsBare), 2)}x (${fmt(rps(eventsMock))} vs ${fmt(rps(eventsBare))})`],
    ['GET /conversations/{id} (500 parts) >= 0.15x floor', rps(convMock) / rps(convBare) >= 0.15, `${fmt(rps(convMock) / rps(convBare), 2)}x (${fmt(rps(convMock))} vs ${fmt(rps(convBare))})`],
    [`100k-user lookup within ${SCALE_BOUND}x of 100-user`, SCALE_BOUND * rps(big) >= rps(small), `${fmt(rps(big) / rps(small), 3)}x (${fmt(rps(big))} vs ${fmt(rps(small))})`],
    ['cold start <= 2x bare Hono', median(cold.mock) <= 2 * median(cold.bare), `${fmt(median(cold.mock) / median(cold.bare), 2)}x (${ms(median(cold.mock), 0)} vs ${ms(median(cold.bare), 0)})`],
    ['reset <= 5 ms at 100k users (round trip)', (reset100k?.roundTripMs ?? Infinity) <= 5, `${ms(reset100k?.roundTripMs ?? NaN, 3)} round trip, ${ms(reset100k?.serverMs ?? NaN, 3)} server-side`],
    [`RSS growth < 50 MB after the first 10 s of POST load (${soak.seconds} s)`, growth * 1.048576 < 50, `${fmt(growth * 1.048576, 1)} MB (${mib(soak.at10)} -> ${mib(soak.end)})`],
    [`worst write at the body limit blocks <= ${TARGET_MS} ms (each of ${worst.length})`, worst.every((w) => w.blockedMs <= TARGET_MS), worst.map((w) => fmt(w.blockedMs, 1)).join(' / ') + ' ms'],
    ...filtered.map((f): [string, boolean, string] => [`${f.request} middle page at 100k within ${SCALE_BOUND}x of 100`, f.ratio <= SCALE_BOUND, `${fmt(f.ratio, 3)}x (${ms(f.bigMs, 3)} vs ${ms(f.smallMs, 3)})`]),
    [`archive a user on 100k customers within ${SCALE_BOUND}x of 100`, archive.ratio <= SCALE_BOUND, `${fmt(archive.ratio, 3)}x (${ms(archive.bigMs, 3)} vs ${ms(archive.smallMs, 3)})`],
    [`journal RSS (1,000 apps) <= its ${fmt(journal.budgetMiB)} MiB budget over the base`, journal.met, `+${mib(journal.journalRssMiB)}`],
    [`scroll page on a 100k-customer app within ${SCALE_BOUND}x of a 100-customer app`, scroll.met, `${fmt(scroll.ratio, 3)}x (${ms(scroll.openBigMs, 3)} vs ${ms(scroll.openSmallMs, 3)})`],
  ];
  say('targets (ratios to the floor measured in this run):');
  say(table(['target', 'result', 'measured'], targets.map(([t, ok, m]) => [t, verdict(ok), m])));
  say();
  say(`total ${elapsed()}${Number.isFinite(buildMs) ? ` (build ${(buildMs / 1000).toFixed(1)} s)` : ''}`);
  process.stdout.write(`${lines.join('\n')}\n`);

  const json = option('--json');
  if (json) {
    writeFileSync(json, JSON.stringify({ machine, quick, config: CFG, rows, scale: scaled, apps, cold, rss: soak, worst, filtered, archive, journal, scroll, targets }, null, 2));
    log(`results written to ${json}`);
  }
});
