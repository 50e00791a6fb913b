// Slices of a join log after leaves, rejoins and compactions, against the plain walk, and the work a
// deep slice does once a holder has left: positions from the dead-entry tree, not a walk from entry 0.

import { describe, expect, it } from 'vitest';
import { CowMap } from '../../src/engine/cow.js';
import { Random } from '../../src/core/random.js';
import { baseLog, join, joined, joinedCount, joinedSlice, leave, sliceWork, type JoinLog, type JoinMaps } from '../../src/engine/join-log.js';

const seeded = (n: number): JoinMaps => ({
  logs: CowMap.from(new Map<string, JoinLog>([['k', baseLog(Array.from({ length: n }, (_, i) => `id${i}`))]])),
  seqs: CowMap.empty<number>(),
});

describe('joinedSlice', () => {
  it('agrees with the full walk at every offset after random joins, leaves and rejoins', () => {
    const random = new Random(7);
    const maps = seeded(200);
    const holding = new Set(Array.from({ length: 200 }, (_, i) => `id${i}`));
    for (let step = 0; step < 1500; step++) {
      const id = `id${random.int(300)}`;
      if (holding.has(id)) {
        leave(maps, 'k', id);
        holding.delete(id);
      } else {
        join(maps, 'k', id);
        holding.add(id);
      }
      if (step % 50 !== 0) continue;
      const all = joined(maps, 'k', (x) => (holding.has(x) ? x : undefined));
      expect(joinedCount(maps, 'k')).toBe(all.length);
      expect(joinedSlice(maps, 'k', 0, Number.POSITIVE_INFINITY, () => true, true)).toEqual(all);
      for (const start of [0, 1, 17, all.length - 20, all.length - 1]) {
        expect(joinedSlice(maps, 'k', start, start + 20, () => true, true)).toEqual(all.slice(Math.max(0, start), start + 20));
      }
    }
  });

  it('keeps versions apart: a fork that leaves and an original that joins share arrays, not dead entries', () => {
    const original = seeded(100);
    for (let i = 0; i < 10; i++) leave(original, 'k', `id${i * 7}`);
    const fork: JoinMaps = { logs: original.logs.fork(), seqs: original.seqs.fork() };
    for (let i = 0; i < 10; i++) leave(fork, 'k', `id${i * 7 + 1}`);
    join(original, 'k', 'new-a');
    join(fork, 'k', 'new-b');
    const expected = (gone: (i: number) => boolean, extra: string) => [...Array.from({ length: 100 }, (_, i) => i).filter((i) => !gone(i)).map((i) => `id${i}`), extra];
    const inOriginal = expected((i) => i % 7 === 0 && i < 70, 'new-a');
    const inFork = expected((i) => (i % 7 === 0 && i < 70) || (i % 7 === 1 && i < 71), 'new-b');
    expect(joinedSlice(original, 'k', 0, 1000, () => true, true)).toEqual(inOriginal);
    expect(joinedSlice(fork, 'k', 0, 1000, () => true, true)).toEqual(inFork);
    expect(joinedSlice(fork, 'k', 70, 81, () => true, true)).toEqual(inFork.slice(70, 81));
  });

  it('reads a deep slice of a long log with one holder gone in work bounded by the slice, not the log', () => {
    const maps = seeded(100_000);
    leave(maps, 'k', 'id5');
    sliceWork.visited = 0;
    const page = joinedSlice(maps, 'k', 99_970, 99_990, () => true, true);
    expect(page).toEqual(Array.from({ length: 20 }, (_, i) => `id${99_971 + i}`));
    expect(sliceWork.visited).toBeLessThan(200);
  });
});
