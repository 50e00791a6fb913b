// An undone delete puts a key back in its place, so the order of entries (what an export lists)
// is as it was; a delete that stands takes the key out for good.

import { describe, expect, it } from 'vitest';
import { CowMap, UndoLog } from '../../src/engine/cow.js';

function mapWith(base: string[], added: string[]): CowMap<number> {
  const map = CowMap.from(new Map(base.map((k, i) => [k, i])));
  added.forEach((k, i) => map.set(k, 100 + i));
  return map;
}

describe('CowMap deletes inside a transaction', () => {
  it('an undone delete of a key the app added keeps its place among the keys', () => {
    const map = mapWith(['a'], ['x', 'y', 'z']);
    const log = new UndoLog();
    map.undo = log;
    expect(map.delete('x')).toBe(true);
    expect(map.has('x')).toBe(false);
    expect(map.size).toBe(3);
    expect([...map.keys()]).toEqual(['a', 'y', 'z']);
    map.set('w', 7);
    log.undo();
    map.undo = null;
    expect([...map.entries()]).toEqual([['a', 0], ['x', 100], ['y', 101], ['z', 102]]);
    expect(map.size).toBe(4);
  });

  it('a committed delete is gone for good: the key comes back at the end if set again', () => {
    const map = mapWith(['a'], ['x', 'y']);
    const log = new UndoLog();
    map.undo = log;
    map.delete('x');
    log.commit();
    map.undo = null;
    expect([...map.keys()]).toEqual(['a', 'y']);
    expect(map.size).toBe(2);
    map.set('x', 1);
    expect([...map.keys()]).toEqual(['a', 'y', 'x']);
  });

  it('a key deleted and set again in one transaction that stands keeps its place and its new value', () => {
    const map = mapWith([], ['x', 'y']);
    const log = new UndoLog();
    map.undo = log;
    map.delete('x');
    map.set('x', 5);
    log.commit();
    map.undo = null;
    expect([...map.entries()]).toEqual([['x', 5], ['y', 101]]);
    expect(map.size).toBe(2);
  });

  it('outside a transaction a delete removes the key at once', () => {
    const map = mapWith([], ['x', 'y']);
    map.delete('x');
    map.set('x', 3);
    expect([...map.keys()]).toEqual(['y', 'x']);
  });
});
