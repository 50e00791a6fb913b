// A transaction's changes to the sorted indexes are reverted on undo, not answered by dropping the
// indexes: the next list reads the index as it was, with no rebuild.

import { describe, expect, it } from 'vitest';
import { Random } from '../../src/core/random.js';
import { SortedIndex, SortedIndexes } from '../../src/engine/sorted-index.js';

interface R {
  id: string;
  key: number | null;
  listed: boolean;
}

const make = (records: R[]) => () => new SortedIndex<R>((r) => r.key, (r) => r.listed).build(records);

describe('SortedIndexes journal', () => {
  it('rolls back moves, insertions and removals, and drops an index built during the transaction', () => {
    const random = new Random(3);
    const records = Array.from({ length: 40 }, (_, i) => ({ id: `r${i}`, key: random.int(3) === 0 ? null : random.int(10), listed: random.int(4) > 0 }));
    const indexes = new SortedIndexes();
    const index = indexes.get('customer', 'a', make(records));
    const before = index.slice(0, 100, false);
    indexes.begin();
    for (let step = 0; step < 300; step++) {
      const id = `r${random.int(50)}`;
      indexes.update('customer', id, random.int(4) === 0 ? undefined : { id, key: random.int(10), listed: random.int(4) > 0 });
    }
    const built = indexes.get('customer', 'b', make(records));
    indexes.rollback();
    expect(index.slice(0, 100, false)).toEqual(before);
    expect(indexes.get('customer', 'a', make([]))).toBe(index);
    expect(indexes.get('customer', 'b', make([]))).not.toBe(built);
  });

  it('keeps what a committed transaction changed', () => {
    const indexes = new SortedIndexes();
    const index = indexes.get('customer', 'a', make([{ id: 'x', key: 1, listed: true }]));
    indexes.begin();
    indexes.update('customer', 'y', { id: 'y', key: 0, listed: true });
    indexes.commit();
    indexes.rollback();
    expect(index.slice(0, 10, false)).toEqual(['y', 'x']);
  });
});
