// Backdated events and bare `before=<ms>` cursors (resources/events/timeline.ts skip list): `npx tsx
// test/bench/event-backdate.ts`; `eventBackdate()` returns the rows to test/bench/run.ts.
//
// One person holding 10 vs 100,000 events (seeded), in process through app.fetch: the median of
// `rounds` POST /events placed in the middle of the person's timeline, and of GET /events pages
// starting at a bare before=<ms> in the middle. Target: the 100,000 row within 3x the 10 row (a walk
// of half the person's events made it ~1,000x before). Numbers, never assertions.

import { pathToFileURL } from 'node:url';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { createStore } from '../../src/setup.js';
import { eventWork } from '../../src/resources/events/log.js';

const NOW = 1_700_000_000;
const ADA = '5714dd359a3fd47136000001';

export interface BackdateRow {
  events: number;
  postMs: number;
  getMs: number;
  postReads: number;
  getReads: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function row(n: number, rounds: number): Promise<BackdateRow> {
  const store = createStore({ clock: new Clock({ start: NOW, frozen: true }), rateLimit: 1_000_000_000, limits: { events: 200_000 } });
  const events = Array.from({ length: n }, (_, i) => ({ id: `ev-${i}`, customer_id: ADA, event_name: `e${i % 7}`, created_at: NOW - 2 * n + 2 * i, metadata: {} }));
  store.seedApp({ app: { id: 'demo', tokens: ['demo-token'] }, customers: [{ id: ADA, user_id: 'ada-1', email: 'ada@example.com' }], events }, 'replace');
  const app = createApp({ store, log: () => undefined });
  const headers = { authorization: 'Bearer demo-token', accept: 'application/json', 'content-type': 'application/json' };
  const post = [];
  const get = [];
  const reads = { post: [] as number[], get: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    // Odd times, so each lands between two seeded events, in the middle of the timeline.
    const at = NOW - n + 2 * (r % Math.max(1, n / 4)) + 1;
    let before = eventWork.reads;
    let t = performance.now();
    const res = await app.fetch(new Request('http://localhost/events', { method: 'POST', headers, body: JSON.stringify({ event_name: `b${r}`, created_at: at, user_id: 'ada-1' }) }));
    post.push(performance.now() - t);
    reads.post.push(eventWork.reads - before);
    if (res.status !== 202) throw new Error(`POST /events answered ${res.status}`);
    before = eventWork.reads;
    t = performance.now();
    const page = await app.fetch(new Request(`http://localhost/events?type=user&user_id=ada-1&per_page=15&before=${(at - 1) * 1000}`, { headers }));
    await page.text();
    get.push(performance.now() - t);
    reads.get.push(eventWork.reads - before);
  }
  return { events: n, postMs: median(post), getMs: median(get), postReads: median(reads.post), getReads: median(reads.get) };
}

export async function eventBackdate(options: { rounds?: number } = {}): Promise<BackdateRow[]> {
  const rounds = options.rounds ?? 50;
  return [await row(10, rounds), await row(100_000, rounds)];
}

export function formatBackdate(rows: BackdateRow[]): string[] {
  const [small, big] = rows;
  const lines = rows.map(
    (r) => `  ${r.events.toLocaleString('en-US')} events: backdated POST ${r.postMs.toFixed(3)} ms (${r.postReads} reads), bare before= page ${r.getMs.toFixed(3)} ms (${r.getReads} reads)`,
  );
  const ratio = small && big ? Math.max(big.postMs / small.postMs, big.getMs / small.getMs) : NaN;
  return [`backdated event and bare before=<ms>, one person (medians; target: 100,000 within 3x of 10): ratio ${ratio.toFixed(2)} ${ratio <= 3 ? 'PASS' : 'MISS'}`, ...lines];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${formatBackdate(await eventBackdate()).join('\n')}\n`);
}
