// The tombstone list behind the order index against a plain array model: any sequence of appends,
// removals, revivals, placements before the end and undone appends reads the same live slices.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findWork, TombstoneList } from '../../src/engine/tombstone-list.js';

type Op = { kind: 'push' | 'remove' | 'insert' | 'unpush'; pick: number };

describe('TombstoneList', () => {
  // Rank-keyed (the order index) and generic: the model's keys are distinct integers, as ranks are.
  it.each([false, true])('reads every slice as a sorted array of its live entries would, whatever the changes (rank keys: %s)', (rankKeys) => {
    const op = fc.record({ kind: fc.constantFrom<Op['kind']>('push', 'remove', 'remove', 'insert', 'unpush'), pick: fc.nat(1000) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.nat(80), fc.nat(30), (ops, start, len) => {
        const list = new TombstoneList(rankKeys);
        const model = new Map<number, string>();
        let next = 0;
        const known: number[] = [];
        for (const { kind, pick } of ops) {
          if (kind === 'push') {
            const key = next++ * 4;
            list.push(`id${key}`, key);
            model.set(key, `id${key}`);
            known.push(key);
          } else if (known.length > 0) {
            const key = known[pick % known.length] as number;
            if (kind === 'remove') {
              expect(list.remove(key, `id${key}`)).toBe(model.delete(key));
            } else if (kind === 'insert') {
              // Revives a known key, or places a new one between existing ones.
              const k = pick % 2 === 0 || key % 4 !== 0 ? key : key + 1;
              list.insert(`id${k}`, k);
              model.set(k, `id${k}`);
              if (k !== key) known.push(k);
            } else if (model.has(key) && key === Math.max(...model.keys())) {
              list.unpush(key, `id${key}`);
              model.delete(key);
            }
          }
        }
        const live = [...model.entries()].sort((a, b) => a[0] - b[0]).map(([, id]) => id);
        expect(list.live).toBe(live.length);
        expect(list.slice(start, start + len)).toEqual(live.slice(start, start + len));
        expect(list.slice(0, Number.POSITIVE_INFINITY)).toEqual(live);
        expect(list.length).toBeLessThanOrEqual(Math.max(32, 2 * live.length + 1));
        const below = 4 * start;
        expect(list.liveBefore(list.find(below, ''))).toBe([...model.keys()].filter((k) => k < below).length);
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  it('finds an entry of a rank-keyed list without gaps at its rank, reading one entry', () => {
    const ranked = new TombstoneList(true);
    const plain = new TombstoneList();
    for (let r = 0; r < 10_000; r++) {
      ranked.push(`id${r}`, r);
      plain.push(`id${r}`, r);
    }
    const reads = (list: TombstoneList, r: number): number => {
      findWork.read = 0;
      expect(list.remove(r, `id${r}`)).toBe(true);
      return findWork.read;
    };
    expect(reads(ranked, 5000)).toBe(1);
    expect(reads(plain, 5000)).toBeGreaterThanOrEqual(13);
    expect(reads(ranked, 9999)).toBe(1);
    findWork.read = 0;
    ranked.insert('id5000', 5000);
    expect(findWork.read).toBe(1);
    // Gaps (ranks of another type's customers) widen the search to them: 100 missing ranks, 7 halvings at most.
    const gappy = new TombstoneList(true);
    for (let r = 0; r < 10_100; r++) if (r < 4000 || r >= 4100) gappy.push(`id${r}`, r);
    findWork.read = 0;
    expect(gappy.remove(6000, 'id6000')).toBe(true);
    expect(findWork.read).toBeLessThanOrEqual(7);
    expect(gappy.slice(3999, 4001)).toEqual(['id3999', 'id4100']);
    expect(ranked.slice(4999, 5002)).toEqual(['id4999', 'id5000', 'id5001']);
  });

  it('inserts many entries in one pass as inserting them one by one would, and a clone is independent of its list', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(500), { maxLength: 120 }), fc.nat(), (ranks, seed) => {
        // A list of ranks with some dead, then the rest inserted at once: the live slice is every rank in order.
        const list = new TombstoneList(true);
        const start = ranks.filter((_, i) => (i + seed) % 3 !== 0).sort((a, b) => a - b);
        for (const r of start) list.push(`id${r}`, r);
        const dead = start.filter((_, i) => (i + seed) % 4 === 0);
        for (const r of dead) list.remove(r, `id${r}`);
        const template = list.clone();
        const adds = ranks.filter((r) => !start.includes(r)).map((r) => [r, `id${r}`] as const);
        list.insertMany(adds);
        const expected = [...start.filter((r) => !dead.includes(r)), ...adds.map(([r]) => r)].sort((a, b) => a - b).map((r) => `id${r}`);
        expect(list.slice(0, Number.POSITIVE_INFINITY)).toEqual(expected);
        expect(list.live).toBe(expected.length);
        // The clone kept what the list held before.
        expect(template.slice(0, Number.POSITIVE_INFINITY)).toEqual(start.filter((r) => !dead.includes(r)).map((r) => `id${r}`));
      }),
    );
  });

  it('leaves the arrays a reader holds unshifted', () => {
    const list = new TombstoneList();
    for (const k of [0, 2, 4]) list.push(`id${k}`, k);
    const held = list.hold();
    list.insert('id1', 1);
    list.remove(4, 'id4');
    expect(held.ids).toEqual(['id0', 'id2', 'id4']);
    expect(list.slice(0, 10)).toEqual(['id0', 'id1', 'id2']);
  });
});
