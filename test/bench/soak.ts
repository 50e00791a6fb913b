// Soak (issue 8, item 7): `tsx test/bench/soak.ts [--seconds N] [--concurrency C] [--no-build]`.
//
// Builds, spawns the mock from dist/ (with probe.ts preloaded for heap-after-GC readings), and runs
// mixed traffic against it for N seconds (default 180) from C concurrent loops (default 8) over
// keep-alive connections: reads, writes, expected errors (400, 401, 404, 405, 415, 429), per-test
// apps (more test_ tokens than --max-test-apps, so apps are evicted and re-provisioned), and the
// control plane (reset, seed, snapshots, journal, faults, clock, jobs). Reports the error count
// (unexpected 5xx and connection errors; other unexpected statuses are listed apart), RSS and heap
// over time (stable or not), and the server's open file descriptors at the start and the end.
// Bounded: stops at the deadline (each request also times out), and every child is killed at exit.

import { Agent, request } from 'node:http';
import {
  ACME,
  ADA,
  build,
  callOk,
  DEMO_TOKEN,
  flag,
  fmt,
  foreignCpu,
  LONG_CONVERSATION,
  main,
  median,
  numberOption,
  openFds,
  probeMemory,
  rssMiB,
  sleep,
  startProbedMock,
  table,
  type Server,
} from './lib.js';
import { Random } from '../../src/core/random.js';
import { LIMITED_TOKEN, seedLimitedApp } from './scenarios.js';

const seconds = numberOption('--seconds', 180, 5, 3600);
const concurrency = numberOption('--concurrency', 8, 1, 64);
const MAX_TEST_APPS = 100;
const TEST_TOKENS = 300;
const log = (s: string) => process.stderr.write(`[soak] ${s}\n`);

interface Req {
  method: string;
  path: string;
  token?: string;
  /** A JSON value, or raw text sent as is. */
  body?: unknown;
  raw?: string;
  contentType?: string;
  /** Statuses this request may get. */
  expect: number[];
}

type Action = { name: string; weight: number; make: (r: () => number, i: number) => Req };

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const testToken = (r: () => number) => `test_soak_${Math.floor(r() * TEST_TOKENS)}`;

