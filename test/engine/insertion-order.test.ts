// The company order behind GET /companies/scroll and the console's company list: kept by appends
// without a walk while it matches the map, rebuilt (a new array) when it does not, and always
// equal to the map's own iteration order.

import { describe, expect, it } from 'vitest';
import { CowMap } from '../../src/engine/cow.js';
import { InsertionOrder } from '../../src/engine/insertion-order.js';

const seeded = () => CowMap.from(new Map(['a', 'b', 'c'].map((k) => [k, k])));

/** Sets through the order's hook, as companies/indexes.ts saveCompany does. */
function save(map: CowMap<string>, order: InsertionOrder<string>, key: string): void {
  const added = !map.has(key);
  const before = map.version;
  map.set(key, key);
  order.saved(map, key, added, before);
}

describe('InsertionOrder', () => {
  it('appends a new key to the array it handed out, and an update leaves it as it is', () => {
    const map = seeded();
    const order = new InsertionOrder<string>();
    const first = order.ids(map);
    expect(first).toEqual(['a', 'b', 'c']);
    save(map, order, 'd');
    save(map, order, 'b');
    save(map, order, 'e');
    expect(order.ids(map)).toBe(first);
    expect(first).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(first).toEqual([...map.keys()]);
  });

  it('rebuilds when a base key comes back, so it takes its base place again', () => {
    const map = seeded();
    const order = new InsertionOrder<string>();
    order.ids(map);
    map.delete('b');
    const after = order.ids(map);
    expect(after).toEqual(['a', 'c']);
    save(map, order, 'b');
    const back = order.ids(map);
    expect(back).not.toBe(after);
    expect(back).toEqual(['a', 'b', 'c']);
  });

  it('keeps its array when a base key is updated', () => {
    const map = seeded();
    const order = new InsertionOrder<string>();
    const first = order.ids(map);
    save(map, order, 'a');
    expect(order.ids(map)).toBe(first);
  });

  it('is not trusted after a change it was not told of, nor for another map', () => {
    const map = seeded();
    const order = new InsertionOrder<string>();
    order.ids(map);
    map.set('x', 'x');
    // Told of a later set with the version after the untold one: still stale.
    save(map, order, 'y');
    expect(order.ids(map)).toEqual(['a', 'b', 'c', 'x', 'y']);
    const other = CowMap.from(new Map([['p', 'p']]));
    expect(order.ids(other)).toEqual(['p']);
    // Told of a set on a map it does not describe: its own map's array is left alone.
    const mine = order.ids(map);
    const foreign = CowMap.from(new Map([['q', 'q']]));
    const before = foreign.version;
    foreign.set('r', 'r');
    order.saved(foreign, 'r', true, before);
    expect(order.ids(map)).toBe(mine);
    expect(mine).toEqual(['a', 'b', 'c', 'x', 'y']);
  });

  it('tells two maps of the same version apart', () => {
    const one = seeded();
    const two = CowMap.from(new Map([['z', 'z']]));
    expect(one.version).toBe(two.version);
    const order = new InsertionOrder<string>();
    const first = order.ids(one);
    expect(order.ids(two)).toEqual(['z']);
    // A set on the map it no longer describes, reported with that map's version: ignored.
    const before = one.version;
    one.set('d', 'd');
    order.saved(one, 'd', true, before);
    two.set('y', 'y');
    expect(order.ids(two)).toEqual(['z', 'y']);
    expect(order.ids(one)).toEqual(['a', 'b', 'c', 'd']);
    expect(first).toEqual(['a', 'b', 'c']);
  });

  it('forgets its array on clear', () => {
    const map = seeded();
    const order = new InsertionOrder<string>();
    const first = order.ids(map);
    order.clear();
    const next = order.ids(map);
    expect(next).not.toBe(first);
    expect(next).toEqual(['a', 'b', 'c']);
  });
});
