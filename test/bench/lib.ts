// Shared plumbing of the benchmarks (run.ts, soak.ts, profile.ts): child processes that are always
// killed, the bare Hono floor compiled to plain JS, /proc readings, and a bounded autocannon run
// that keeps every response time (autocannon's own histogram has 1 ms resolution).

import autocannon, { type AutocannonRequest } from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const BENCH_DIR = join(ROOT, 'test', 'bench');
/** The mock's entry; BENCH_MOCK_ENTRY points the benchmarks at another build (an A/B experiment). */
export const MOCK_ENTRY = process.env.BENCH_MOCK_ENTRY ? resolve(process.env.BENCH_MOCK_ENTRY) : join(ROOT, 'dist', 'cli', 'index.js');
export const HOST = '127.0.0.1';

// --- ids of the default fixtures ------------------------------------------------------------------

export const ADA = '5714dd359a3fd47136000001';
export const ACME = '5714dd359a3fd47136000101';
export const LONG_CONVERSATION = '5714dd359a3fd47136000503';
export const DEMO_TOKEN = 'demo-token';

// --- arguments ----------------------------------------------------------------------------------

export function flag(name: string): boolean {
  return process.argv.includes(name);
}

export function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  if (i >= 0) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

export function numberOption(name: string, fallback: number, min: number, max: number): number {
  const raw = option(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`${name} must be a number from ${min} to ${max}, not "${raw}"`);
  return n;
}

// --- child processes: every one is killed when this process ends, however it ends ------------------

const children = new Set<ChildProcess>();
let scratch: string | undefined;

function killEverything(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  children.clear();
  if (scratch) {
    rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  }
}

process.on('exit', killEverything);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping every child process\n`);
    killEverything();
    process.exit(130);
  });
}

/** Runs `fn`, then kills every child whatever happened; a failure exits 1 with its message. */
export async function main(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
    killEverything();
    process.exit(0);
  } catch (err) {
    process.stderr.write(`\nbench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    killEverything();
    process.exit(1);
  }
}

/** A scratch directory whose node_modules is the project's, so compiled helpers resolve `hono`. */
export function scratchDir(): string {
  if (!scratch) {
    scratch = mkdtempSync(join(tmpdir(), 'mock-bench-'));
    symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'), 'dir');
    writeFileSync(join(scratch, 'package.json'), '{"type":"module","private":true}\n');
  }
  return scratch;
}

/**
 * A TypeScript helper of this folder as plain JS in the scratch directory, so it runs under bare
 * `node` with no loader (a tsx loader would add its own start-up time to the floor's cold start).
 */
export function compileHelper(name: string): string {
  const source = readFileSync(join(BENCH_DIR, `${name}.ts`), 'utf8');
  const out = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
    fileName: `${name}.ts`,
  });
  const file = join(scratchDir(), `${name}.js`);
  writeFileSync(file, out.outputText);
  return file;
}

/** `npm run build`; throws with tsc's output when it fails. */
export function build(): number {
  const t0 = performance.now();
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0) {
    throw new Error(`npm run build failed (status ${result.status}):\n${result.stdout}${result.stderr}`);
  }
  return performance.now() - t0;
}

export interface Server {
  name: string;
  pid: number;
  url: string;
  process: ChildProcess;
  /** Milliseconds from spawn to the "listening on" line. */
  listeningMs: number;
  stop(): Promise<void>;
  output(): string;
}

export interface SpawnOptions {
  nodeArgs?: string[];
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Spawns `node [nodeArgs] script args` and resolves once it prints its "listening on <url>" line. */
export function startNode(name: string, script: string, args: string[], options: SpawnOptions = {}): Promise<Server> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString('utf8')).slice(-8192);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  exited.then(() => children.delete(child));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolveServer, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${options.timeoutMs ?? 30_000} ms:\n${out}`));
    }, options.timeoutMs ?? 30_000);
    const onData = () => {
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      resolveServer({
        name,
        pid: child.pid as number,
        url: (m[1] as string).replace(/\/$/, ''),
        process: child,
        listeningMs: performance.now() - t0,
        stop,
        output: () => out,
      });
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before listening:\n${out}`));
    });
  });
}

export function startMock(args: string[] = [], options: SpawnOptions = {}): Promise<Server> {
  return startNode('mock', MOCK_ENTRY, ['--port', '0', '--host', HOST, '--seed', '1', ...args], options);
}

let probeScript: string | undefined;
/** The mock with probe.ts preloaded (server-side timings, GC + memory on GET /__bench/memory). */
export function startProbedMock(args: string[] = [], options: SpawnOptions = {}): Promise<Server> {
  probeScript ??= compileHelper('probe');
  return startMock(args, { ...options, nodeArgs: ['--expose-gc', '--import', pathToFileURL(probeScript).href, ...(options.nodeArgs ?? [])] });
}

/** Server-side milliseconds of a probed response (NaN without the probe). */
export const serverMs = (reply: Reply): number => Number(reply.headers.get('x-bench-server-ms') ?? NaN);

export interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

/** A probed server's memory after a full GC, in MiB. */
export async function probeMemory(server: Pick<Server, 'url'>): Promise<Memory> {
  const m = JSON.parse((await callOk(`${server.url}/__bench/memory`)).text) as Memory;
  const mib = (x: number) => x / 2 ** 20;
  return { rss: mib(m.rss), heapUsed: mib(m.heapUsed), heapTotal: mib(m.heapTotal), external: mib(m.external), arrayBuffers: mib(m.arrayBuffers) };
}

