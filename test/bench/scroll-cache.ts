// Where the scroll row's size-dependent time goes (issue 13): the store call that builds an opening
// page of 100 users (order index read, 100 id lookups, the record checks), timed on a 100-customer
// and a 100,000-customer app alternately, each twice in a row: the first pass right after a whole
// HTTP request of the other app (GET /users?per_page=60 through app.request, as the scroll row
// interleaves them), so it finds the data as a request leaves the CPU caches; the second finds it
// cache-resident. Every
// step of the call is O(1) or O(page) (resources/scroll/rules.ts), so a gap in the first pass that the second does
// not show is the cost of touching 100 records and hash slots spread over a larger heap.
//
// `npx tsx test/bench/scroll-cache.ts [--iterations N]` prints the medians.

import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { createStore } from '../../src/setup.js';
import type { AppState } from '../../src/state/app-state.js';
import { REFERENCE_TIME } from '../../src/fixtures/normalize.js';
import { scrollPage } from '../../src/resources/scroll/rules.js';
import { main, median, option } from './lib.js';

await main(async () => {
  const iterations = Number(option('--iterations') ?? 400);
  const clock = new Clock({ start: REFERENCE_TIME + 86_400, frozen: true });
  const store = createStore({ clock, rateLimit: 1_000_000_000 });
  const sizes = [['small', 100], ['big', 100_000]] as const;
  for (const [id, users] of sizes) store.seedApp({ app: { id, tokens: [`${id}-token`] }, generate: { users } } as never, 'replace');
  const http = createApp({ store, log: () => undefined });
  const times = new Map(sizes.map(([id]) => [id, { cold: [] as number[], warm: [] as number[] }]));
  for (let i = 0; i < iterations; i++) {
    for (const [id] of i % 2 === 0 ? sizes : [...sizes].reverse()) {
      const app = store.app(id) as AppState;
      const other = id === 'small' ? 'big' : 'small';
      await (await http.request('/users?per_page=60', { headers: { authorization: `Bearer ${other}-token` } })).text();
      for (const pass of ['cold', 'warm'] as const) {
        const t0 = performance.now();
        const page = scrollPage(app, 'user', undefined, clock.now());
        const ms = performance.now() - t0;
        if (page.items.length !== 100) throw new Error(`${id}: a page of ${page.items.length}`);
        app.scroll = null;
        if (i >= iterations / 10) times.get(id)?.[pass].push(ms);
      }
    }
  }
  const out = [`scroll opening page, store call only (median of ${times.get('small')?.cold.length} alternating iterations):`];
  for (const pass of ['cold', 'warm'] as const) {
    const s = median(times.get('small')?.[pass] ?? []);
    const b = median(times.get('big')?.[pass] ?? []);
    out.push(`  ${pass === 'cold' ? 'first pass (after a request of the other app)' : 'second pass (cache-resident)'}: 100 customers ${(s * 1000).toFixed(1)} µs, 100,000 customers ${(b * 1000).toFixed(1)} µs, gap ${((b - s) * 1000).toFixed(1)} µs`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
});
