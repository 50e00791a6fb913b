// Journal memory (issue 12, "Done when" (b)): `npx tsx test/bench/journal-memory.ts [--apps N]
// [--requests N] [--journal-bytes N]`.
//
// 1,000 provisioned test apps are each sent 1,000 requests carrying the longest URL the mock
// accepts (8,192 characters, most of it query) and the longest body its journal keeps whole
// (16 KiB of JSON; a longer one is journaled as a marker, so it costs less), round robin so every
// app's journal fills at once. The request is a POST /tags that the route then refuses (no `name`),
// so the apps' records do not grow: what grows is the journal alone. Figures: RSS before (the base
// process), its peak while the traffic runs, and RSS and live heap after a full GC at the end,
// against the budget (`--journal-bytes`, default 64 MiB).
//
// In-process rather than a spawned server: a million requests of 24 KB each take minutes through
// app.request and far longer over sockets on a 2-core machine, and one process can force a full GC
// (exposed below) before reading its heap, so "live heap" is exact. The driver holds nothing across
// requests, so the growth of this process's RSS is the mock's.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pathToFileURL } from 'node:url';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { MAX_URL_LENGTH } from '../../src/http/pipeline.js';
import { createStore } from '../../src/setup.js';
import { DEFAULT_JOURNAL_BYTES, MAX_BODY_CHARS } from '../../src/store/journal.js';

export interface JournalMemoryOptions {
  apps?: number;
  requestsPerApp?: number;
  journalBytes?: number;
  /** Progress lines (to stderr when run from the command line). */
  log?: (line: string) => void;
}

export interface JournalMemoryFigures {
  apps: number;
  requests: number;
  urlChars: number;
  bodyChars: number;
  budgetMiB: number;
  /** RSS of the process with the store built and every app provisioned, after a full GC. */
  baseRssMiB: number;
  /** Highest RSS read during the traffic (every 5,000 requests). */
  peakRssMiB: number;
  /** RSS after the traffic and a full GC. */
  endRssMiB: number;
  /** Live heap growth over the base, after a full GC. */
  heapGrowthMiB: number;
  /** What the journals hold by their own count. */
  journalMiB: number;
  journalEntries: number;
  /** Heap growth per journal entry kept, in bytes. */
  heapBytesPerEntry: number;
  seconds: number;
  /** peak RSS ≤ base + budget. */
  met: boolean;
}

const MiB = 1024 * 1024;
const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;

function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

export async function journalMemory(options: JournalMemoryOptions = {}): Promise<JournalMemoryFigures> {
  const apps = options.apps ?? 1000;
  const perApp = options.requestsPerApp ?? 1000;
  const budget = options.journalBytes ?? DEFAULT_JOURNAL_BYTES;
  const log = options.log ?? (() => undefined);
  const gc = fullGc();

  const store = createStore({
    clock: new Clock({ start: 1_800_000_000, frozen: true }),
    maxTestApps: apps,
    journalBytes: budget,
    rateLimit: 1_000_000_000,
  });
  const app = createApp({ store, log: () => undefined });
  const origin = 'http://localhost';
  const path = '/tags?pad=';
  const url = `${origin}${path}${'q'.repeat(MAX_URL_LENGTH - origin.length - path.length)}`;
  const body = JSON.stringify({ pad: 'b'.repeat(MAX_BODY_CHARS - 10) });
  if (url.length !== MAX_URL_LENGTH || body.length !== MAX_BODY_CHARS) throw new Error('the request is not the longest accepted');
  const tokens = Array.from({ length: apps }, (_, i) => `test_journal_${i}`);
  const send = async (token: string): Promise<number> => {
    const res = await app.request(url, { method: 'POST', body, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
    await res.arrayBuffer();
    return res.status;
  };

  for (const token of tokens) await send(token); // provisions every app
  await app.request(`${origin}/__admin/requests`, { method: 'DELETE' });
  gc();
  const baseRss = process.memoryUsage().rss;
  const baseHeap = process.memoryUsage().heapUsed;
  log(`base: RSS ${mib(baseRss)} MiB, heap ${mib(baseHeap)} MiB, ${apps} apps provisioned`);

  const started = performance.now();
  let peakRss = baseRss;
  let sent = 0;
  for (let round = 0; round < perApp; round++) {
    for (const token of tokens) {
      const status = await send(token);
      if (status !== 400) throw new Error(`expected 400 parameter_not_found, got ${status}`);
      if (++sent % 5000 === 0) {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        if (sent % 100_000 === 0) log(`${sent} requests, RSS ${mib(process.memoryUsage().rss)} MiB, journal ${mib(store.journalUsage().bytes)} MiB`);
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  gc();
  const end = process.memoryUsage();
  const usage = store.journalUsage();
  const heapGrowth = end.heapUsed - baseHeap;
  return {
    apps,
    requests: sent,
    urlChars: url.length,
    bodyChars: body.length,
    budgetMiB: mib(budget),
    baseRssMiB: mib(baseRss),
    peakRssMiB: mib(peakRss),
    endRssMiB: mib(end.rss),
    heapGrowthMiB: mib(heapGrowth),
    journalMiB: mib(usage.bytes),
    journalEntries: usage.entries,
    heapBytesPerEntry: usage.entries === 0 ? 0 : Math.round(heapGrowth / usage.entries),
    seconds: Math.round(seconds),
    met: peakRss <= baseRss + budget,
  };
}

function arg(name: string): number | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options: JournalMemoryOptions = { log: (line) => process.stderr.write(`[journal-memory] ${line}\n`) };
  const apps = arg('--apps');
  const requests = arg('--requests');
  const bytes = arg('--journal-bytes');
  if (apps !== undefined) options.apps = apps;
  if (requests !== undefined) options.requestsPerApp = requests;
  if (bytes !== undefined) options.journalBytes = bytes;
  journalMemory(options).then(
    (figures) => {
      process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
      process.stdout.write(
        `journal memory: ${figures.apps} apps × ${figures.requests / figures.apps} requests (URL ${figures.urlChars} chars, body ${figures.bodyChars}) in ${figures.seconds} s: ` +
          `RSS ${figures.baseRssMiB} MiB base, ${figures.peakRssMiB} peak, ${figures.endRssMiB} after GC; budget ${figures.budgetMiB} MiB ` +
          `(journal holds ${figures.journalMiB} MiB by its count, ${figures.journalEntries} entries; live heap +${figures.heapGrowthMiB} MiB) — ` +
          `${figures.met ? 'met' : 'MISSED'} (peak ≤ base + budget)\n`,
      );
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
