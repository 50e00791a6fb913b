// CowMap, and CowLog (its array-backed form for logs kept by place), against a plain model under
// random writes, transactions (undone or standing), forks and resets: every read (get, has, size,
// entries in order) answers as the model does. And the rule that keeps an archive on a
// 100,000-customer app as fast as on a small one: a write to a key the overlay already holds never
// reads the base.

import { describe, expect, it } from 'vitest';
import { CowMap, UndoLog, type MapKey } from '../../src/engine/cow.js';
import { CowLog } from '../../src/engine/cow-log.js';
import { generator } from '../pick.js';

const DEL = Symbol('deleted');

/**
 * The map as documented: base keys in base order (replaced or deleted), then the app's own keys in
 * the order added; for CowLog, own places from the base's end on (`placesFrom`) come last, by place.
 */
class Model<K extends MapKey> {
  constructor(
    readonly base: ReadonlyMap<K, number>,
    readonly placesFrom = Infinity,
    public override = new Map<K, number | typeof DEL>(),
    public own = new Map<K, number | typeof DEL>(),
  ) {}
  copy(): Model<K> {
    return new Model(this.base, this.placesFrom, new Map(this.override), new Map(this.own));
  }
  set(k: K, v: number): void {
    (this.base.has(k) ? this.override : this.own).set(k, v);
  }
  delete(k: K, inTransaction: boolean): boolean {
    if (this.get(k) === undefined) return false;
    if (this.base.has(k)) this.override.set(k, DEL);
    // Inside a transaction an own key keeps its place until the transaction stands.
    else if (inTransaction) this.own.set(k, DEL);
    else this.own.delete(k);
    return true;
  }
  commit(): void {
    for (const [k, v] of [...this.own]) if (v === DEL) this.own.delete(k);
  }
  get(k: K): number | undefined {
    const v = this.base.has(k) ? (this.override.has(k) ? this.override.get(k) : this.base.get(k)) : this.own.get(k);
    return v === DEL ? undefined : v;
  }
  entries(): [K, number][] {
    const out: [K, number][] = [];
    for (const k of this.base.keys()) {
      const v = this.get(k);
      if (v !== undefined) out.push([k, v]);
    }
    const added = [...this.own].filter(([k]) => !(Number(k) >= this.placesFrom));
    const placed = [...this.own].filter(([k]) => Number(k) >= this.placesFrom).sort((x, y) => Number(x[0]) - Number(y[0]));
    for (const [k, v] of [...added, ...placed]) if (v !== DEL) out.push([k, v as number]);
    return out;
  }
}

function expectSame<K extends MapKey>(map: CowMap<number, K>, model: Model<K>, keys: readonly K[]): void {
  // Every read is gathered and compared in one assertion: 50 runs of 300 steps would otherwise
  // spend most of their time in the assertion library, not in the map.
  const baseKeys = [...model.base.keys()];
  const read = (get: (k: K) => number | undefined, has: (k: K) => boolean, getAt: (k: K, at: number) => number | undefined) =>
    keys.map((k) => {
      // getAt answers as get with the key's base place, and with a wrong place too (it then asks the base).
      const at = baseKeys.indexOf(k);
      return [k, get(k), has(k), getAt(k, at), getAt(k, at + 1)];
    });
  const entries = model.entries();
  const actual = {
    entries: [...map.entries()],
    size: map.size,
    // The base keys the map knows it holds are exactly those the model replaced or deleted.
    shadowed: map.shadowedCount,
    reads: read((k) => map.get(k), (k) => map.has(k), (k, at) => map.getAt(k, at)),
  };
  const expected = {
    entries,
    size: entries.length,
    shadowed: model.override.size,
    reads: read((k) => model.get(k), (k) => model.get(k) !== undefined, (k) => model.get(k)),
  };
  expect(actual).toEqual(expected);
}

interface Kind<K extends MapKey> {
  name: string;
  base: ReadonlyMap<K, number>;
  keys: readonly K[];
  make(base: ReadonlyMap<K, number>): CowMap<number, K>;
  placesFrom?: number;
}

