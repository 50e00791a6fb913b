// Webhook feeds and queued deliveries under their byte limits (resources/subscriptions/bytes.ts):
// `npx tsx test/bench/webhook-memory.ts [--apps N] [--users N]`; `webhookMemory()` returns the figures.
//
// Provisioned apps each subscribe 5 times to a loopback receiver that answers every delivery 500
// with a 64 KiB body (the most a feed keeps of an answer), then create users with 250 custom
// attributes of 255 characters (the biggest user.created item), queueing a delivery per subscription,
// without sending; then every app's queue is run twice (the attempts and their retries fail into the
// error feeds). By count alone each app could keep 1,000 such deliveries and 250 × 2 × 100 entries;
// now each keeps 16 MiB of each and every app together the 256 MiB webhooks budget. In-process,
// through app.fetch, with a full GC before each RSS reading. Numbers, never assertions.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { webhookBytes } from '../../src/engine/byte-budget.js';
import { fullGc } from './full-gc.js';
import { inProcessRig } from './in-process-rig.js';

export interface WebhookMemoryFigures {
  apps: number;
  usersPerApp: number;
  deliveriesQueued: number;
  /** Bytes counted after queueing, after the runs; the most one app held of each, in MiB. */
  queuedMiB: number;
  afterRunsMiB: number;
  maxQueueMiB: number;
  maxFeedsMiB: number;
  feedEntries: number;
  budgetMiB: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  heapGrowthMiB: number;
}

const MiB = 1024 * 1024;

export async function webhookMemory(options: { apps?: number; users?: number } = {}): Promise<WebhookMemoryFigures> {
  const apps = options.apps ?? 20;
  const users = options.users ?? 40;
  const gc = fullGc();
  const answer = 'e'.repeat(64 * 1024);
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(500, { 'content-type': 'text/plain' }).end(answer));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const { store, tokens, post, attrs } = inProcessRig('webhook_memory', apps);
  for (const token of tokens) {
    for (let s = 0; s < 5; s++) await post(token, '/subscriptions', { url, topics: ['user.created'] });
  }
  const states = tokens.map((t) => store.appForToken(t)).filter((a) => a !== undefined);
  // The seeded enrichment jobs go first: what the runs below send is deliveries only.
  for (const a of states) await post(null, `/__admin/jobs/run?app=${a.id}`, {});
  gc();
  const before = process.memoryUsage();
  let deliveriesQueued = 0;
  for (let n = 0; n < users; n++) {
    for (const token of tokens) if ((await post(token, '/users', { user_id: `u-${n}`, custom_attributes: attrs(n) })) === 200) deliveriesQueued += 5;
  }
  const queuedMiB = store.budgets.used('webhooks') / MiB;
  for (let run = 0; run < 2; run++) for (const a of states) await post(null, `/__admin/jobs/run?app=${a.id}`, {});
  await store.webhooks?.settled();
  gc();
  const after = process.memoryUsage();
  let maxQueue = 0;
  let maxFeeds = 0;
  let feedEntries = 0;
  for (const a of states) {
    maxQueue = Math.max(maxQueue, a.deliveries.bytes);
    maxFeeds = Math.max(maxFeeds, webhookBytes(a) - a.deliveries.bytes);
    for (const f of a.data.webhookFeeds.values()) feedEntries += f.sent.length + f.error.length;
  }
  receiver.close();
  return {
    apps,
    usersPerApp: users,
    deliveriesQueued,
    queuedMiB,
    afterRunsMiB: store.budgets.used('webhooks') / MiB,
    maxQueueMiB: maxQueue / MiB,
    maxFeedsMiB: maxFeeds / MiB,
    feedEntries,
    budgetMiB: store.budgets.limits.webhooks / MiB,
    rssBeforeMiB: before.rss / MiB,
    rssAfterMiB: after.rss / MiB,
    heapGrowthMiB: (after.heapUsed - before.heapUsed) / MiB,
  };
}

export function formatWebhookMemory(f: WebhookMemoryFigures): string[] {
  const n = (x: number) => x.toFixed(1);
  return [
    `webhook feeds and queues, ${f.apps} apps × 5 subscriptions × ${f.usersPerApp} users of 250 attributes, every delivery answered 500 with 64 KiB:`,
    `  ${f.deliveriesQueued} deliveries owed; counted ${n(f.queuedMiB)} MiB queued, ${n(f.afterRunsMiB)} MiB after two runs, of a ${n(f.budgetMiB)} MiB budget`,
    `  most one app kept: queue ${n(f.maxQueueMiB)} MiB, feeds ${n(f.maxFeedsMiB)} MiB (${f.feedEntries} feed entries in all)`,
    `  RSS ${n(f.rssBeforeMiB)} -> ${n(f.rssAfterMiB)} MiB (+${n(f.rssAfterMiB - f.rssBeforeMiB)}), live heap +${n(f.heapGrowthMiB)} MiB after a full GC`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? Number(process.argv[at + 1]) : undefined;
  };
  const apps = arg('--apps');
  const users = arg('--users');
  const figures = await webhookMemory({ ...(apps === undefined ? {} : { apps }), ...(users === undefined ? {} : { users }) });
  process.stdout.write(`${formatWebhookMemory(figures).join('\n')}\n`);
}
