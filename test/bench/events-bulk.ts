// Bench rows of issue 14 for events and bulk jobs:
//   1. POST /events throughput against the bare Hono floor's POST /events is a row of run.ts's load
//      table (scenario post-events: same floor server, same load generator as the other rows);
//      `npm run bench -- --scenarios post-events,post-users` measures it alone. Target >= 0.4x.
//   2. A page of the events of a person with 10,000 events against the same page of a person with
//      31 (in-process, app.request; median over alternating requests): the first page and a page
//      reached by a next link deep in the timeline. Target: within 10% (ratio <= 1.10): a page costs
//      its own length, never the person's history.
//   3. A bulk job of 10,000 items (100 requests of 100 items appended to one job), run to completion
//      (in-process) by the first request that finds it due once the clock passes the job delay
//      (GET /jobs/{id}, timed whole), for events and for users; then POST /__admin/jobs/run for the
//      enrichment the 10,000 user writes queued (timed apart: it is not the job's). Target: the job's
//      run <= 2,000 ms (200 us an item), one synchronous stretch.
//
// `npx tsx test/bench/events-bulk.ts [--quick]` prints rows 2 and 3.

import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { createStore } from '../../src/setup.js';
import { REFERENCE_TIME } from '../../src/fixtures/normalize.js';
import { bearer, DEMO_TOKEN, flag, fmt, main, median } from './lib.js';

const quick = flag('--quick');
const NOW = REFERENCE_TIME + 86_400;
const PER_PAGE = 15;

// --- 2. a page of a person with 10k events -------------------------------------------------------

function eventsApp() {
  const clock = new Clock({ start: NOW, frozen: true });
  const store = createStore({ clock, seed: 1 });
  const user = (n: number) => ({ id: `bench00000000000000000${n}`, user_id: `bench-${n}`, email: `bench-${n}@example.com` });
  const events = [];
  // The big person's 10,000 events and the small one's 31, interleaved as they would arrive.
  for (let i = 0; i < 10_000; i++) {
    events.push({ id: `ev-big-${i}`, customer_id: user(1).id, event_name: `e${i % 25}`, created_at: NOW - 10_000 + i, metadata: { i } });
    if (i % 333 === 0) events.push({ id: `ev-small-${i}`, customer_id: user(2).id, event_name: `e${i % 25}`, created_at: NOW - 10_000 + i, metadata: { i } });
  }
  store.seedApp({ app: { id: 'bench', tokens: ['bench-token'], rate_limit_per_minute: 1_000_000_000 }, customers: [user(1), user(2)], events }, 'replace');
  return { app: createApp({ store, log: () => undefined }), big: user(1).id, small: user(2).id };
}

async function eventPages(rounds: number) {
  const { app, big, small } = eventsApp();
  const headers = { ...bearer('bench-token'), accept: 'application/json' };
  const get = async (path: string) => {
    const t0 = performance.now();
    const res = await app.request(path, { headers });
    const body = (await res.json()) as { events: unknown[]; pages: { next?: string } };
    if (res.status !== 200) throw new Error(`${path} → ${res.status}`);
    return { ms: performance.now() - t0, body };
  };
  const first = (id: string) => `/events?type=user&intercom_user_id=${id}&per_page=${PER_PAGE}`;
  /** The next link `hops` pages in (page 2 of the small person's 3: both read a full page). */
  const deep = async (id: string, hops: number) => {
    let path = first(id);
    for (let i = 0; i < hops; i++) {
      const next = (await get(path)).body.pages.next;
      if (!next) break;
      path = new URL(next).pathname + new URL(next).search;
    }
    return path;
  };
  const rows = [];
  for (const [label, paths] of [
    ['first page', [first(small), first(big)]],
    ['a page by its next link (small: page 2 of 3; big: page 334 of 667)', [await deep(small, 1), await deep(big, 333)]],
  ] as const) {
    const times: [number[], number[]] = [[], []];
    for (let round = 0; round <= rounds; round++) {
      for (let i = 0; i < 200; i++) {
        for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
          const { ms, body } = await get(paths[k] as string);
          if (k === 0 && body.events.length === 0) throw new Error('empty page');
          if (round > 0) times[k]?.push(ms);
        }
      }
    }
    const smallMs = median(times[0]);
    const bigMs = median(times[1]);
    rows.push({ label, smallMs, bigMs, ratio: bigMs / smallMs });
  }
  return rows;
}

