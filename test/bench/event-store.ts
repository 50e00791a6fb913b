// The event store alone: CPU per `submitEvent` (in a transaction, as POST /events runs it) in the
// evicting steady state of a long load run, with no HTTP around it, for this tree and, with
// `--b DIR`, another build (DIR: `git archive` of a commit, node_modules linked, `npm run build`
// run). Each round starts from a fresh store, submits `--events` events of the bench's POST
// /events bodies (one person, 20 names, created_at rising) under a cap of `--cap`, and times the
// last half; rounds alternate between the trees, so drift on a shared machine hits both alike.
//
//   npx tsx test/bench/event-store.ts [--cap 100000] [--events 300000] [--rounds 5] [--b DIR]

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REFERENCE_TIME } from '../../src/fixtures/normalize.js';
import { main, median, numberOption, option } from './lib.js';
import { DEMO_TOKEN } from './lib.js';
import { eventWrites } from './scenarios.js';

interface Tree {
  name: string;
  /** CPU µs per event over the last half of one round. */
  round: () => number;
}

const cap = numberOption('--cap', 100_000, 10, 100_000);
const events = numberOption('--events', 3 * cap, 2, 10_000_000);

async function tree(name: string, root: string, bodies: readonly unknown[]): Promise<Tree> {
  const file = (path: string) => pathToFileURL(resolve(root, `dist/src/${path}.js`)).href;
  const { createStore } = (await import(file('setup'))) as typeof import('../../src/setup.js');
  // A build from before the rooms keeps the events in store/events.js.
  const rules = existsSync(resolve(root, 'dist/src/resources/events/rules.js')) ? 'resources/events/rules' : 'store/events';
  const { submitEvent } = (await import(file(rules))) as typeof import('../../src/resources/events/rules.js');
  type Input = Parameters<typeof submitEvent>[1];
  return {
    name,
    round: () => {
      const store = createStore({ seed: 1, rateLimit: 1_000_000_000, limits: { events: cap } });
      const app = store.appForToken(DEMO_TOKEN);
      if (!app) throw new Error('no demo app');
      const timed = events - Math.floor(events / 2);
      let c0 = process.cpuUsage();
      for (let i = 0; i < events; i++) {
        if (i === timed) c0 = process.cpuUsage();
        app.transaction(() => submitEvent(app, bodies[i] as Input, cap, store.budgets));
      }
      const used = process.cpuUsage(c0);
      return (used.user + used.system) / (events - timed);
    },
  };
}

await main(async () => {
  const rounds = numberOption('--rounds', 5, 1, 50);
  const make = eventWrites(REFERENCE_TIME + 86_400);
  const bodies = Array.from({ length: events }, () => JSON.parse(make()) as unknown);
  const trees = [await tree('A (this tree)', resolve(import.meta.dirname, '../..'), bodies)];
  const other = option('--b');
  if (other !== undefined) trees.push(await tree(`B (${other})`, other, bodies));
  for (const t of trees) t.round();
  const times = trees.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? trees.map((_, i) => i) : trees.map((_, i) => trees.length - 1 - i);
    for (const i of order) times[i]?.push((trees[i] as Tree).round());
  }
  trees.forEach((t, i) => process.stdout.write(`${t.name}: median ${median(times[i] ?? []).toFixed(2)} µs of CPU per submitted event (cap ${cap}, last ${events - Math.floor(events / 2)} of ${events}, ${rounds} rounds)\n`));
  const a = times[0] ?? [];
  const b = times[1];
  if (b) process.stdout.write(`A / B, median of the paired rounds: ${median(a.map((x, r) => x / (b[r] as number))).toFixed(3)}\n`);
});
