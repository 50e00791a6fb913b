// A/B: the current build (dist/) against another build of the mock, same scenario, alternating, in
// one run, to check that a proposed change helps before it lands. Also compares cold starts.
//
//   tsx test/bench/ab.ts --b /tmp/patched/dist/cli/index.js [--scenario post-users] [--rounds 3] [--seconds 3] [--cold 5]
//
// The other build needs its own node_modules and fixtures/ reachable as the project lays them out
// (a copy of dist/ beside symlinks to node_modules/ and fixtures/ will do).

import { resolve } from 'node:path';
import { ADA, bearer, call, DEMO_TOKEN, fmt, load, main, MOCK_ENTRY, median, numberOption, option, sleep, startNode, table, type LoadResult } from './lib.js';
import { scenarios, seedLimitedApp } from './scenarios.js';

const other = option('--b');
if (!other) throw new Error('--b <path to the other build\'s dist/cli/index.js> is required');
const b = resolve(other);
const rounds = numberOption('--rounds', 3, 1, 20);
const seconds = numberOption('--seconds', 3, 1, 60);
const coldRuns = numberOption('--cold', 0, 0, 20);
const keys = (option('--scenario') ?? 'post-users').split(',');
const args = ['--port', '0', '--host', '127.0.0.1', '--seed', '1'];

await main(async () => {
  const rows: string[][] = [];
  for (const key of keys) {
    const s = scenarios().find((x) => x.key === key);
    if (!s) throw new Error(`unknown scenario ${key}`);
    const servers = [
      { name: 'A (dist/)', server: await startNode('A', MOCK_ENTRY, [...args, '--rate-limit', '1000000000']) },
      { name: `B (${other})`, server: await startNode('B', b, [...args, '--rate-limit', '1000000000']) },
    ];
    const results = new Map<string, LoadResult[]>();
    for (const x of servers) {
      await seedLimitedApp(x.server);
      await load(x.server, s.spec, 1);
      results.set(x.name, []);
    }
    for (let r = 0; r < rounds; r++) {
      for (const x of r % 2 === 0 ? servers : [...servers].reverse()) results.get(x.name)?.push(await load(x.server, s.spec, seconds));
    }
    for (const x of servers) {
      const rs = results.get(x.name) ?? [];
      rows.push([s.label, x.name, fmt(median(rs.map((q) => q.rps))), fmt(median(rs.map((q) => q.p99)), 2), fmt(Math.max(...rs.map((q) => q.rssPeak)), 0), `${fmt(Math.max(...rs.map((q) => q.foreign)) * 100, 0)}%`]);
      await x.server.stop();
    }
  }
  process.stdout.write(`${table(['scenario', 'build', 'req/s (median)', 'p99 ms', 'RSS MiB', 'noise'], rows)}\n`);

  if (coldRuns > 0) {
    const times: Record<string, number[]> = { A: [], B: [] };
    for (let i = 0; i < coldRuns; i++) {
      for (const [name, entry] of i % 2 === 0 ? ([['A', MOCK_ENTRY], ['B', b]] as const) : ([['B', b], ['A', MOCK_ENTRY]] as const)) {
        const t0 = performance.now();
        const server = await startNode(name, entry, args);
        for (;;) {
          const ok = await call(`${server.url}/users/${ADA}`, { headers: bearer(DEMO_TOKEN) }).then((r) => r.status === 200, () => false);
          if (ok) break;
          if (performance.now() - t0 > 30_000) throw new Error(`${name}: no 200 in 30 s`);
          await sleep(5);
        }
        times[name]?.push(performance.now() - t0);
        await server.stop();
      }
    }
    process.stdout.write(`cold start to first 200 (median of ${coldRuns}): A ${fmt(median(times.A ?? []), 0)} ms, B ${fmt(median(times.B ?? []), 0)} ms\n`);
  }
});
