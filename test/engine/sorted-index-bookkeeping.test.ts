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

describe('SortedIndexes.fromBase', () => {
  const records: R[] = [
    { id: 'a', key: 2, listed: true },
    { id: 'b', key: 1, listed: true },
    { id: 'c', key: 3, listed: false },
  ];
  const unbuilt = () => new SortedIndex<R>((r) => r.key, (r) => r.listed);
  const unread = (): R[] => {
    throw new Error('the records were read: a sort');
  };
  const list = (index: SortedIndex<R>) => index.slice(0, 10, false);

  it('keeps its first build after a seed as the base\'s and copies it after the next seed of that base', () => {
    const base = {};
    const indexes = new SortedIndexes();
    indexes.seeded(base);
    const builds = SortedIndex.builds;
    const first = indexes.fromBase('company', 'k', unbuilt, () => records);
    expect(SortedIndex.builds).toBe(builds + 1);
    expect(list(first)).toEqual(['b', 'a']);
    // The live list follows the writes; the template stays the base's.
    indexes.update('company', 'c', { id: 'c', key: 0, listed: true });
    expect(list(first)).toEqual(['c', 'b', 'a']);
    indexes.seeded(base);
    const copy = indexes.fromBase('company', 'k', unbuilt, unread);
    expect(list(copy)).toEqual(['b', 'a']);
    expect(SortedIndex.builds).toBe(builds + 1);
    indexes.update('company', 'a', { id: 'a', key: 5, listed: true });
    expect(list(copy)).toEqual(['b', 'a']);
    expect(copy.slice(0, 1, true)).toEqual(['a']);
    indexes.seeded(base);
    expect(list(indexes.fromBase('company', 'k', unbuilt, unread))).toEqual(['b', 'a']);
  });

  it('sorts when a change was told before the first read, after a restore, and on a base of its own', () => {
    const base = {};
    const indexes = new SortedIndexes();
    indexes.seeded(base);
    indexes.fromBase('company', 'k', unbuilt, () => records);
    const changed = [records[0], records[1], { id: 'c', key: 0, listed: true }] as R[];
    indexes.seeded(base);
    indexes.update('company', 'c', changed[2]);
    let builds = SortedIndex.builds;
    expect(list(indexes.fromBase('company', 'k', unbuilt, () => changed))).toEqual(['c', 'b', 'a']);
    expect(SortedIndex.builds).toBe(builds + 1);
    // A change to another group leaves this one's template usable.
    indexes.seeded(base);
    indexes.update('customer:user', 'x', undefined);
    expect(list(indexes.fromBase('company', 'k', unbuilt, unread))).toEqual(['b', 'a']);
    // A restore: the state is not a seeded base's.
    indexes.clear();
    builds = SortedIndex.builds;
    expect(list(indexes.fromBase('company', 'k', unbuilt, () => changed))).toEqual(['c', 'b', 'a']);
    expect(SortedIndex.builds).toBe(builds + 1);
    indexes.seeded({});
    expect(list(indexes.fromBase('company', 'k', unbuilt, () => changed))).toEqual(['c', 'b', 'a']);
    expect(SortedIndex.builds).toBe(builds + 2);
  });
});
