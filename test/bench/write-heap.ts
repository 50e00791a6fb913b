// What a write keeps on the JS heap: a customer created through POST /users (the record, its index
// entries, journal entry and enrichment job) and an event accepted by POST /events (the record,
// its duplicate key, its place in the person's timeline). Every write's survivors are copied by
// the young-generation collector before they settle, so these bytes are a share of a write's
// collector time under load (docs/performance.md).
//
// In process, through app.fetch, on a frozen clock (no enrichment job runs): a warm-up batch, then
// `batches` measured batches, of `perBatch` writes shaped as the bench rows send them (new users
// with an email and three custom attributes; events of 20 names for one user, 80 days before the
// clock, each with a number and a monetary amount), a full collection after each. Prints the
// median growth per write over the measured batches. Numbers, never assertions.
//
//   npx tsx test/bench/write-heap.ts [--batches 6] [--per-batch 10000]

import { pathToFileURL } from 'node:url';
import { fullGc } from './full-gc.js';
import { inProcessRig, RIG_START } from './in-process-rig.js';
import { main, median, numberOption } from './lib.js';

type Kind = 'customer' | 'event';

const writes: Record<Kind, { path: string; status: number; body: (n: number) => unknown; count: (data: { customers: { size: number }; events: { size: number } }) => number }> = {
  customer: {
    path: '/users',
    status: 200,
    body: (n) => ({ user_id: `heap-${n}`, email: `heap-${n}@example.com`, name: 'Bench User', custom_attributes: { plan_tier: 'pro', seats: n % 50, bench_batch: 'heap' } }),
    count: (data) => data.customers.size,
  },
  event: {
    path: '/events',
    status: 202,
    body: (n) => ({ event_name: `bench-${n % 20}`, created_at: RIG_START - 80 * 86_400 + n, user_id: 'heap-person', metadata: { order: n, price: { amount: 2999, currency: 'usd' } } }),
    count: (data) => data.events.size,
  },
};

export async function writeHeap(kind: Kind, options: { batches?: number; perBatch?: number } = {}): Promise<{ bytesPerWrite: number; batches: number[] }> {
  const batches = options.batches ?? 6;
  const perBatch = options.perBatch ?? 10_000;
  const write = writes[kind];
  const gc = fullGc();
  const { store, post, tokens } = inProcessRig(`heap-${kind}`, 1);
  const token = tokens[0] as string;
  if (kind === 'event' && (await post(token, '/users', { user_id: 'heap-person' })) !== 200) throw new Error('could not create the person');
  const count = () => {
    const app = store.appForToken(token);
    return app ? write.count(app.data) : 0;
  };
  let n = 0;
  const growth: number[] = [];
  gc();
  let before = process.memoryUsage().heapUsed;
  let held = count();
  for (let b = 0; b <= batches; b++) {
    for (let i = 0; i < perBatch; i++, n++) {
      const status = await post(token, write.path, write.body(n));
      if (status !== write.status) throw new Error(`POST ${write.path} answered ${status}`);
    }
    gc();
    const after = process.memoryUsage().heapUsed;
    // Every write of a batch must have stayed: a cap reached would make the figure a replacement's.
    if (count() !== held + perBatch) throw new Error(`expected ${held + perBatch} ${kind}s, found ${count()}`);
    held = count();
    if (b > 0) growth.push((after - before) / perBatch);
    before = after;
  }
  return { bytesPerWrite: median(growth), batches: growth };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(async () => {
    const batches = numberOption('--batches', 6, 1, 100);
    const perBatch = numberOption('--per-batch', 10_000, 100, 1_000_000);
    for (const [kind, label] of [['customer', 'customer created by POST /users'], ['event', 'event accepted by POST /events']] as const) {
      const { bytesPerWrite, batches: each } = await writeHeap(kind, { batches, perBatch });
      console.log(`heap kept per ${label}: median ${Math.round(bytesPerWrite)} bytes (batches: ${each.map((b) => Math.round(b)).join(', ')})`);
    }
  });
}