const kinds: [Kind<string>, Kind<number>] = [
  { name: 'CowMap', base: new Map(['a', 'b', 'c', 'd', 'e'].map((k, i) => [k, i])), keys: ['a', 'b', 'c', 'd', 'e', 'x', 'y', 'z', 'w', 'v'], make: (base) => CowMap.from(base) },
  // Places 3 and 6 are below the base's end but not its own: they take CowMap's path, 8 to 12 the array's.
  { name: 'CowLog', base: new Map([1, 2, 4, 5, 7].map((k) => [k, k * 10])), keys: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], make: (base) => CowLog.over(base), placesFrom: 8 },
];

function randomSteps<K extends MapKey>(kind: Kind<K>, seed: number): void {
  const pick = generator(seed);
  const { base, keys } = kind;
  let map = kind.make(base);
  let model = new Model<K>(base, kind.placesFrom);
  let log: UndoLog | null = null;
  let before: Model<K> | null = null;
  let value = 1000;
  for (let step = 0; step < 300; step++) {
    const key = keys[pick(keys.length)] as K;
    const op = pick(100);
    if (op < 35) {
      map.set(key, value);
      model.set(key, value++);
    } else if (op < 60) {
      expect(map.delete(key)).toBe(model.delete(key, log !== null));
    } else if (op < 70 && log === null) {
      log = new UndoLog();
      map.undo = log;
      before = model.copy();
    } else if (op < 80 && log !== null) {
      if (pick(2) === 0) {
        log.undo();
        model = before as Model<K>;
      } else {
        log.commit();
        model.commit();
      }
      map.undo = null;
      log = null;
    } else if (op < 85 && log === null) {
      // A fork is independent: writes to it leave the original as it was.
      const fork = map.fork();
      const forkModel = model.copy();
      expectSame(fork, forkModel, keys);
      fork.set(key, value);
      forkModel.set(key, value++);
      const gone = keys[pick(keys.length)] as K;
      expect(fork.delete(gone)).toBe(forkModel.delete(gone, false));
      expectSame(fork, forkModel, keys);
      expectSame(map, model, keys);
      if (pick(2) === 0) {
        map = fork;
        model = forkModel;
      }
    } else if (op < 87 && log === null) {
      map.reset();
      model = new Model<K>(base, kind.placesFrom);
    }
    expectSame(map, model, keys);
  }
}

for (const kind of kinds) {
  describe(`${kind.name} against a model`, () => {
    for (let seed = 1; seed <= 25; seed++) {
      it(`answers as the model through 300 random steps (seed ${seed})`, () => randomSteps<MapKey>(kind as Kind<MapKey>, seed));
    }
  });
}

/** A base that counts its reads. */
class CountingMap extends Map<string, number> {
  reads = 0;
  override has(key: string): boolean {
    this.reads++;
    return super.has(key);
  }
  override get(key: string): number | undefined {
    this.reads++;
    return super.get(key);
  }
}

describe('CowMap reads of its base', () => {
  it('getAt reads an unchanged base record by its place, without the base\'s hash table', () => {
    const base = new CountingMap([['a', 1], ['b', 2], ['c', 3]]);
    const map = CowMap.from<number>(base);
    map.set('b', 20);
    map.delete('c');
    base.reads = 0;
    expect([map.getAt('a', 0), map.getAt('b', 1), map.getAt('c', 2)]).toEqual([1, 20, undefined]);
    expect(base.reads).toBe(0);
    // A place that is not the key's own: the base's table answers.
    expect(map.getAt('a', 2)).toBe(1);
    expect(base.reads).toBe(1);
  });

  it('a write or delete of a key the overlay holds reads the base not at all, in a transaction or not', () => {
    const base = new CountingMap([['a', 1], ['b', 2]]);
    const map = CowMap.from<number>(base);
    map.set('a', 10);
    map.set('x', 20);
    base.reads = 0;
    map.set('a', 11);
    map.set('x', 21);
    expect(map.delete('a')).toBe(true);
    const log = new UndoLog();
    map.undo = log;
    expect(map.delete('x')).toBe(true);
    log.commit();
    map.undo = null;
    expect(base.reads).toBe(0);
    // The base key stays hidden, the own key is gone for good, and each comes back as a set makes it.
    expect([...map.entries()]).toEqual([['b', 2]]);
    map.set('a', 12);
    map.set('x', 22);
    expect([...map.entries()]).toEqual([['a', 12], ['b', 2], ['x', 22]]);
    expect(map.size).toBe(3);
  });
});