const ACTIONS: Action[] = [
  // reads
  { name: 'GET /users/{id}', weight: 10, make: () => ({ method: 'GET', path: `/users/${ADA}`, token: DEMO_TOKEN, expect: [200] }) },
  { name: 'GET /users?email=', weight: 3, make: () => ({ method: 'GET', path: '/users?email=ada@example.com', token: DEMO_TOKEN, expect: [200] }) },
  { name: 'GET /companies/{id}/users', weight: 3, make: () => ({ method: 'GET', path: `/companies/${ACME}/users`, token: DEMO_TOKEN, expect: [200] }) },
  { name: 'GET /counts?type=company&count=tag', weight: 3, make: () => ({ method: 'GET', path: '/counts?type=company&count=tag', token: DEMO_TOKEN, expect: [200] }) },
  { name: 'GET /conversations/{id} (620 parts)', weight: 1, make: () => ({ method: 'GET', path: `/conversations/${LONG_CONVERSATION}`, token: DEMO_TOKEN, expect: [200] }) },
  { name: 'GET /conversations', weight: 2, make: () => ({ method: 'GET', path: '/conversations?per_page=10', token: DEMO_TOKEN, expect: [200] }) },
  { name: 'GET /admins, /tags', weight: 2, make: (r) => ({ method: 'GET', path: r() < 0.5 ? '/admins' : '/tags', token: DEMO_TOKEN, expect: [200] }) },
  // writes (bounded key spaces, so the data set stops growing)
  {
    name: 'POST /users',
    weight: 10,
    make: (r, i) => {
      const k = Math.floor(r() * 2000);
      return {
        method: 'POST',
        path: '/users',
        token: DEMO_TOKEN,
        body: { user_id: `soak-${k}`, email: `soak-${k}@example.com`, ...(i % 7 === 0 ? { last_seen_ip: '81.2.69.160' } : {}), custom_attributes: { seats: i % 50, note: `n${i % 31}` } },
        expect: [200],
      };
    },
  },
  { name: 'POST /companies', weight: 2, make: (r) => ({ method: 'POST', path: '/companies', token: DEMO_TOKEN, body: { company_id: `soak-co-${Math.floor(r() * 200)}`, name: 'Soak Co', monthly_spend: Math.floor(r() * 1000) }, expect: [200] }) },
  { name: 'POST /tags', weight: 1, make: (r) => ({ method: 'POST', path: '/tags', token: DEMO_TOKEN, body: { name: `soak-tag-${Math.floor(r() * 50)}` }, expect: [200] }) },
  {
    name: 'POST /conversations/{id}/reply',
    weight: 1,
    // At most 60 parts a minute per conversation: past that, 429.
    make: () => ({ method: 'POST', path: '/conversations/5714dd359a3fd47136000501/reply', token: DEMO_TOKEN, body: { type: 'admin', admin_id: '814860', message_type: 'note', body: '<p>soak</p>' }, expect: [200, 429] }),
  },
  // expected errors
  { name: '404 unknown user', weight: 2, make: () => ({ method: 'GET', path: '/users/000000000000000000000000', token: DEMO_TOKEN, expect: [404] }) },
  { name: '400 invalid custom attribute', weight: 2, make: () => ({ method: 'POST', path: '/users', token: DEMO_TOKEN, body: { user_id: 'soak-bad', custom_attributes: { 'a.b': 1, nested: { x: 1 } } }, expect: [400] }) },
  { name: '400 malformed JSON', weight: 1, make: () => ({ method: 'POST', path: '/users', token: DEMO_TOKEN, raw: '{"user_id": ', expect: [400] }) },
  { name: '415 text body', weight: 1, make: () => ({ method: 'POST', path: '/users', token: DEMO_TOKEN, raw: 'user_id=x', contentType: 'text/plain', expect: [415] }) },
  { name: '401 no / unknown token', weight: 2, make: (r) => ({ method: 'GET', path: `/users/${ADA}`, ...(r() < 0.5 ? { token: 'nobody-token' } : {}), expect: [401] }) },
  { name: '404 / 405 routes', weight: 1, make: (r) => (r() < 0.5 ? { method: 'GET', path: '/nope', token: DEMO_TOKEN, expect: [404] } : { method: 'DELETE', path: `/users/${ADA}`, token: DEMO_TOKEN, expect: [405] }) },
  { name: '429 limited app', weight: 2, make: () => ({ method: 'GET', path: `/users/${ADA}`, token: LIMITED_TOKEN, expect: [429, 404] }) },
  // per-test apps: 300 tokens over at most 100 apps, so apps are evicted and provisioned again
  { name: 'test app GET', weight: 4, make: (r) => ({ method: 'GET', path: `/users/${ADA}`, token: testToken(r), expect: [200] }) },
  { name: 'test app POST /users', weight: 3, make: (r, i) => ({ method: 'POST', path: '/users', token: testToken(r), body: { user_id: `t-${i % 20}`, custom_attributes: { n: i % 9 } }, expect: [200] }) },
  // control plane (a test app may have been evicted: 404)
  { name: 'admin reset one app', weight: 1, make: (r) => ({ method: 'POST', path: `/__admin/reset?app=${testToken(r)}`, expect: [200, 404] }) },
  { name: 'admin snapshot + restore', weight: 1, make: (r) => (r() < 0.5 ? { method: 'POST', path: `/__admin/snapshots?app=${testToken(r)}`, body: { name: `s${Math.floor(r() * 3)}` }, expect: [201, 404] } : { method: 'POST', path: `/__admin/snapshots/s${Math.floor(r() * 3)}/restore?app=${testToken(r)}`, expect: [200, 404] }) },
  { name: 'admin journal', weight: 1, make: (r) => (r() < 0.5 ? { method: 'GET', path: '/__admin/requests?app=demo&limit=20', expect: [200] } : { method: 'POST', path: '/__admin/requests/count?app=demo', body: { method: 'POST', path: '/users' }, expect: [200] }) },
  { name: 'admin faults on a test app', weight: 1, make: (r) => (r() < 0.6 ? { method: 'POST', path: `/__admin/faults?app=${testToken(r)}`, body: { latency_ms: 2, count: 2 }, expect: [201, 404] } : { method: 'DELETE', path: `/__admin/faults?app=${testToken(r)}`, expect: [200, 204, 404] }) },
  { name: 'injected 500 (faulty app)', weight: 1, make: (r) => (r() < 0.5 ? { method: 'POST', path: '/__admin/faults?app=faulty', body: { error: 'server_error', count: 1 }, expect: [201] } : { method: 'GET', path: '/admins', token: 'faulty-token', expect: [200, 500] }) },
  { name: 'admin health / clock / jobs', weight: 1, make: (r) => pick(r, [{ method: 'GET', path: '/__admin/health', expect: [200] }, { method: 'GET', path: '/__admin/clock', expect: [200] }, { method: 'POST', path: '/__admin/jobs/run?app=demo', expect: [200] }]) },
  { name: 'admin seed (replace)', weight: 0.3, make: (r) => ({ method: 'POST', path: '/__admin/seed', body: { app: { id: 'soak-seeded', tokens: ['soak-seeded-token'] }, generate: { users: 20 + Math.floor(r() * 20) } }, expect: [200] }) },
  { name: 'admin reset all', weight: 0.05, make: () => ({ method: 'POST', path: '/__admin/reset', expect: [200] }) },
];

