// The bookkeeping of the sorted indexes that lists do not show directly: what `update` reports as
// changed (what a transaction journals), the labelled groups a write must look at, the indexes a
// deleted tag drops, and rollbacks and writes outside a transaction.

import { describe, expect, it } from 'vitest';
import { SortedIndex, SortedIndexes } from '../../src/engine/sorted-index.js';

interface R {
  id: string;
  key: number | null;
  listed: boolean;
}

const make = (records: R[]) => () => new SortedIndex<R>((r) => r.key, (r) => r.listed).build(records);

describe('SortedIndex', () => {
  it('counts each build', () => {
    const builds = SortedIndex.builds;
    make([])();
    make([])();
    expect(SortedIndex.builds).toBe(builds + 2);
  });

  it('reports a change only when the entry changed', () => {
    const index = make([{ id: 'a', key: 1, listed: true }])();
    expect(index.update('a', { id: 'a', key: 1, listed: true })).toBeUndefined();
    expect(index.update('b', { id: 'b', key: 1, listed: false })).toBeUndefined();
    expect(index.update('b', undefined)).toBeUndefined();
    expect(index.update('a', { id: 'a', key: 2, listed: true })).toEqual({ listed: true, key: 1 });
    expect(index.update('b', { id: 'b', key: 3, listed: true })).toEqual({ listed: false, key: null });
    expect(index.update('b', undefined)).toEqual({ listed: true, key: 3 });
    expect(index.slice(0, 10, false)).toEqual(['a']);
  });

  it('counts an entry with the key itself as not below it, whatever its id', () => {
    const index = make([
      { id: 'A', key: 5, listed: true },
      { id: 'z', key: 5, listed: true },
      { id: 'n', key: null, listed: true },
      { id: 'm', key: 4, listed: true },
    ])();
    expect(index.countBelow(5)).toBe(2);
  });
});

describe('SortedIndexes', () => {
  it('knows whether a tag or segment group has an index, and drops every kind of a deleted tag', () => {
    const indexes = new SortedIndexes();
    expect(indexes.hasLabelled).toBe(false);
    indexes.get('customer:user', 'created_at', make([]));
    expect(indexes.hasLabelled).toBe(false);
    const groups = ['customer:user:t:7', 'customer:contact:t:7', 'customer:visitor:t:7', 'company:t:7'];
    const built = groups.map((g) => indexes.get(g, 'created_at', make([{ id: 'x', key: 1, listed: true }])));
    const other = indexes.get('customer:user:s:7', 'created_at', make([]));
    indexes.dropLabel('t', '7');
    expect(indexes.hasLabelled).toBe(true);
    groups.forEach((g, i) => expect(indexes.get(g, 'created_at', make([]))).not.toBe(built[i]));
    expect(indexes.get('customer:user:s:7', 'created_at', make([]))).toBe(other);
    for (const label of ['t', 's'] as const) indexes.dropLabel(label, '7');
    expect(indexes.hasLabelled).toBe(false);
  });

  it('takes writes outside a transaction, and rolls back past an index dropped meanwhile', () => {
    const indexes = new SortedIndexes();
    const index = indexes.get('customer', 'a', make([]));
    indexes.update('customer', 'y', { id: 'y', key: 0, listed: true });
    expect(index.slice(0, 10, false)).toEqual(['y']);
    indexes.begin();
    indexes.get('customer:user:t:1', 'a', make([]));
    indexes.dropLabel('t', '1');
    indexes.clear();
    expect(() => indexes.rollback()).not.toThrow();
    expect(indexes.hasLabelled).toBe(false);
  });
});
