// What a customer created through POST /users keeps on the JS heap: the record, its index entries
// and everything else the write leaves behind (journal entry, enrichment job). Every write's
// survivors are copied by the young-generation collector before they settle, so these bytes are a
// share of a POST /users's collector time under load (docs/performance.md).
//
// In process, through app.fetch: `batches` batches of `perBatch` new users (user_id, email, name,
// three custom attributes, as the POST /users bench row creates them), a full collection after
// each, on a frozen clock (so no enrichment job runs). Prints the growth per customer of each batch
// after the first, which warms the code and the maps up. Numbers, never assertions.
//
//   npx tsx test/bench/customer-heap.ts [--batches 6] [--per-batch 10000]

import { pathToFileURL } from 'node:url';
import { fullGc } from './full-gc.js';
import { inProcessRig } from './in-process-rig.js';
import { main, median, numberOption } from './lib.js';

export async function customerHeap(options: { batches?: number; perBatch?: number } = {}): Promise<{ bytesPerCustomer: number; batches: number[] }> {
  const batches = options.batches ?? 6;
  const perBatch = options.perBatch ?? 10_000;
  const gc = fullGc();
  const { store, post, tokens } = inProcessRig('heap', 1);
  const token = tokens[0] as string;
  let n = 0;
  const growth: number[] = [];
  // A provisioned app starts with the default fixtures' customers.
  let seeded = -1;
  gc();
  let before = process.memoryUsage().heapUsed;
  for (let b = 0; b <= batches; b++) {
    for (let i = 0; i < perBatch; i++, n++) {
      const status = await post(token, '/users', { user_id: `heap-${n}`, email: `heap-${n}@example.com`, name: 'Bench User', custom_attributes: { plan_tier: 'pro', seats: n % 50, bench_batch: 'heap' } });
      if (status !== 200) throw new Error(`POST /users answered ${status}`);
      if (seeded < 0) seeded = (store.appForToken(token)?.data.customers.size ?? 0) - 1;
    }
    gc();
    const after = process.memoryUsage().heapUsed;
    if (b > 0) growth.push((after - before) / perBatch);
    before = after;
  }
  const app = store.appForToken(token);
  if (app?.data.customers.size !== seeded + n) throw new Error(`expected ${seeded + n} customers, found ${app?.data.customers.size}`);
  return { bytesPerCustomer: median(growth), batches: growth };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(async () => {
    const { bytesPerCustomer, batches } = await customerHeap({ batches: numberOption('--batches', 6, 1, 100), perBatch: numberOption('--per-batch', 10_000, 100, 1_000_000) });
    console.log(`heap kept per customer created by POST /users: median ${Math.round(bytesPerCustomer)} bytes (batches: ${batches.map((b) => Math.round(b)).join(', ')})`);
  });
}
