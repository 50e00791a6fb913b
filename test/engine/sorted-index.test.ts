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
