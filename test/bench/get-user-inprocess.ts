// The per-request cost of the pipeline on GET /users/{id}, in process (createApp + app.request, no
// socket), so the wire checks (http/parameters.ts, the pipeline) can be weighed without the load
// and scheduling noise of a load test on a shared machine. With `--b DIR`, a second copy of the
// source (DIR/src, e.g. an older commit unpacked with `git archive`) is measured too, round by
// round alternately, and the figure is the median of the paired ratios.
//
// `npx tsx test/bench/get-user-inprocess.ts [--rounds N] [--b DIR]`

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Target {
  name: string;
  request: () => Promise<void>;
}

async function target(name: string, root: string): Promise<Target> {
  const { createApp } = (await import(pathToFileURL(resolve(root, 'src/app.ts')).href)) as typeof import('../../src/app.js');
  const { createStore } = (await import(pathToFileURL(resolve(root, 'src/setup.ts')).href)) as typeof import('../../src/setup.js');
  const store = createStore({ seed: 1, rateLimit: 1_000_000_000 });
  const app = createApp({ store, log: () => undefined });
  const demo = store.app('demo');
  if (demo === undefined) throw new Error(`${name}: no demo app`);
  const id = demo.data.customers.keys().next().value as string;
  const init = { headers: { authorization: `Bearer ${demo.config.tokens[0] ?? ''}` } };
  const url = `http://127.0.0.1/users/${id}`;
  return {
    name,
    request: async () => {
      const res = await app.request(url, init);
      if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
      await res.text();
    },
  };
}

const PER_ROUND = 10_000;

/** Microseconds per request, one round. */
async function round(t: Target): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < PER_ROUND; i++) await t.request();
  return ((performance.now() - t0) / PER_ROUND) * 1000;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const rounds = Number(arg('--rounds') ?? 9);
const other = arg('--b');
const targets = [await target('A (this tree)', resolve(import.meta.dirname, '../..'))];
if (other !== undefined) targets.push(await target(`B (${other})`, other));
for (const t of targets) await round(t);
const times = targets.map(() => [] as number[]);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? targets.map((_, i) => i) : targets.map((_, i) => targets.length - 1 - i);
  for (const i of order) times[i]?.push(await round(targets[i] as Target));
}
targets.forEach((t, i) => process.stdout.write(`${t.name}: median ${median(times[i] ?? []).toFixed(2)} µs per GET /users/{id} (${rounds} rounds of ${PER_ROUND})\n`));
if (targets.length === 2) {
  const ratios = (times[0] ?? []).map((a, r) => a / ((times[1] ?? [])[r] as number));
  process.stdout.write(`A / B, median of the paired rounds: ${median(ratios).toFixed(3)}\n`);
}
