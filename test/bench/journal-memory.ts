// Journal memory (issue 12, "Done when" (b)): `npx tsx test/bench/journal-memory.ts [--apps N]
// [--requests N] [--journal-bytes N]`; `journalMemory()` returns the same figures to a caller.
//
// 1,000 provisioned test apps are each sent 1,000 requests carrying the longest URL the mock
// accepts (8,192 characters, most of it query) and the longest body its journal keeps whole
// (16 KiB of JSON; a longer one is journaled as a marker, so it costs less), round robin so every
// app's journal fills at once. The request is a POST /tags that the route refuses after reading
// and parsing its body (no `name`), so the apps' records do not grow: only the journal can.
// The same traffic runs twice, each in a fresh process: with the journal off (the base process
// under that load) and on; the target is the peak RSS with the journal ≤ the base's peak plus the
// budget (`--journal-bytes`, default 64 MiB).
//
// In-process (each child drives its own store through app.fetch) rather than against a spawned
// server: a million requests of 24 KB each take minutes this way and far longer over sockets on a
// 2-core machine, a process can force a full GC (exposed below) before reading its heap, and the
// driver holds nothing across requests, so what the process's RSS gains is the mock's.

import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { MAX_URL_LENGTH } from '../../src/http/pipeline.js';
import { createStore } from '../../src/setup.js';
import { MAX_BODY_CHARS } from '../../src/admin/journal-log.js';
import { DEFAULT_JOURNAL_BYTES } from '../../src/admin/journal-space.js';
import { fullGc } from './full-gc.js';

export interface JournalMemoryOptions {
  apps?: number;
  requestsPerApp?: number;
  journalBytes?: number;
  /** Progress lines (to stderr when run from the command line). */
  log?: (line: string) => void;
}

/** One process's run: RSS in MiB. */
export interface RunFigures {
  journal: boolean;
  requests: number;
  /** With the store built and every app provisioned, after a full GC. */
  idleRssMiB: number;
  /** Highest RSS read during the traffic (every 1,000 requests), and after how many requests. */
  peakRssMiB: number;
  peakAt: number;
  /** Median of those readings. */
  medianRssMiB: number;
  /** After the traffic and a full GC. */
  endRssMiB: number;
  /** Live heap growth over the idle process, after a full GC. */
  heapGrowthMiB: number;
  /** What the journals hold by their own count. */
  journalMiB: number;
  journalEntries: number;
  seconds: number;
}

export interface JournalMemoryFigures {
  apps: number;
  requestsPerApp: number;
  urlChars: number;
  bodyChars: number;
  budgetMiB: number;
  /** The same traffic with the journal off: the base process under this load. */
  base: RunFigures;
  withJournal: RunFigures;
  /** Peak RSS with the journal over the base's peak. */
  journalRssMiB: number;
  /** peak RSS with the journal ≤ the base's peak + the budget. */
  met: boolean;
}

const MiB = 1024 * 1024;
const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;

interface RunOptions {
  apps: number;
  requestsPerApp: number;
  journalBytes: number;
  journal: boolean;
}

const ORIGIN = 'http://localhost';
const PATH = '/tags?pad=';
const URL_TEXT = `${ORIGIN}${PATH}${'q'.repeat(MAX_URL_LENGTH - ORIGIN.length - PATH.length)}`;
const BODY = JSON.stringify({ pad: 'b'.repeat(MAX_BODY_CHARS - 10) });

