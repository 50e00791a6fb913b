import { describe, expect, it } from 'vitest';
import { Random } from '../../src/core/random.js';
import { CowMap } from '../../src/engine/cow.js';
import { SortedIndex, SortedIndexes } from '../../src/engine/sorted-index.js';

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

describe('SortedIndex.over a template', () => {
  it('answers as a sort from scratch, with the changes laid over a shared template that stays as it was, then through more writes', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = new Random(seed);
      const record = (id: string): R => ({ id, key: random.int(4) === 0 ? null : random.int(12), listed: random.int(5) > 0 });
      const base = new Map<string, R>();
      for (let i = 0; i < 30; i++) base.set(`r${i}`, record(`r${i}`));
      const template = new SortedIndex<R>((r) => r.key, (r) => r.listed).build(base.values());
      const templateIds = template.slice(0, template.length, false);
      // Changes as CowMap.changes gives them: a base record replaced or deleted, a record added.
      const records = new Map(base);
      const changes = new Map<string, R | undefined>();
      for (let n = random.int(25); n > 0; n--) {
        const id = `r${random.int(45)}`;
        const next = random.int(4) === 0 ? undefined : record(id);
        changes.set(id, next);
        if (next === undefined) records.delete(id);
        else records.set(id, next);
      }
      const index = SortedIndex.over(template, [...changes].map(([id, r]) => [id, r, base.has(id)] as const));
      const want = brute(records);
      expect(index.slice(0, want.length, false), `seed ${seed}`).toEqual(want);
      expect(index.length).toBe(want.length);
      // Writes after it find each entry, base or changed, under its key.
      for (let step = 0; step < 60; step++) {
        const id = `r${random.int(45)}`;
        const next = random.int(4) === 0 ? undefined : record(id);
        if (next === undefined) records.delete(id);
        else records.set(id, next);
        index.update(id, next);
        const now = brute(records);
        expect(index.slice(0, now.length, false), `seed ${seed} step ${step}`).toEqual(now);
        expect(index.length).toBe(now.length);
      }
      expect(template.slice(0, template.length, false)).toEqual(templateIds);
      expect(template.length).toBe(brute(base).length);
    }
  });
});

describe('SortedIndexes.over', () => {
  interface C { id: string; key: number; tag: boolean }
  const base = new Map<string, C>([['a', { id: 'a', key: 2, tag: true }], ['b', { id: 'b', key: 1, tag: false }]]);
  const make = () => new SortedIndex<C>((r) => r.key, () => true);
  const tagged = () => new SortedIndex<C>((r) => r.key, (r) => r.tag);

  it('builds a list\'s template once per seeded base, and each app\'s index from it with its own changes', () => {
    const seeded = new Map(base);
    const first = CowMap.from(seeded);
    const second = CowMap.from(seeded);
    second.set('c', { id: 'c', key: 0, tag: false });
    const builds = SortedIndex.builds;
    const one = new SortedIndexes().over('all', 'key', first, make, () => seeded.values());
    const two = new SortedIndexes().over('all', 'key', second, make, () => seeded.values());
    expect(SortedIndex.builds).toBe(builds + 1);
    expect(one.slice(0, 9, false)).toEqual(['b', 'a']);
    expect(two.slice(0, 9, false)).toEqual(['c', 'b', 'a']);
    // Another list over the same base has its own template; another base, its own too.
    new SortedIndexes().over('all:t:x', 'key', first, tagged, () => [...seeded.values()].filter((r) => r.tag));
    new SortedIndexes().over('all', 'key', CowMap.from(new Map(base)), make, () => base.values());
    expect(SortedIndex.builds).toBe(builds + 3);
  });

  it('keeps no template of a tag\'s list the base has no holders of, and keeps a type\'s even when empty', () => {
    const seeded = new Map<string, C>();
    const app = CowMap.from(seeded);
    const builds = SortedIndex.builds;
    for (let i = 0; i < 2; i++) new SortedIndexes().over('customer:user:t:9', 'key', app, tagged, () => []);
    expect(SortedIndex.builds).toBe(builds + 2);
    for (let i = 0; i < 2; i++) new SortedIndexes().over('customer:user', 'key', app, make, () => seeded.values());
    expect(SortedIndex.builds).toBe(builds + 3);
  });
});
