// Customer data, company data, conversation texts and snapshots under their byte budgets
// (engine/byte-budget.ts, engine/record-bytes.ts): `npx tsx test/bench/record-memory.ts [--apps N]`;
// `recordMemory()` returns the figures.
//
// Provisioned apps each send the biggest writes a client can (a user or company with 250 custom
// attributes of 255 characters, a message of 65,535 characters) round robin until every app is
// refused, then take snapshots until refused. Before the budgets an app could keep ~25 GiB of
// customers and ~64 GiB of conversation parts this way; now every app together stops at the
// budgets. In-process, through app.fetch, with a full GC before each RSS reading. Numbers, never
// assertions.

import { pathToFileURL } from 'node:url';
import type { BudgetKind } from '../../src/engine/byte-budget.js';
import { fullGc } from './full-gc.js';
import { inProcessRig } from './in-process-rig.js';

type Filled = 'customers' | 'companies' | 'conversations' | 'snapshots';

export interface RecordMemoryFigures {
  apps: number;
  rows: { kind: Filled; accepted: number; budgetMiB: number; countedMiB: number }[];
  rssBeforeMiB: number;
  rssAfterMiB: number;
  heapGrowthMiB: number;
}

const MiB = 1024 * 1024;

export async function recordMemory(options: { apps?: number } = {}): Promise<RecordMemoryFigures> {
  const apps = options.apps ?? 10;
  const gc = fullGc();
  const { store, app, tokens, headers, post, attrs } = inProcessRig('record_memory', apps);
  const writes: Record<Exclude<Filled, 'snapshots'>, (token: string, n: number) => Promise<number>> = {
    customers: (token, n) => post(token, '/users', { user_id: `u-${n}`, custom_attributes: attrs(n) }),
    companies: (token, n) => post(token, '/companies', { company_id: `c-${n}`, name: `c-${n}`, custom_attributes: attrs(n) }),
    conversations: (token, n) => post(token, '/messages', { from: { type: 'user', user_id: 'ada-1' }, body: `${n}-${'m'.repeat(65_535)}`.slice(0, 65_535) }),
  };
  for (const token of tokens) await app.fetch(new Request('http://localhost/me', { headers: headers(token) }));
  gc();
  const before = process.memoryUsage();
  const rows: RecordMemoryFigures['rows'] = [];
  const row = (kind: Filled, accepted: number) =>
    rows.push({ kind, accepted, budgetMiB: store.budgets.limits[kind as BudgetKind] / MiB, countedMiB: store.budgets.used(kind as BudgetKind) / MiB });
  for (const kind of ['customers', 'companies', 'conversations'] as const) {
    let accepted = 0;
    const open = new Set(tokens);
    for (let n = 0; open.size > 0; n++) {
      for (const token of [...open]) {
        if ((await writes[kind](token, n)) === 200) accepted++;
        else open.delete(token);
      }
    }
    row(kind, accepted);
  }
  let snapshots = 0;
  const open = new Set(tokens);
  for (let n = 0; open.size > 0; n++) {
    for (const token of [...open]) {
      if ((await post(token, '/__admin/snapshots', { name: `s-${n}` })) === 201) snapshots++;
      else open.delete(token);
    }
  }
  row('snapshots', snapshots);
  gc();
  const after = process.memoryUsage();
  return { apps, rows, rssBeforeMiB: before.rss / MiB, rssAfterMiB: after.rss / MiB, heapGrowthMiB: (after.heapUsed - before.heapUsed) / MiB };
}

export function formatRecordMemory(f: RecordMemoryFigures): string[] {
  const n = (x: number) => x.toFixed(1);
  return [
    `customer/company data, conversation texts and snapshots, ${f.apps} apps round robin until refused:`,
    ...f.rows.map((r) => `  ${r.kind}: ${r.accepted} accepted; counted ${n(r.countedMiB)} MiB of a ${n(r.budgetMiB)} MiB budget`),
    `  RSS ${n(f.rssBeforeMiB)} -> ${n(f.rssAfterMiB)} MiB (+${n(f.rssAfterMiB - f.rssBeforeMiB)}), live heap +${n(f.heapGrowthMiB)} MiB after a full GC` +
      ' (target: within the budgets of the record kinds; before them, tens of GiB an app were reachable)',
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--apps');
  const apps = at > 0 ? Number(process.argv[at + 1]) : undefined;
  const figures = await recordMemory(apps === undefined ? {} : { apps });
  process.stdout.write(`${formatRecordMemory(figures).join('\n')}\n`);
}
