// Pending bulk items under the byte budget (engine/byte-budget.ts): `npx tsx test/bench/bulk-memory.ts
// [--apps N]`; `bulkMemory()` returns the figures to test/bench/run.ts.
//
// Provisioned apps each submit the biggest tasks a client can (100 items of ~10,000 characters,
// about 1 MiB of body) round robin, never running the queue, until every app is refused: before the
// budget a client could keep ~2 GiB an app this way (20 jobs x 100 tasks), now every app together
// stops at the budget. In-process, through app.fetch, with a full GC before each RSS reading.
// Numbers, never assertions.

import { pathToFileURL } from 'node:url';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { createStore } from '../../src/setup.js';
import { DEFAULT_BYTE_BUDGETS } from '../../src/engine/byte-budget.js';
import { fullGc } from './full-gc.js';

export interface BulkMemoryFigures {
  apps: number;
  accepted: number;
  refused: number;
  bodyMiB: number;
  budgetMiB: number;
  countedMiB: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  heapGrowthMiB: number;
}

const MiB = 1024 * 1024;

export async function bulkMemory(options: { apps?: number } = {}): Promise<BulkMemoryFigures> {
  const apps = options.apps ?? 20;
  const gc = fullGc();
  const store = createStore({ clock: new Clock({ start: 1_700_000_000, frozen: true }), rateLimit: 1_000_000_000 });
  const app = createApp({ store, log: () => undefined });
  const tokens = Array.from({ length: apps }, (_, i) => `test_bulk_memory_${i}`);
  const filler = 'x'.repeat(10_000);
  const body = (i: number) =>
    JSON.stringify({ items: Array.from({ length: 100 }, (_, k) => ({ method: 'post', data_type: 'user', data: { user_id: `u-${i}-${k}`, padding: filler } })) });
  const post = (token: string, text: string) =>
    app.fetch(new Request('http://localhost/bulk/users', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' }, body: text }));
  // Every app exists (and is warm) before the first reading.
  for (const token of tokens) await app.fetch(new Request('http://localhost/me', { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }));
  gc();
  const before = process.memoryUsage();
  let accepted = 0;
  let refused = 0;
  let bodyChars = 0;
  const open = new Set(tokens);
  for (let round = 0; open.size > 0; round++) {
    for (const token of [...open]) {
      const text = body(round);
      const res = await post(token, text);
      await res.arrayBuffer();
      if (res.status === 202) {
        accepted++;
        bodyChars += text.length;
      } else {
        refused++;
        open.delete(token);
      }
    }
  }
  gc();
  const after = process.memoryUsage();
  return {
    apps,
    accepted,
    refused,
    bodyMiB: bodyChars / MiB,
    budgetMiB: store.budgets.limits.bulk / MiB,
    countedMiB: store.budgets.used('bulk') / MiB,
    rssBeforeMiB: before.rss / MiB,
    rssAfterMiB: after.rss / MiB,
    heapGrowthMiB: (after.heapUsed - before.heapUsed) / MiB,
  };
}

export function formatBulkMemory(f: BulkMemoryFigures): string[] {
  const n = (x: number) => x.toFixed(1);
  return [
    `pending bulk items, ${f.apps} apps round robin until refused (budget ${n(f.budgetMiB)} MiB, default ${DEFAULT_BYTE_BUDGETS.bulk / MiB} MiB):`,
    `  ${f.accepted} tasks accepted (${n(f.bodyMiB)} MiB of bodies), ${f.refused} refused; counted ${n(f.countedMiB)} MiB`,
    `  RSS ${n(f.rssBeforeMiB)} -> ${n(f.rssAfterMiB)} MiB (+${n(f.rssAfterMiB - f.rssBeforeMiB)}), live heap +${n(f.heapGrowthMiB)} MiB after a full GC` +
      ` (target: within the budget; before it, ~2 GiB an app was reachable)`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--apps');
  const apps = at > 0 ? Number(process.argv[at + 1]) : undefined;
  const figures = await bulkMemory(apps === undefined ? {} : { apps });
  process.stdout.write(`${formatBulkMemory(figures).join('\n')}\n`);
}
