// ByteBudgets' cached store-wide sum (src/engine/byte-budget.ts): a write that fits costs O(1) (no
// walk of the apps), the sum stays exact write after write up to the budget itself, and only a
// write the cache would refuse recounts every app, which finds room another app freed. Apps here
// are bare states holding only what the budgets read (their tallies), so each walk is counted.

import { describe, expect, it } from 'vitest';
import type { AppState } from '../../src/state/app-state.js';
import { addBytes, appBytes, ByteBudgets, snapshotBytes } from '../../src/engine/byte-budget.js';

function bareApp(id: string, seeded = 0): AppState {
  const base = new Map<string, number>(seeded ? [['bytes:customers', seeded]] : []);
  return {
    id,
    data: { tallies: new Map(base) },
    base: { data: { tallies: base } },
    snapshots: new Map(),
    deliveries: { bytes: 0 },
    seededQueueBytes: 0,
  } as unknown as AppState;
}

/** A write of `bytes` the budget allowed: what charge() does after fits(). */
const write = (app: AppState, bytes: number) => addBytes(app.data.tallies as unknown as Map<string, number>, 'customers', bytes);

function setup(limit: number, apps: AppState[]) {
  const walks = { n: 0 };
  const budgets = new ByteBudgets({ customers: limit }, () => {
    walks.n++;
    return apps;
  });
  return { budgets, walks };
}

describe('ByteBudgets', () => {
  it('takes writes up to the budget exactly without walking the apps, then recounts once to refuse', () => {
    const a = bareApp('a');
    const { budgets, walks } = setup(100, [a]);
    for (let i = 0; i < 10; i++) {
      expect(budgets.fits(a, 'customers', 10), `write ${i + 1}`).toBe(true);
      write(a, 10);
    }
    expect(walks.n).toBe(0);
    expect(budgets.fits(a, 'customers', 1)).toBe(false);
    expect(walks.n).toBe(1);
    expect(budgets.used('customers')).toBe(100);
  });

  it("finds room another app freed by recounting, then trusts the recount's figures", () => {
    const a = bareApp('a');
    const b = bareApp('b');
    const { budgets, walks } = setup(100, [a, b]);
    expect(budgets.fits(a, 'customers', 50)).toBe(true);
    write(a, 50);
    expect(budgets.fits(b, 'customers', 30)).toBe(true);
    write(b, 30);
    expect(walks.n).toBe(0);
    // a lets go of 40 (a reset, a deletion): only a recount sees it.
    write(a, -40);
    expect(budgets.fits(b, 'customers', 60)).toBe(true);
    expect(walks.n).toBe(1);
    write(b, 60);
    // Now a 10, b 90: the next writes are exact on the recounted figures, without a walk.
    expect(budgets.fits(a, 'customers', 0)).toBe(true);
    expect(walks.n).toBe(1);
    expect(budgets.excess(b, 'customers', 1)).toBe(1);
    expect(walks.n).toBe(2);
    expect(budgets.excess(a, 'customers', 25)).toBe(25);
  });

  it('puts back the share of a rolled-back write on recount, so the next writes fit without a walk', () => {
    const a = bareApp('a');
    const b = bareApp('b');
    const { budgets, walks } = setup(100, [a, b]);
    expect(budgets.fits(a, 'customers', 30)).toBe(true);
    write(a, 30);
    // Allowed, then rolled back: the tally never moved, the cache counted it.
    expect(budgets.fits(a, 'customers', 20)).toBe(true);
    budgets.recount(a);
    // An app the cache never counted is left out of the sum, not counted as nothing known.
    budgets.recount(b);
    expect(budgets.fits(a, 'customers', 40)).toBe(true);
    write(a, 40);
    expect(budgets.fits(b, 'customers', 30)).toBe(true);
    write(b, 30);
    expect(walks.n).toBe(0);
    expect(budgets.used('customers')).toBe(100);
  });

  it('counts only what an app added past its seeded base, never less than nothing', () => {
    const a = bareApp('a', 40);
    const { budgets } = setup(100, [a]);
    expect(appBytes(a, 'customers')).toBe(0);
    write(a, 30);
    expect(appBytes(a, 'customers')).toBe(30);
    expect(budgets.used('customers')).toBe(30);
    write(a, -50);
    expect(appBytes(a, 'customers')).toBe(-20);
    expect(budgets.used('customers')).toBe(0);
    expect(snapshotBytes(a)).toBe(0);
    write(a, 45);
    expect(snapshotBytes(a)).toBe(25);
  });

  it('counts webhook state past the seeded queue, and every snapshot an app keeps', () => {
    const a = bareApp('a');
    const b = bareApp('b');
    const { budgets } = setup(100, [a, b]);
    Object.assign(a, { seededQueueBytes: 100, deliveries: { bytes: 150 } });
    a.data.tallies.set('bytes:webhook-feeds', 30);
    expect(budgets.used('webhooks')).toBe(80);
    Object.assign(a, { deliveries: { bytes: 40 } });
    expect(budgets.used('webhooks')).toBe(0);
    write(b, 7);
    const snapshot = (customers: number, queued: number) => ({ data: { tallies: new Map([['bytes:customers', customers]]) }, saved: { deliveries: { bytes: queued } } });
    b.snapshots.set('one', snapshot(20, 5) as never);
    b.snapshots.set('two', snapshot(3, 0) as never);
    expect(snapshotBytes(b)).toBe(7);
    expect(budgets.used('snapshots')).toBe(28);
  });

  it('a zero move writes no tally', () => {
    const a = bareApp('a');
    write(a, 0);
    expect([...(a.data.tallies as unknown as Map<string, number>).keys()]).toEqual([]);
  });
});
