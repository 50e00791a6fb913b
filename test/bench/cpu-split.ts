// Where the CPU of a load test goes: the server's CPU time per request (from /proc: its main
// thread and its other threads, V8's collector helpers among them) against the load generator's
// (this process), for the mock and the bare Hono floor on one scenario. On a two-CPU machine the
// generator shares the CPUs with the server, so the ratio of throughputs also moves with what the
// generator spends per answer; the server's CPU per request is the figure a change of ours moves.
//
//   npx tsx test/bench/cpu-split.ts --scenario post-events [--seconds 10] [--mock-only]

import { readdirSync, readFileSync } from 'node:fs';
import { flag, load, main, numberOption, option, startBare, startMock, type Server } from './lib.js';
import { scenarios } from './scenarios.js';

/** utime + stime in µs of one /proc stat line (fields 14 and 15, after the parenthesised name). */
const statMicros = (stat: string): number => {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
};

/** CPU µs of a process's main thread and of its other threads together. */
function threadMicros(pid: number): { main: number; others: number } {
  const out = { main: 0, others: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const us = statMicros(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
      if (tid === String(pid)) out.main += us;
      else out.others += us;
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

await main(async () => {
  const key = option('--scenario') ?? 'post-events';
  const seconds = numberOption('--seconds', 10, 1, 120);
  const scenario = scenarios().find((s) => s.key === key);
  if (!scenario) throw new Error(`--scenario one of ${scenarios().map((s) => s.key).join(', ')}`);
  const servers: [string, () => Promise<Server>][] = [['mock', () => startMock(['--rate-limit', '1000000000'])]];
  if (!flag('--mock-only')) servers.push(['bare hono', () => startBare()]);
  for (const [name, start] of servers) {
    const server = await start();
    try {
      await load(server, scenario.spec, 2);
      const before = threadMicros(server.pid);
      const generator = process.cpuUsage();
      const result = await load(server, scenario.spec, seconds);
      const after = threadMicros(server.pid);
      const used = process.cpuUsage(generator);
      const n = result.count;
      const per = (us: number) => (us / n).toFixed(1);
      process.stdout.write(
        `${name}: ${Math.round(n / seconds)} req/s; server ${per(after.main - before.main + after.others - before.others)} µs CPU/request ` +
          `(main thread ${per(after.main - before.main)}, other threads ${per(after.others - before.others)}), generator ${per(used.user + used.system)} µs CPU/request\n`,
      );
    } finally {
      await server.stop();
    }
  }
});
