// The bookkeeping of the sorted indexes that lists do not show directly: what `update` reports as
// changed (what a transaction journals), the labelled groups a write must look at, the indexes a
// deleted tag drops, and rollbacks and writes outside a transaction.

import { describe, expect, it } from 'vitest';
import { SortedIndex, SortedIndexes, type FromBase } from '../../src/engine/sorted-index.js';

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
  const BASE: R[] = [
    { id: 'a', key: 2, listed: true },
    { id: 'b', key: 1, listed: true },
    { id: 'c', key: 3, listed: false },
  ];
  const unbuilt = () => new SortedIndex<R>((r) => r.key, (r) => r.listed);
  const unread = (): never => {
    throw new Error('read: a sort');
  };
  const list = (index: SortedIndex<R>) => index.slice(0, 10, false);
  /** The app's records as they are now, and how fromBase makes its list from them. */
  function app() {
    const now = new Map(BASE.map((r) => [r.id, r]));
    const spec: FromBase<R> = { seeded: () => unbuilt().build(BASE), make: unbuilt, records: unread, current: (id) => now.get(id) };
    return { now, spec };
  }

  it('copies a template made once per base from the base alone, with the records told changed since the seed laid over it', () => {
    const base = {};
    const { now, spec } = app();
    const indexes = new SortedIndexes(['company']);
    indexes.seeded(base);
    const builds = SortedIndex.builds;
    const first = indexes.fromBase('company', 'k', spec);
    expect(list(first)).toEqual(['b', 'a']);
    expect(SortedIndex.builds).toBe(builds + 1);
    // The live list follows a change; another key of the group, made after it, starts from its template and the change.
    now.set('c', { id: 'c', key: 0, listed: true });
    indexes.update('company', 'c', now.get('c'));
    expect(list(first)).toEqual(['c', 'b', 'a']);
    expect(list(indexes.fromBase('company', 'k2', spec))).toEqual(['c', 'b', 'a']);
    expect(SortedIndex.builds).toBe(builds + 2);
    // The next seed: the templates are the base's, untouched by the change.
    now.set('c', BASE[2] as R);
    indexes.seeded(base);
    expect(list(indexes.fromBase('company', 'k', { ...spec, seeded: unread }))).toEqual(['b', 'a']);
    // A change before the first read after a seed: read as the record is now.
    indexes.seeded(base);
    now.set('a', { id: 'a', key: 2, listed: false });
    indexes.update('company', 'a', now.get('a'));
    now.set('d', { id: 'd', key: 7, listed: true });
    indexes.update('company', 'd', now.get('d'));
    expect(list(indexes.fromBase('company', 'k', { ...spec, seeded: unread }))).toEqual(['b', 'd']);
    // A change rolled back: the record is read as it is now, unchanged.
    now.set('a', BASE[0] as R);
    now.delete('d');
    indexes.seeded(base);
    indexes.begin();
    indexes.update('company', 'b', { id: 'b', key: 9, listed: false });
    indexes.rollback();
    expect(list(indexes.fromBase('company', 'k', { ...spec, seeded: unread }))).toEqual(['b', 'a']);
    expect(SortedIndex.builds).toBe(builds + 2);
  });

  it('keeps in a snapshot the base and the ids changed since, so a restore\'s list is a copy too', () => {
    const base = {};
    const { now, spec } = app();
    const indexes = new SortedIndexes(['company']);
    indexes.seeded(base);
    now.set('c', { id: 'c', key: 0, listed: true });
    indexes.update('company', 'c', now.get('c'));
    const saved = indexes.saveChanges();
    expect(saved?.base).toBe(base);
    expect([...(saved?.changed.get('company') ?? [])]).toEqual(['c']);
    // Later changes are not the snapshot's.
    indexes.update('company', 'a', now.get('a'));
    expect([...(saved?.changed.get('company') ?? [])]).toEqual(['c']);
    indexes.seeded(base);
    indexes.restoreChanges(saved);
    const builds = SortedIndex.builds;
    expect(list(indexes.fromBase('company', 'k', spec))).toEqual(['c', 'b', 'a']);
    expect(SortedIndex.builds).toBe(builds + 1);
    // A restored list follows the writes after the restore, and the snapshot stays as it was.
    indexes.restoreChanges(saved);
    indexes.update('company', 'b', now.get('b'));
    expect([...(saved?.changed.get('company') ?? [])]).toEqual(['c']);
    // A state that stands on no base (restored from one that did not) is sorted.
    indexes.clear();
    expect(indexes.saveChanges()).toBeUndefined();
    indexes.restoreChanges(undefined);
    expect(list(indexes.fromBase('company', 'k', { ...spec, records: () => [...now.values()] }))).toEqual(['c', 'b', 'a']);
    expect(SortedIndex.builds).toBe(builds + 2);
  });

  it('sorts the records after a restore, for a group it does not follow, and on a base of its own', () => {
    const { spec } = app();
    const records = () => BASE;
    const indexes = new SortedIndexes(['company']);
    indexes.seeded({});
    indexes.clear();
    let builds = SortedIndex.builds;
    expect(list(indexes.fromBase('company', 'k', { ...spec, seeded: unread, records }))).toEqual(['b', 'a']);
    expect(SortedIndex.builds).toBe(builds + 1);
    indexes.seeded({});
    builds = SortedIndex.builds;
    expect(list(indexes.fromBase('other', 'k', { ...spec, seeded: unread, records }))).toEqual(['b', 'a']);
    expect(list(indexes.fromBase('company', 'k', spec))).toEqual(['b', 'a']);
    expect(SortedIndex.builds).toBe(builds + 2);
  });
});