/** One run in this process. */
export async function measure(options: RunOptions, log: (line: string) => void = () => undefined): Promise<RunFigures> {
  const { apps, requestsPerApp: perApp, journalBytes: budget } = options;
  const gc = fullGc();
  const store = createStore({
    clock: new Clock({ start: 1_800_000_000, frozen: true }),
    maxTestApps: apps,
    journalBytes: budget,
    rateLimit: 1_000_000_000,
    ...(options.journal ? {} : { journalSize: 0 }),
  });
  const app = createApp({ store, log: () => undefined });
  if (URL_TEXT.length !== MAX_URL_LENGTH || BODY.length !== MAX_BODY_CHARS) throw new Error('the request is not the longest accepted');
  const bodyBytes = Buffer.from(BODY);
  const headersOf = Array.from(
    { length: apps },
    (_, i) => new Headers({ authorization: `Bearer test_journal_${i}`, 'content-type': 'application/json', 'content-length': String(bodyBytes.length) }),
  );
  // A request as @hono/node-server hands one to the app: the URL string, the headers and the
  // buffered body (a fresh copy each time, as each request reads its own). undici's Request
  // (what app.request builds) costs ~320 µs alone at this size, ten times the mock's own work.
  const send = async (i: number): Promise<number> => {
    const request = {
      method: 'POST',
      url: URL_TEXT,
      headers: headersOf[i] as Headers,
      body: null,
      arrayBuffer: async () => bodyBytes.buffer.slice(bodyBytes.byteOffset, bodyBytes.byteOffset + bodyBytes.length),
    } as unknown as Request;
    const res = await app.fetch(request);
    await res.arrayBuffer();
    return res.status;
  };

  for (let i = 0; i < apps; i++) await send(i); // provisions every app
  await app.request(`${ORIGIN}/__admin/requests`, { method: 'DELETE' });
  gc();
  const idleRss = process.memoryUsage().rss;
  const idleHeap = process.memoryUsage().heapUsed;
  log(`journal ${options.journal ? 'on' : 'off'}: idle RSS ${mib(idleRss)} MiB, ${apps} apps provisioned`);

  const started = performance.now();
  let peakRss = idleRss;
  let peakAt = 0;
  const readings: number[] = [];
  let sent = 0;
  for (let round = 0; round < perApp; round++) {
    for (let i = 0; i < apps; i++) {
      const status = await send(i);
      // No `name` (and `pad`, a query parameter POST /tags does not take): refused after the body
      // is read and parsed, so the apps' records do not grow.
      if (status !== 400) throw new Error(`expected 400 parameter_not_found and parameter_invalid, got ${status}`);
      if (++sent % 1000 === 0) {
        const rss = process.memoryUsage().rss;
        readings.push(rss);
        if (rss > peakRss) {
          peakRss = rss;
          peakAt = sent;
        }
        if (sent % 100_000 === 0) log(`${sent} requests, RSS ${mib(process.memoryUsage().rss)} MiB, journal ${mib(store.journalUsage().bytes)} MiB`);
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  readings.sort((a, b) => a - b);
  gc();
  const end = process.memoryUsage();
  const usage = store.journalUsage();
  return {
    journal: options.journal,
    requests: sent,
    idleRssMiB: mib(idleRss),
    peakRssMiB: mib(peakRss),
    peakAt,
    medianRssMiB: mib(readings[Math.floor(readings.length / 2)] ?? idleRss),
    endRssMiB: mib(end.rss),
    heapGrowthMiB: mib(end.heapUsed - idleHeap),
    journalMiB: mib(usage.bytes),
    journalEntries: usage.entries,
    seconds: Math.round(seconds),
  };
}

/** Runs `measure` in a fresh process, so one run's heap cannot hide or inflate the other's. */
function inChild(options: RunOptions, log: (line: string) => void): Promise<RunFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), CHILD_FLAG, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) if (line.trim() !== '') log(line);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the measuring process exited ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as RunFigures);
    });
  });
}

const CHILD_FLAG = '--journal-memory-child';

/**
 * The row: the same traffic with the journal off (the base process under that load; its memory
 * does not grow with the number of requests, so a quarter of them suffices) and with the journal on.
 */
export async function journalMemory(options: JournalMemoryOptions = {}): Promise<JournalMemoryFigures> {
  const apps = options.apps ?? 1000;
  const perApp = options.requestsPerApp ?? 1000;
  const budget = options.journalBytes ?? DEFAULT_JOURNAL_BYTES;
  const log = options.log ?? (() => undefined);
  const base = await inChild({ apps, requestsPerApp: Math.max(1, Math.ceil(perApp / 4)), journalBytes: budget, journal: false }, log);
  const withJournal = await inChild({ apps, requestsPerApp: perApp, journalBytes: budget, journal: true }, log);
  const journalRss = withJournal.peakRssMiB - base.peakRssMiB;
  return {
    apps,
    requestsPerApp: perApp,
    urlChars: URL_TEXT.length,
    bodyChars: BODY.length,
    budgetMiB: mib(budget),
    base,
    withJournal,
    journalRssMiB: Math.round(journalRss * 10) / 10,
    met: journalRss <= mib(budget),
  };
}

function arg(name: string): number | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
}

const entry = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const childAt = process.argv.indexOf(CHILD_FLAG);
if (entry && childAt >= 0) {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  measure(JSON.parse(process.argv[childAt + 1] ?? '{}') as RunOptions, log).then(
    (figures) => process.stdout.write(`${JSON.stringify(figures)}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
} else if (entry) {
  const options: JournalMemoryOptions = { log: (line) => process.stderr.write(`[journal-memory] ${line}\n`) };
  const apps = arg('--apps');
  const requests = arg('--requests');
  const bytes = arg('--journal-bytes');
  if (apps !== undefined) options.apps = apps;
  if (requests !== undefined) options.requestsPerApp = requests;
  if (bytes !== undefined) options.journalBytes = bytes;
  journalMemory(options).then(
    (f) => {
      process.stdout.write(`${JSON.stringify(f, null, 2)}\n`);
      process.stdout.write(
        `journal memory: ${f.apps} apps × ${f.requestsPerApp} requests (URL ${f.urlChars} chars, body ${f.bodyChars}): ` +
          `peak RSS ${f.withJournal.peakRssMiB} MiB with the journal (${f.withJournal.seconds} s) vs ${f.base.peakRssMiB} MiB without = +${f.journalRssMiB} MiB ` +
          `for a ${f.budgetMiB} MiB budget (journal holds ${f.withJournal.journalMiB} MiB by its count, ${f.withJournal.journalEntries} entries; ` +
          `live heap +${f.withJournal.heapGrowthMiB} MiB) — ${f.met ? 'met' : 'MISSED'}\n`,
      );
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
