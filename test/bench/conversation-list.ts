// Bench row of issue 14: a page in the middle of a filtered conversation list (GET /conversations
// by assignee, by customer, and the plain list sorted by created_at) on a 10,000-conversation app
// against the same request on a 100-conversation app; the target is the big app within SCALE_BOUND (2x)
// of the small one. In-process (createApp + app.request, no socket), measured as filtered-list.ts does:
// the apps are seeded alike (two admins, four customers, conversations of one size with ids of one
// width), requests alternate between the apps, and each row is the median over every request of
// every round (round 0 warms up, and builds the indexes).
//
// `npx tsx test/bench/conversation-list.ts [--rounds N]` prints the table; `conversationLists()`
// returns the rows for run.ts.

import { pathToFileURL } from 'node:url';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { createStore } from '../../src/setup.js';
import { REFERENCE_TIME } from '../../src/fixtures/normalize.js';
import { pairedRow, SCALE_BOUND, timedGet, type PairedRow } from './paired-pages.js';

export const CONVERSATION_SIZES = { small: 100, big: 10_000 } as const;
const PER_PAGE = 20;
const REQUESTS_PER_ROUND = 200;
const CUSTOMERS = ['benchcustomer00000000001', 'benchcustomer00000000002', 'benchcustomer00000000003', 'benchcustomer00000000004'];

export type ConversationListRow = PairedRow;

const pad = (i: number) => String(i).padStart(6, '0');

/** The i-th of n alike conversations: admins 1 and 2 alternate, customers take turns, two in three open, four in five unread. */
const conversation = (i: number, n: number) => {
  const customer = CUSTOMERS[i % CUSTOMERS.length] as string;
  return {
    id: `benchconv000000000${pad(i)}`,
    created_at: REFERENCE_TIME - n + i,
    updated_at: REFERENCE_TIME - n + i,
    subject: 'Bench subject',
    body: '<p>A conversation of the bench, one size for all.</p>',
    author: { type: 'user' as const, id: customer },
    customers: [customer],
    assignee: { type: 'admin' as const, id: String(1 + (i % 2)) },
    open: i % 3 !== 2,
    read: i % 5 === 0,
    waiting_since: i % 3 !== 2 ? REFERENCE_TIME - n + i : null,
  };
};

const QUERIES: readonly { request: string; query: string }[] = [
  { request: 'GET /conversations?type=admin&admin_id=1&open=true', query: 'type=admin&admin_id=1&open=true' },
  { request: 'GET /conversations?type=user&intercom_user_id=&unread=true', query: `type=user&intercom_user_id=${CUSTOMERS[0]}&unread=true` },
  { request: 'GET /conversations?type=admin&admin_id=2&order=waiting_since', query: 'type=admin&admin_id=2&order=waiting_since' },
  { request: 'GET /conversations?sort=created_at&order=asc', query: 'sort=created_at&order=asc' },
];

export async function conversationLists(options: { rounds?: number } = {}): Promise<ConversationListRow[]> {
  const rounds = options.rounds ?? 10;
  const store = createStore({ seed: 1, clock: new Clock({ start: REFERENCE_TIME + 86_400, frozen: true }) });
  const app = createApp({ store, log: () => undefined });
  const apps = Object.entries(CONVERSATION_SIZES).map(([name, n]) => {
    const token = `${name}-bench-token`;
    store.seedApp(
      {
        app: { id: `bench-${name}`, tokens: [token], rate_limit_per_minute: 1_000_000_000 },
        admins: [{ id: '1', name: 'One', email: 'one@example.com' }, { id: '2', name: 'Two', email: 'two@example.com' }],
        customers: CUSTOMERS.map((id, i) => ({ id, type: 'user' as const, user_id: `bench-${i}`, email: `bench-${i}@example.com`, created_at: REFERENCE_TIME - 1_000_000 })),
        conversations: Array.from({ length: n }, (_, i) => conversation(i, n)),
      },
      'replace',
    );
    return { name, headers: { authorization: `Bearer ${token}` } };
  });
  const get = timedGet<{ pages: { total_pages: number }; conversations: unknown[] }>(app);

  const rows: ConversationListRow[] = [];
  for (const { request, query } of QUERIES) {
    const plan = await Promise.all(
      apps.map(async (a) => {
        const total = (await get(`/conversations?${query}&per_page=1`, a.headers)).body.pages.total_pages;
        const page = Math.max(1, Math.ceil(total / PER_PAGE / 2));
        const path = `/conversations?${query}&per_page=${PER_PAGE}&page=${page}`;
        const first = await get(path, a.headers);
        if (first.body.conversations.length !== PER_PAGE) throw new Error(`${path} on ${a.name}: ${first.body.conversations.length} conversations, not a full page`);
        return { ...a, total, page, path };
      }),
    );
    rows.push(await pairedRow(request, plan, { rounds, perRound: REQUESTS_PER_ROUND, get }));
  }
  return rows;
}

export function formatConversationRows(rows: readonly ConversationListRow[]): string {
  const lines = [
    `| request (per_page ${PER_PAGE}, middle page) | 100 conversations ms | 10,000 conversations ms | ratio | listed (small / big), page read | target ≤ ${SCALE_BOUND} |`,
    '|---|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    lines.push(`| \`${r.request}\` | ${r.smallMs.toFixed(3)} | ${r.bigMs.toFixed(3)} | ${r.ratio.toFixed(3)} | ${r.small.total} p${r.small.page} / ${r.big.total} p${r.big.page} | ${r.ratio <= SCALE_BOUND ? 'PASS' : 'MISS'} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--rounds');
  const rounds = i >= 0 ? Number(process.argv[i + 1]) : 10;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) throw new Error('--rounds must be an integer from 1 to 100');
  process.stdout.write(`${formatConversationRows(await conversationLists({ rounds }))}\n`);
}
