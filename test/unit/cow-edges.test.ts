// CowMap at the edges the store's writes rarely reach: deleting twice, what delete answers, an
// empty map, and materialising a map's current content as a new base.

import { describe, expect, it } from 'vitest';
import { CowMap, UndoLog } from '../../src/core/cow.js';

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

describe('CowMap version', () => {
  // Caches derived from a map (list orders) compare versions: a version seen before must never
  // come back after a change, or a cache built then would pass for current.
  it('takes a value never held before on every change: set, delete, reset and each undone step', () => {
    const m = CowMap.from(new Map([['a', 1]]));
    const seen = [m.version];
    const step = (change: () => void) => {
      change();
      expect(seen).not.toContain(m.version);
      seen.push(m.version);
    };
    step(() => m.set('b', 2));
    step(() => m.delete('a'));
    step(() => m.reset());
    const log = new UndoLog();
    m.undo = log;
    m.set('c', 3);
    m.delete('a');
    m.undo = null;
    seen.push(m.version);
    step(() => log.undo());
    expect([...m.entries()]).toEqual([['a', 1]]);
  });
});
