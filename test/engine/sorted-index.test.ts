import { describe, expect, it } from 'vitest';
import { Random } from '../../src/core/random.js';
import { SortedIndex } from '../../src/engine/sorted-index.js';

interface R {
  id: string;
  key: number | null;
  listed: boolean;
}

const brute = (records: Map<string, R>): string[] =>
  [...records.values()]
    .filter((r) => r.listed)
    .sort((a, b) => (a.key === b.key ? (a.id < b.id ? -1 : 1) : a.key === null ? -1 : b.key === null ? 1 : a.key - b.key))
    .map((r) => r.id);

describe('SortedIndex', () => {
  it('stays equal to a sort from scratch through inserts, moves, unlistings and removals', () => {
    const random = new Random(7);
    const records = new Map<string, R>();
    for (let i = 0; i < 50; i++) records.set(`r${i}`, { id: `r${i}`, key: random.int(4) === 0 ? null : random.int(20), listed: random.int(5) > 0 });
    const index = new SortedIndex<R>((r) => r.key, (r) => r.listed).build(records.values());
    for (let step = 0; step < 2000; step++) {
      const id = `r${random.int(70)}`;
      const op = random.int(4);
      if (op === 0) {
        records.delete(id);
        index.update(id, undefined);
      } else {
        const r = { id, key: op === 1 ? null : random.int(20), listed: random.int(5) > 0 };
        records.set(id, r);
        index.update(id, r);
      }
      const want = brute(records);
      expect(index.length).toBe(want.length);
      expect(index.slice(0, want.length, false)).toEqual(want);
    }
    const want = brute(records);
    expect(index.slice(2, 7, true)).toEqual([...want].reverse().slice(2, 7));
    expect(index.countBelow(10)).toBe(want.filter((id) => {
      const k = (records.get(id) as R).key;
      return k === null || k < 10;
    }).length);
  });
});
