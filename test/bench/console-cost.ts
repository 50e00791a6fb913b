// What the live console adds to an API request when nobody has it open: the same in-process
// requests (createApp + app.request, no socket) against this tree and against another source tree
// (the commit before the console, unpacked with `git archive`), alternating, median per request.
//
//   mkdir -p /tmp/before && git archive <commit> src fixtures package.json | tar -x -C /tmp/before
//   ln -s "$PWD/node_modules" /tmp/before/node_modules
//   npx tsx test/bench/console-cost.ts /tmp/before [--rounds N]

import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Requester = (path: string, init?: RequestInit) => Promise<Response>;

const REQUESTS: { name: string; method: string; path: string; body?: unknown }[] = [
  { name: 'GET /users/{id}', method: 'GET', path: '/users/5714dd359a3fd47136000001' },
  { name: 'GET /users?per_page=10', method: 'GET', path: '/users?per_page=10' },
  { name: 'POST /users', method: 'POST', path: '/users', body: { user_id: 'bench-1', email: 'bench@example.com', custom_attributes: { plan: 'pro' } } },
];

async function appOf(root: string): Promise<Requester> {
  const url = (p: string) => pathToFileURL(resolve(root, p)).href;
  const { createApp } = (await import(url('src/app.ts'))) as typeof import('../../src/app.js');
  const { createStore } = (await import(url('src/setup.ts'))) as typeof import('../../src/setup.js');
  const { Clock } = (await import(url('src/core/clock.ts'))) as typeof import('../../src/core/clock.js');
  // A rate limit no loop reaches, on a frozen clock: every request does the same work.
  const app = createApp({ store: createStore({ clock: new Clock({ start: 1767312000, frozen: true }), rateLimit: 6_000_000 }), log: () => undefined });
  return async (path, init) => app.request(path, init);
}

async function time(request: Requester, r: (typeof REQUESTS)[number], n: number): Promise<number[]> {
  const headers: Record<string, string> = { authorization: 'Bearer demo-token', accept: 'application/json' };
  if (r.body) headers['content-type'] = 'application/json';
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await request(r.path, { method: r.method, headers, ...(r.body ? { body: JSON.stringify(r.body) } : {}) });
    await res.arrayBuffer();
    out.push(performance.now() - t0);
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const other = process.argv[2];
if (!other) throw new Error('usage: npx tsx test/bench/console-cost.ts <other source tree> [--rounds N]');
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 10;
const here = resolve(import.meta.dirname, '..', '..');
const apps = { before: await appOf(other), console: await appOf(here) };
const samples: Record<string, Record<string, number[]>> = {};
for (let round = 0; round < rounds; round++) {
  for (const r of REQUESTS) {
    // Each round swaps which tree goes first, so warm-up and drift fall on both alike.
    const order = round % 2 === 0 ? Object.entries(apps) : Object.entries(apps).reverse();
    for (const [label, request] of order) {
      ((samples[r.name] ??= {})[label] ??= []).push(...(await time(request, r, 500)));
    }
  }
}
console.log('request                  before (µs)  with console (µs)  change');
for (const r of REQUESTS) {
  const b = median(samples[r.name]!.before!) * 1000;
  const c = median(samples[r.name]!.console!) * 1000;
  console.log(`${r.name.padEnd(24)} ${b.toFixed(1).padStart(11)}  ${c.toFixed(1).padStart(17)}  ${(((c - b) / b) * 100).toFixed(1).padStart(5)}%`);
}