let bareScript: string | undefined;
export function startBare(bodiesFile?: string, options: SpawnOptions = {}): Promise<Server> {
  bareScript ??= compileHelper('bare-hono');
  return startNode('bare-hono', bareScript, ['--port', '0', ...(bodiesFile ? ['--bodies', bodiesFile] : [])], options);
}

// --- /proc ----------------------------------------------------------------------------------------

/** Resident set size of a process, in MiB (NaN once it is gone). */
export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Busy CPU time of the whole machine, in clock ticks (/proc/stat). */
function machineBusyTicks(): number {
  try {
    const f = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal
    return (f[0] ?? 0) + (f[1] ?? 0) + (f[2] ?? 0) + (f[5] ?? 0) + (f[6] ?? 0) + (f[7] ?? 0);
  } catch {
    return NaN;
  }
}

/** CPU time (user + system) of one process, in clock ticks. */
function processTicks(pid: number | 'self'): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

const oursTicks = (): number => processTicks('self') + [...children].reduce((a, c) => a + (c.pid ? processTicks(c.pid) : 0), 0);

/**
 * Measures how much CPU other processes (not this one or its children) used meanwhile, in CPUs
 * (1 = one core busy all along): on a 2-core machine anything above ~0.1 skews the figures.
 */
export function foreignCpu(): () => number {
  const t0 = performance.now();
  const busy0 = machineBusyTicks();
  const ours0 = oursTicks();
  return () => {
    const seconds = (performance.now() - t0) / 1000;
    const foreign = machineBusyTicks() - busy0 - (oursTicks() - ours0);
    return Math.max(0, foreign / 100 / seconds);
  };
}

export function openFds(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

// --- HTTP for set-up and single timed calls -------------------------------------------------------

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  ms: number;
}

export async function call(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {}): Promise<Reply> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
    signal: AbortSignal.timeout(init.timeoutMs ?? 60_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, ms: performance.now() - t0 };
}

export async function callOk(url: string, init: Parameters<typeof call>[1] = {}): Promise<Reply> {
  const reply = await call(url, init);
  if (reply.status < 200 || reply.status > 299) throw new Error(`${init.method ?? 'GET'} ${url}: ${reply.status} ${reply.text.slice(0, 300)}`);
  return reply;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

// --- load -----------------------------------------------------------------------------------------

export interface LoadSpec {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called per request: a fresh body (POST loads); the same function drives mock and floor. */
  makeBody?: () => string;
  /** Called per request: the path, in one sequence shared by all connections. */
  makePath?: () => string;
  /** Several fixed requests, cycled through by each connection. */
  requests?: AutocannonRequest[];
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  count: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Peak RSS of the server during the run, MiB. */
  rssPeak: number;
  rssEnd: number;
  /** RSS samples taken during the run: [seconds since start, MiB]. */
  rssSeries: [number, number][];
  /** CPUs used by other processes during the run (noise). */
  foreign: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

/** One bounded autocannon run (10 connections by default) against a server, sampling its RSS. */
export async function load(
  server: Pick<Server, 'url' | 'pid'>,
  spec: LoadSpec,
  seconds: number,
  options: { connections?: number; sampleMs?: number; onSample?: (t: number, rss: number) => void } = {},
): Promise<LoadResult> {
  const headers = { accept: 'application/json', ...(spec.body !== undefined || spec.makeBody ? { 'content-type': 'application/json' } : {}), ...spec.headers };
  const makeBody = spec.makeBody;
  const makePath = spec.makePath;
  const requests: AutocannonRequest[] = spec.requests ?? [
    {
      method: spec.method ?? 'GET',
      path: spec.path ?? '/',
      headers,
      ...(spec.body !== undefined ? { body: spec.body } : {}),
      ...(makeBody || makePath
        ? { setupRequest: (req: AutocannonRequest) => ({ ...req, ...(makeBody ? { body: makeBody() } : {}), ...(makePath ? { path: makePath() } : {}) }) }
        : {}),
    },
  ];
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const rssSeries: [number, number][] = [];
  const t0 = performance.now();
  const sample = () => {
    const t = (performance.now() - t0) / 1000;
    const rss = rssMiB(server.pid);
    rssSeries.push([t, rss]);
    options.onSample?.(t, rss);
  };
  sample();
  const noise = foreignCpu();
  const sampler = setInterval(sample, options.sampleMs ?? 250);
  const instance = autocannon({
    url: server.url,
    connections: options.connections ?? 10,
    duration: seconds,
    timeout: 10,
    sampleInt: 100,
    headers,
    requests,
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    if (n === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[n++] = ms;
  });
  // A hard stop in case autocannon overruns its own duration.
  const guard = setTimeout(() => instance.stop(), (seconds + 15) * 1000);
  let result;
  try {
    result = await instance;
  } finally {
    clearTimeout(guard);
    clearInterval(sampler);
  }
  sample();
  const elapsed = (performance.now() - t0) / 1000;
  const sorted = latencies.subarray(0, n).sort();
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statuses[code] = count;
  const rssValues = rssSeries.map(([, r]) => r).filter((r) => Number.isFinite(r));
  return {
    rps: n / Math.max(elapsed, result.duration || elapsed),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    count: n,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    rssPeak: Math.max(...rssValues),
    rssEnd: rssValues[rssValues.length - 1] ?? NaN,
    rssSeries,
    foreign: noise(),
  };
}

// --- numbers --------------------------------------------------------------------------------------

export function median(xs: readonly number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

export function fmt(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return '-';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A left-aligned first column and right-aligned others. */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
