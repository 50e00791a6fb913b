// Store-wide byte budgets for what clients can pile up without a record limit in bytes: pending bulk
// items and error feeds, data events (with their metadata), and note bodies. Counts alone do not
// bound memory (100,000 notes of 1 MiB bodies are 100 GiB), so each kind is measured on what is
// kept and held, over every app of the store (provisioned ones included), under one budget.
//
// Each app's usage is a tally in its own `tallies` map (less its seeded base's), so a rolled-back write, a reset, a restore
// and a snapshot carry it exactly with the records. The store-wide sum is cached per app and the
// cache is trusted only while it says "fits": a write that would not fit recounts every app's
// tally first (O(apps), at most ~1,000 reads), so a reset elsewhere frees the room for the next
// write that needs it, and the common write costs O(1).

import type { AppState } from './app-state.js';

export type BudgetKind = 'bulk' | 'events' | 'notes';

export const DEFAULT_BYTE_BUDGETS: Readonly<Record<BudgetKind, number>> = {
  bulk: 64 * 1024 * 1024,
  events: 128 * 1024 * 1024,
  notes: 64 * 1024 * 1024,
};

const tallyKey = (kind: BudgetKind): string => `bytes:${kind}`;

/** A JS heap estimate of a parsed JSON value as kept: headers, slots, and two bytes a character (an upper bound). */
export function keptBytes(value: unknown): number {
  let total = 0;
  // An explicit stack: a deeply nested value must not overflow the call stack.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') total += 16 + 2 * v.length;
    else if (typeof v === 'number') total += 16;
    else if (Array.isArray(v)) {
      total += 32 + 8 * v.length;
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const key of Object.keys(o)) {
        total += 24 + 2 * key.length;
        stack.push(o[key]);
      }
      total += 32;
    } else total += 8;
  }
  return total;
}

/**
 * What `app` holds of `kind` beyond its seeded base (negative once it has given up seeded records):
 * the base is the fixtures' (bounded by them, and shared by every app provisioned from it), not a
 * client's, so only what the API added counts.
 */
export const appBytes = (app: AppState, kind: BudgetKind): number =>
  (app.data.tallies.get(tallyKey(kind)) ?? 0) - (app.base.data.tallies.get(tallyKey(kind)) ?? 0);

const counted = (app: AppState, kind: BudgetKind): number => Math.max(0, appBytes(app, kind));

/** Moves an app's (or a seeded base's) tally by `delta` bytes. */
export function addBytes(tallies: { get(key: string): number | undefined; set(key: string, value: number): unknown }, kind: BudgetKind, delta: number): void {
  if (delta === 0) return;
  tallies.set(tallyKey(kind), (tallies.get(tallyKey(kind)) ?? 0) + delta);
}

export class ByteBudgets {
  readonly limits: Readonly<Record<BudgetKind, number>>;
  private readonly cached = { bulk: new Map<string, number>(), events: new Map<string, number>(), notes: new Map<string, number>() };
  private readonly sums: Record<BudgetKind, number> = { bulk: 0, events: 0, notes: 0 };

  constructor(
    limits: Partial<Record<BudgetKind, number>> | undefined,
    private readonly apps: () => Iterable<AppState>,
  ) {
    this.limits = { ...DEFAULT_BYTE_BUDGETS, ...limits };
  }

  /** Bytes of `kind` held by every app, recounted now. */
  used(kind: BudgetKind): number {
    const cache = this.cached[kind];
    cache.clear();
    let sum = 0;
    for (const app of this.apps()) {
      const bytes = counted(app, kind);
      if (bytes > 0) cache.set(app.id, bytes);
      sum += bytes;
    }
    this.sums[kind] = sum;
    return sum;
  }

  /** Bytes over the budget if `app` added `bytes` of `kind` now (recounted; 0: it fits). */
  excess(app: AppState, kind: BudgetKind, bytes: number): number {
    return this.fits(app, kind, bytes) ? 0 : this.sums[kind] + bytes - this.limits[kind];
  }

  /** Whether `app` may add `bytes` of `kind` now (recounting before it says no). */
  fits(app: AppState, kind: BudgetKind, bytes: number): boolean {
    const cache = this.cached[kind];
    const mine = counted(app, kind);
    const estimate = this.sums[kind] - (cache.get(app.id) ?? 0) + mine + bytes;
    // Counted as if the write stands (a rolled-back one leaves the sum high: a recount mends it).
    const take = (): true => {
      this.sums[kind] = this.sums[kind] - (cache.get(app.id) ?? 0) + mine + bytes;
      if (mine + bytes > 0) cache.set(app.id, mine + bytes);
      else cache.delete(app.id);
      return true;
    };
    if (estimate <= this.limits[kind]) return take();
    return this.used(kind) + bytes <= this.limits[kind] && take();
  }
}
