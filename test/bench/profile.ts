// CPU profile of the mock under one benchmark scenario (or of its cold start), summarised by self
// time per function and per package/file, plus inclusive time of the busiest functions.
//
//   tsx test/bench/profile.ts --scenario get-user [--seconds 8] [--top 25] [--interval 100] [--keep DIR]
//   tsx test/bench/profile.ts --cold [--top 25]
//   tsx test/bench/profile.ts --bare --scenario post-users     (the bare Hono floor, for comparison)
//   tsx test/bench/profile.ts --summarise FILE.cpuprofile [--top 25]
//
// Scenario keys: those of scenarios.ts (get-user, post-users, counts, conversation, company-users,
// rate-limited). Runs the compiled build (run `npm run build` first); the server runs as
// `node --cpu-prof dist/cli/index.js --rate-limit 1000000000 ...` and writes its profile on exit.

import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADA, bearer, callOk, DEMO_TOKEN, ensureDir, flag, fmt, load, main, numberOption, option, ROOT, scratchDir, sleep, startBare, startMock, table } from './lib.js';
import { scenarios, seedLimitedApp } from './scenarios.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const shortUrl = (url: string): string => {
  const u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('/node_modules/');
  if (nm >= 0) return u.slice(nm + '/node_modules/'.length);
  return u.startsWith(ROOT) ? u.slice(ROOT.length + 1) : u;
};

/** The package (node_modules/<pkg>), the project file, node's internals, or a V8 pseudo-frame. */
function bucketOf(frame: CallFrame): string {
  const url = frame.url;
  if (url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (url.startsWith('node:')) return 'node: internals';
  const u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = u.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? u);
  }
  return shortUrl(url);
}

const keyOf = (f: CallFrame): string => `${f.functionName || '(anonymous)'}  ${shortUrl(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`;

export function summarise(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const buckets = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    total += dt;
    if (node.callFrame.functionName === '(idle)') {
      idle += dt;
      return;
    }
    const key = keyOf(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const bucket = bucketOf(node.callFrame);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!n || n.callFrame.functionName === '(root)') continue;
      const k = keyOf(n.callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  });
  const busy = total - idle;
  const pct = (x: number) => `${((100 * x) / busy).toFixed(1)}%`;
  const rows = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => [k, fmt(v, 1), pct(v)]);
  return [
    `profile: ${fmt(total, 0)} ms sampled, ${fmt(idle, 0)} ms idle, ${fmt(busy, 0)} ms busy (percentages of busy)`,
    '',
    `top ${top} functions by self time:`,
    table(['function  file:line', 'self ms', '%'], rows(self, top)),
    '',
    'self time by package / file:',
    table(['package or file', 'self ms', '%'], rows(buckets, 20)),
    '',
    `top ${top} functions by inclusive time (project code and the HTTP layers):`,
    table(
      ['function  file:line', 'total ms', '%'],
      [...inclusive]
        .filter(([k]) => /dist\/src|hono|node-server|ajv|faker/.test(k))
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([k, v]) => [k, fmt(v, 1), pct(v)]),
    ),
  ].join('\n');
}

async function profileRun(dir: string): Promise<string> {
  const key = option('--scenario') ?? 'get-user';
  const seconds = numberOption('--seconds', 8, 1, 120);
  const scenario = scenarios().find((s) => s.key === key);
  const cold = flag('--cold');
  if (!cold && !scenario) throw new Error(`unknown scenario "${key}"; one of: ${scenarios().map((s) => s.key).join(', ')}`);
  const interval = String(numberOption('--interval', 100, 10, 10_000));
  const t0 = performance.now();
  const nodeArgs = ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', interval];
  const bare = flag('--bare');
  const mock = bare ? await startBare(undefined, { nodeArgs }) : await startMock(cold ? [] : ['--rate-limit', '1000000000'], { nodeArgs });
  if (cold) {
    await callOk(`${mock.url}/users/${ADA}`, { headers: bearer(DEMO_TOKEN) });
    process.stderr.write(`cold start: first 200 after ${(performance.now() - t0).toFixed(0)} ms (profiling slows it)\n`);
  } else if (scenario) {
    if (!bare) await seedLimitedApp(mock);
    await load(mock, scenario.spec, 1);
    const r = await load(mock, scenario.spec, seconds);
    process.stderr.write(`${scenario.label}: ${fmt(r.rps)} req/s under the profiler, p99 ${r.p99.toFixed(2)} ms, statuses ${JSON.stringify(r.statuses)}\n`);
  }
  await mock.stop();
  for (let i = 0; i < 50; i++) {
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (file) return join(dir, file);
    await sleep(100);
  }
  throw new Error(`no .cpuprofile written in ${dir}`);
}

await main(async () => {
  const top = numberOption('--top', 25, 1, 500);
  let file = option('--summarise');
  if (!file) {
    file = await profileRun(ensureDir(join(scratchDir(), `prof-${Date.now()}`)));
    const keep = option('--keep');
    if (keep) {
      const dest = join(ensureDir(keep), `${flag('--bare') ? 'bare-' : ''}${flag('--cold') ? 'cold' : (option('--scenario') ?? 'get-user')}.cpuprofile`);
      copyFileSync(file, dest);
      process.stderr.write(`profile kept at ${dest}\n`);
    }
  }
  process.stdout.write(`${summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, top)}\n`);
});