// --- 3. a bulk job of 10k items --------------------------------------------------------------------

async function bulkJob(kind: 'events' | 'users') {
  const clock = new Clock({ start: NOW, frozen: true });
  const store = createStore({ clock, seed: 1, rateLimit: 1_000_000_000 });
  const app = createApp({ store, log: () => undefined });
  const headers = { ...bearer(DEMO_TOKEN), accept: 'application/json', 'content-type': 'application/json' };
  let jobId: string | undefined;
  const t0 = performance.now();
  for (let r = 0; r < 100; r++) {
    const items = Array.from({ length: 100 }, (_, i) => {
      const n = r * 100 + i;
      return kind === 'events'
        ? { method: 'post', data: { event_name: `bulk-${n % 50}`, created_at: NOW - 20_000 + n, user_id: 'ada-1', metadata: { n } } }
        : { method: 'post', data: { user_id: `bulk-${n}`, email: `bulk-${n}@example.com`, custom_attributes: { plan_tier: 'pro', seats: n % 50 } } };
    });
    const res = await app.request(`/bulk/${kind}`, { method: 'POST', headers, body: JSON.stringify({ items, ...(jobId ? { job: { id: jobId } } : {}) }) });
    if (res.status !== 202) throw new Error(`bulk → ${res.status} ${await res.text()}`);
    jobId = ((await res.json()) as { id: string }).id;
  }
  const submitMs = performance.now() - t0;
  clock.advance(store.jobDelaySeconds);
  const t1 = performance.now();
  const job = (await (await app.request(`/jobs/${jobId}`, { headers })).json()) as { state: string; tasks: unknown[] };
  const runMs = performance.now() - t1;
  const t2 = performance.now();
  const ran = (await (await app.request('/__admin/jobs/run?app=demo', { method: 'POST' })).json()) as { ran: number };
  const enrichMs = performance.now() - t2;
  const feed = (await (await app.request(`/jobs/${jobId}/error`, { headers })).json()) as { items: unknown[] };
  return { kind, submitMs, runMs, enrichMs, enriched: ran.ran, state: job.state, tasks: job.tasks.length, failed: feed.items.length };
}

await main(async () => {
  const out: string[] = [];
  out.push(`| event list (per_page ${PER_PAGE}) | person with 31 events ms | person with 10,000 events ms | ratio | target <= 1.10 |`, '|---|---:|---:|---:|---|');
  for (const r of await eventPages(quick ? 2 : 10)) out.push(`| ${r.label} | ${r.smallMs.toFixed(3)} | ${r.bigMs.toFixed(3)} | ${r.ratio.toFixed(3)} | ${r.ratio <= 1.1 ? 'PASS' : 'MISS'} |`);
  out.push('', '| bulk job of 10,000 items | submit (100 requests) ms | run to completion ms | state, tasks, failed items | then enrichment jobs, ms | target run <= 2,000 ms |', '|---|---:|---:|---|---|---|');
  for (const kind of ['events', 'users'] as const) {
    const b = await bulkJob(kind);
    out.push(`| ${kind} | ${fmt(b.submitMs)} | ${fmt(b.runMs)} | ${b.state}, ${b.tasks}, ${b.failed} | ${b.enriched}, ${fmt(b.enrichMs)} | ${b.runMs <= 2000 ? 'PASS' : 'MISS'} |`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
});