interface Tally {
  count: number;
  statuses: Map<number, number>;
  unexpected: Map<string, { count: number; example: string }>;
  errors5xx: number;
  connErrors: number;
  injected500: number;
  latencies: number[];
}

function send(agent: Agent, server: Server, req: Req): Promise<{ status: number; body: string }> {
  const url = new URL(server.url);
  const text = req.raw ?? (req.body !== undefined ? JSON.stringify(req.body) : undefined);
  const headers: Record<string, string | number> = { accept: 'application/json' };
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  if (text !== undefined) {
    headers['content-type'] = req.contentType ?? 'application/json';
    headers['content-length'] = Buffer.byteLength(text);
  }
  return new Promise((resolve, reject) => {
    const r = request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    r.on('timeout', () => r.destroy(new Error('request timed out after 10 s')));
    r.on('error', reject);
    r.end(text);
  });
}

await main(async () => {
  if (!flag('--no-build')) {
    log('npm run build');
    build();
  }
  const server = await startProbedMock(['--rate-limit', '1000000000', '--max-test-apps', String(MAX_TEST_APPS)]);
  log(`mock pid ${server.pid} at ${server.url}; ${seconds} s of mixed traffic from ${concurrency} loops`);
  await seedLimitedApp(server);
  await callOk(`${server.url}/__admin/seed`, { method: 'POST', body: { app: { id: 'faulty', tokens: ['faulty-token'] }, admins: [{ id: '1', name: 'A', email: 'a@example.com' }] } });
  await sleep(200);
  const fdStart = openFds(server.pid);
  const memStart = await probeMemory(server);
  const rssStart = rssMiB(server.pid);

  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const tally: Tally = { count: 0, statuses: new Map(), unexpected: new Map(), errors5xx: 0, connErrors: 0, injected500: 0, latencies: [] };
  const byAction = new Map<string, number>();
  const totalWeight = ACTIONS.reduce((a, x) => a + x.weight, 0);
  const series: { t: number; rss: number; fds: number; rps: number }[] = [];
  const noise = foreignCpu();
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  let lastCount = 0;
  let lastT = t0;
  const sampleEvery = Math.max(1000, Math.round((seconds * 1000) / 36));
  const sampler = setInterval(() => {
    const now = performance.now();
    series.push({ t: (now - t0) / 1000, rss: rssMiB(server.pid), fds: openFds(server.pid), rps: ((tally.count - lastCount) * 1000) / (now - lastT) });
    lastCount = tally.count;
    lastT = now;
  }, sampleEvery);

  let seq = 0;
  const worker = async (w: number) => {
    // The mock's own seeded stream: the traffic mix is the same on every run.
    const random = new Random(1000 + w);
    const r = () => random.next();
    while (performance.now() < deadline) {
      let x = r() * totalWeight;
      const action = ACTIONS.find((a) => (x -= a.weight) < 0) ?? (ACTIONS[0] as Action);
      const req = action.make(r, seq++);
      byAction.set(action.name, (byAction.get(action.name) ?? 0) + 1);
      const started = performance.now();
      try {
        const res = await send(agent, server, req);
        tally.count++;
        tally.latencies.push(performance.now() - started);
        tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
        if (res.status === 500 && req.token === 'faulty-token' && req.expect.includes(500)) {
          tally.injected500++;
        } else if (!req.expect.includes(res.status)) {
          if (res.status >= 500) tally.errors5xx++;
          const key = `${action.name} -> ${res.status}`;
          const u = tally.unexpected.get(key) ?? { count: 0, example: `${req.method} ${req.path}: ${res.body.slice(0, 200)}` };
          u.count++;
          tally.unexpected.set(key, u);
        }
      } catch (err) {
        tally.connErrors++;
        const key = `${action.name} -> ${(err as Error).message}`;
        const u = tally.unexpected.get(key) ?? { count: 0, example: `${req.method} ${req.path}` };
        u.count++;
        tally.unexpected.set(key, u);
        await sleep(10);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  clearInterval(sampler);
  const fdLoaded = openFds(server.pid);
  const rssEnd = rssMiB(server.pid);
  const foreign = noise();
  agent.destroy();
  await sleep(1000);
  const fdEnd = openFds(server.pid);
  const memEnd = await probeMemory(server);
  const health = JSON.parse((await callOk(`${server.url}/__admin/health`)).text) as { provisioned_apps: number };
  const alive = server.process.exitCode === null && server.process.signalCode === null;
  const elapsed = (performance.now() - t0) / 1000;

  // Stability: after the first fifth (warm-up), the least-squares slope of RSS, and the spread.
  const settled = series.filter((s) => s.t >= seconds / 5 && Number.isFinite(s.rss));
  const n = settled.length;
  const mt = settled.reduce((a, s) => a + s.t, 0) / Math.max(1, n);
  const mr = settled.reduce((a, s) => a + s.rss, 0) / Math.max(1, n);
  const slope = n > 1 ? settled.reduce((a, s) => a + (s.t - mt) * (s.rss - mr), 0) / settled.reduce((a, s) => a + (s.t - mt) ** 2, 0) : NaN; // MiB/s
  const spread = n > 0 ? Math.max(...settled.map((s) => s.rss)) - Math.min(...settled.map((s) => s.rss)) : NaN;
  const first = settled[0]?.rss ?? NaN;
  const last = settled[n - 1]?.rss ?? NaN;
  const stable = Number.isFinite(slope) && Math.abs(slope * 60) < 10 && last - first < 25;
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN;

  const out: string[] = [];
  out.push('');
  out.push(`soak: ${fmt(elapsed, 0)} s of mixed traffic, ${concurrency} concurrent keep-alive loops, --max-test-apps ${MAX_TEST_APPS} with ${TEST_TOKENS} test_ tokens`);
  out.push(`  requests ${fmt(tally.count)} (${fmt(tally.count / elapsed)} req/s; other processes used ${fmt(foreign * 100, 0)}% of a core meanwhile), latency median ${fmt(median(tally.latencies), 2)} ms, p99 ${fmt(p99, 2)} ms`);
  out.push(`  statuses: ${[...tally.statuses].sort((a, b) => a[0] - b[0]).map(([s, c]) => `${s}: ${fmt(c)}`).join(', ')}`);
  out.push(`  ERRORS: ${tally.errors5xx + tally.connErrors} (unexpected 5xx ${tally.errors5xx}, connection errors/timeouts ${tally.connErrors}); injected 500s as asked: ${tally.injected500}`);
  out.push(`  unexpected answers (any status outside the request's expected set, and connection errors): ${tally.unexpected.size === 0 ? 'none' : ''}`);
  for (const [k, u] of tally.unexpected) out.push(`    ${u.count} x ${k}   e.g. ${u.example}`);
  out.push(`  server alive at the end: ${alive ? 'yes' : 'NO'}; provisioned test apps alive: ${health.provisioned_apps} (max ${MAX_TEST_APPS})`);
  out.push(`  RSS: ${fmt(rssStart, 1)} MiB before, ${fmt(first, 1)} MiB after warm-up (${fmt(seconds / 5, 0)} s), ${fmt(last, 1)} MiB at the last sample, ${fmt(rssEnd, 1)} MiB when the traffic stopped; settled spread ${fmt(spread, 1)} MiB, slope ${fmt(slope * 60, 2)} MiB/min -> ${stable ? 'STABLE' : 'NOT STABLE'}`);
  // RSS follows V8's heap sizing (garbage between major GCs); live memory after a full GC is the leak check.
  const heapGrowth = memEnd.heapUsed - memStart.heapUsed;
  out.push(`  heap after GC: ${fmt(memStart.heapUsed, 1)} MiB at the start, ${fmt(memEnd.heapUsed, 1)} MiB at the end (RSS after GC ${fmt(memEnd.rss, 1)} MiB) -> live heap ${heapGrowth < 20 ? 'BOUNDED' : 'GROWING'} (+${fmt(heapGrowth, 1)} MiB, threshold 20 MiB; the data the traffic adds is bounded by its key spaces)`);
  out.push(`  open fds: ${fdStart} at the start (idle), ${fdLoaded} under load (${concurrency} client connections), ${fdEnd} at the end (idle, clients closed) -> ${fdEnd <= fdStart ? 'no growth' : `GREW by ${fdEnd - fdStart}`}`);
  out.push('');
  out.push('  over time:');
  out.push(
    table(
      ['t (s)', 'req/s', 'RSS MiB', 'fds'],
      series.map((s) => [fmt(s.t, 0), fmt(s.rps), fmt(s.rss, 1), String(s.fds)]),
    )
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n'),
  );
  out.push('');
  out.push('  requests by action:');
  for (const [name, count] of [...byAction].sort((a, b) => b[1] - a[1])) out.push(`    ${String(count).padStart(8)}  ${name}`);
  process.stdout.write(`${out.join('\n')}\n`);
  await server.stop();
});
