// Bench row of issue 13: a scroll page on a 100k-customer app against the same page on a
// 100-customer app (target: within SCALE_BOUND, 2x). In process (createApp + createStore, app.request, the
// whole pipeline and the JSON text of 100 users included), one app of each size seeded with
// `generate.users`, measured alternately, request by request, so drift and collections hit both alike:
// - opening page: GET /users/scroll, 100 users; the slot is then freed by moving the mock's clock
//   past the scroll's minute (not timed), so every iteration opens afresh;
// - continuing page (100k app only): GET /users/scroll?scroll_param=, 100 users, deep in the scroll.
// The first scroll of each app after its seeding builds the order index with one walk (as a deep
// page of GET /users does); the warm-up round pays it.
//
// `npx tsx test/bench/scroll-scale.ts [--rounds N]` prints the figures; `scrollScale()` returns them
// for run.ts.

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { createStore } from '../../src/setup.js';
import { REFERENCE_TIME } from '../../src/fixtures/normalize.js';
import { SCROLL_IDLE_SECONDS } from '../../src/resources/scroll/rules.js';
import { SCALE_BOUND } from './paired-pages.js';

export interface ScrollScale {
  customers: { small: number; big: number };
  /** Median ms of an opening page (100 users), per app size. */
  openSmallMs: number;
  openBigMs: number;
  /** Median ms of a continuing page of the big app's scroll. */
  nextBigMs: number;
  /**
   * Median over the iterations of big / small, each pair measured back to back: on a shared
   * machine the load moves between pairs far more than within one. The target is at most SCALE_BOUND.
   */
  ratio: number;
  met: boolean;
  /**
   * The same paired ratio for GET /users?per_page=60 (a list page that reads its slice from the
   * same order index), measured in the same loop: what the machine gives any page at these sizes.
   */
  listRatio: number;
  iterations: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : ((s[(s.length - 1) >> 1] as number) + (s[s.length >> 1] as number)) / 2;
};

export async function scrollScale(options: { rounds?: number; iterations?: number; bigUsers?: number } = {}): Promise<ScrollScale> {
  const rounds = options.rounds ?? 5;
  const iterations = options.iterations ?? 100;
  const bigUsers = options.bigUsers ?? 100_000;
  const clock = new Clock({ start: REFERENCE_TIME + 86_400, frozen: true });
  const store = createStore({ clock, rateLimit: 1_000_000_000 });
  for (const [id, users] of [['small', 100], ['big', bigUsers]] as const) {
    store.seedApp({ app: { id, tokens: [`${id}-token`] }, generate: { users } } as never, 'replace');
  }
  const app = createApp({ store, log: () => undefined });
  const headers = (id: string) => ({ authorization: `Bearer ${id}-token` });

  const timed = async (id: string, path: string): Promise<{ ms: number; body: { users: unknown[]; scroll_param: string } }> => {
    // Wall time: process.cpuUsage() would also count V8's background collector threads, whose
    // work on the big app's heap lands on whichever request runs.
    const t0 = performance.now();
    const res = await app.request(path, { headers: headers(id) });
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${id} ${path} → ${res.status} ${text.slice(0, 200)}`);
    return { ms, body: JSON.parse(text) };
  };

  const open = { small: [] as number[], big: [] as number[] };
  const ratios: number[] = [];
  const listRatios: number[] = [];
  const next: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const warm = round === 0;
    // Interleaved, so a collection of the big app's heap lands on both sizes alike.
    for (let i = 0; i < iterations; i++) {
      for (const id of ['small', 'big'] as const) {
        const page = await timed(id, '/users/scroll');
        if (page.body.users.length !== 100) throw new Error(`${id}: an opening page of ${page.body.users.length}`);
        if (!warm) open[id].push(page.ms);
      }
      if (!warm) ratios.push((open.big.at(-1) as number) / (open.small.at(-1) as number));
      const small = await timed('small', '/users?per_page=60');
      const big = await timed('big', '/users?per_page=60');
      if (!warm) listRatios.push(big.ms / small.ms);
      clock.advance(SCROLL_IDLE_SECONDS);
    }
    // Continuing pages, from wherever the big app's scroll stands (it has a thousand).
    let param = (await timed('big', '/users/scroll')).body.scroll_param;
    for (let i = 0; i < iterations; i++) {
      const page = await timed('big', `/users/scroll?scroll_param=${param}`);
      if (page.body.users.length !== 100) throw new Error(`big: a continuing page of ${page.body.users.length}`);
      param = page.body.scroll_param;
      if (!warm) next.push(page.ms);
    }
    clock.advance(SCROLL_IDLE_SECONDS);
  }
  const openSmallMs = median(open.small);
  const openBigMs = median(open.big);
  const ratio = median(ratios);
  return {
    customers: { small: store.app('small')?.data.customers.size ?? 0, big: store.app('big')?.data.customers.size ?? 0 },
    openSmallMs,
    openBigMs,
    nextBigMs: median(next),
    ratio,
    met: ratio <= SCALE_BOUND,
    listRatio: median(listRatios),
    iterations: rounds * iterations,
  };
}

export function formatScrollScale(s: ScrollScale): string {
  return [
    `GET /users/scroll, opening page of 100 users (median of ${s.iterations}, in process): ${s.customers.small} customers ${s.openSmallMs.toFixed(3)} ms, ${s.customers.big} customers ${s.openBigMs.toFixed(3)} ms (median of the paired ratios ${s.ratio.toFixed(3)}x)`,
    `  continuing page of the ${s.customers.big}-customer app's scroll: ${s.nextBigMs.toFixed(3)} ms`,
    `  control, GET /users?per_page=60 in the same loop: paired ratio ${s.listRatio.toFixed(3)}x`,
  ].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--rounds');
  const rounds = i >= 0 ? Number(process.argv[i + 1]) : 5;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) throw new Error('--rounds must be an integer from 1 to 100');
  const result = await scrollScale({ rounds });
  process.stdout.write(`${formatScrollScale(result)}\n${result.met ? 'PASS' : 'MISS'}: within ${SCALE_BOUND}x (target ratio <= ${SCALE_BOUND})\n`);
}
