// The tombstone list behind the order index against a plain array model: any sequence of appends,
// removals, revivals, placements before the end and undone appends reads the same live slices.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TombstoneList } from '../../src/store/tombstone-list.js';

type Op = { kind: 'push' | 'remove' | 'insert' | 'unpush'; pick: number };

describe('TombstoneList', () => {
  it('reads every slice as a sorted array of its live entries would, whatever the changes', () => {
    const op = fc.record({ kind: fc.constantFrom<Op['kind']>('push', 'remove', 'remove', 'insert', 'unpush'), pick: fc.nat(1000) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.nat(80), fc.nat(30), (ops, start, len) => {
        const list = new TombstoneList();
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
