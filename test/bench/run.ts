// `npm run bench`: numbers, never assertions. In-process figures for now (store build, reset,
// request throughput through the whole pipeline); `--quick` runs shorter loops.

import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { createStore } from '../../src/setup.js';

const quick = process.argv.includes('--quick');
const rows: [string, string][] = [];
const ms = (t0: number) => performance.now() - t0;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

let t0 = performance.now();
const store = createStore({ clock: new Clock() });
rows.push(['first store build (fixture validation + generation)', `${ms(t0).toFixed(1)} ms`]);
const builds: number[] = [];
for (let i = 0; i < 5; i++) {
  t0 = performance.now();
  createStore({ clock: new Clock() });
  builds.push(ms(t0));
}
rows.push(['store build, warm (median of 5)', `${median(builds).toFixed(1)} ms`]);

const demo = store.app('demo');
if (!demo) throw new Error('no demo app');
const writes = quick ? 1_000 : 10_000;
for (let i = 0; i < writes; i++) demo.saveTag({ id: String(900_000 + i), name: `bench-${i}` });
t0 = performance.now();
store.reset('demo');
rows.push([`reset after ${writes} writes`, `${ms(t0).toFixed(3)} ms`]);

const app = createApp({ store, log: () => undefined });
demo.config = { ...demo.config, rate_limit_per_minute: 1_000_000_000 };
const headers = { authorization: 'Bearer demo-token' };
const n = quick ? 5_000 : 50_000;
for (let i = 0; i < 500; i++) await app.request('/users/5714dd359a3fd47136000001', { headers });
t0 = performance.now();
for (let i = 0; i < n; i++) await app.request('/users/5714dd359a3fd47136000001', { headers });
const elapsed = ms(t0);
rows.push([`GET /users/{id} in-process, sequential (${n})`, `${Math.round((n / elapsed) * 1000)} req/s`]);
rows.push(['heap used', `${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(1)} MiB`]);

const width = Math.max(...rows.map(([k]) => k.length));
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
