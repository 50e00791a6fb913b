// CowMap at the edges the store's writes rarely reach: deleting twice, what delete answers, an
// empty map, and materialising a map's current content as a new base; and the version rule, for
// CowLog too.

import { describe, expect, it } from 'vitest';
import { CowMap, UndoLog, type MapKey } from '../../src/engine/cow.js';
import { CowLog } from '../../src/engine/cow-log.js';

describe('CowMap edges', () => {
  it('answers true for a delete that removed something, false for a second delete of the same key', () => {
    const m = CowMap.from(new Map([['a', 1], ['b', 2]]));
    m.set('x', 9);
    expect(m.delete('a')).toBe(true);
    expect(m.delete('a')).toBe(false);
    expect(m.delete('x')).toBe(true);
    expect(m.delete('x')).toBe(false);
    expect(m.size).toBe(1);
    expect([...m.entries()]).toEqual([['b', 2]]);
  });

  it('starts empty, and materialises its current content in list order', () => {
    const m = CowMap.empty<number>();
    expect(m.size).toBe(0);
    expect([...m.entries()]).toEqual([]);
    m.set('k', 1);
    const base = CowMap.from(new Map([['a', 1], ['b', 2]]));
    base.set('c', 3);
    base.set('a', 10);
    base.delete('b');
    expect([...base.materialize()]).toEqual([['a', 10], ['c', 3]]);
    expect(m.materialize()).toEqual(new Map([['k', 1]]));
  });
});

// Both kinds: CowLog keeps the places past its base in an array, with its own set, delete and undo.
const versioned = [
  { name: 'CowMap', make: (): CowMap<number, MapKey> => CowMap.from<number, MapKey>(new Map([['a', 1]])), seeded: 'a', own: ['b', 'c'] },
  { name: 'CowLog', make: (): CowMap<number, MapKey> => CowLog.over<number>(new Map([[1, 1]])) as CowMap<number, MapKey>, seeded: 1, own: [2, 3] },
] as const;

for (const kind of versioned) {
  describe(`${kind.name} version`, () => {
    // Caches derived from a map (list orders) compare versions: a version seen before must never
    // come back after a change, or a cache built then would pass for current.
    it('takes a value never held before on every change: set, delete, reset and each undone step', () => {
      const m = kind.make();
      const [first, second] = kind.own;
      const seen = [m.version];
      const step = (change: () => void) => {
        change();
        expect(seen).not.toContain(m.version);
        seen.push(m.version);
      };
      step(() => m.set(first, 2));
      step(() => m.delete(first));
      step(() => m.set(first, 3));
      step(() => m.delete(kind.seeded));
      step(() => m.reset());
      const log = new UndoLog();
      m.undo = log;
      m.set(second, 3);
      m.delete(kind.seeded);
      m.undo = null;
      seen.push(m.version);
      step(() => log.undo());
      expect([...m.entries()]).toEqual([[kind.seeded, 1]]);
    });
  });
}
