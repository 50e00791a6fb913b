// The join logs (a company's members, an email's holders) against a model: for any sequence of
// joins, leaves and forks (snapshots, provisioned copies), every version lists each key's ids in
// join order, each once, counts them, and slices them as a plain array would.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CowMap } from '../../src/engine/cow.js';
import { baseLog, join, joined, joinedCount, joinedSlice, leave, leaveWork, type JoinLog, type JoinMaps } from '../../src/engine/join-log.js';

const KEYS = ['k1', 'k2'];
const IDS = Array.from({ length: 40 }, (_, i) => `id${i}`);

interface Version {
  maps: JoinMaps;
  model: Map<string, string[]>;
}

const fork = (v: Version): Version => ({
  maps: { logs: v.maps.logs.fork(), seqs: v.maps.seqs.fork() },
  model: new Map([...v.model].map(([k, ids]) => [k, [...ids]])),
});

function check(v: Version, start: number, length: number, keepEven: boolean): void {
  for (const key of KEYS) {
    const want = v.model.get(key) ?? [];
    const holds = new Set(want);
    // As the store reads: the record says whether the id holds the key now.
    expect(joined(v.maps, key, (id) => (holds.has(id) ? id : undefined))).toEqual(want);
    expect(joinedCount(v.maps, key)).toBe(want.length);
    const keep = (id: string) => !keepEven || Number(id.slice(2)) % 2 === 0;
    const kept = want.filter(keep);
    expect(joinedSlice(v.maps, key, start, start + length, keep, !keepEven)).toEqual(kept.slice(start, start + length));
  }
}

type Step = { kind: 'join' | 'leave'; key: number; id: number; version: number } | { kind: 'fork'; version: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant<'join'>('join'), key: fc.nat(1), id: fc.nat(IDS.length - 1), version: fc.nat(3) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant<'leave'>('leave'), key: fc.nat(1), id: fc.nat(IDS.length - 1), version: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant<'fork'>('fork'), version: fc.nat(3) }) },
);

describe('join logs', () => {
  it('agree with a plain list per key, in every version, through joins, leaves, rejoins and compaction', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 300 }), fc.nat(20), fc.integer({ min: 1, max: 20 }), fc.boolean(), (steps, start, length, keepEven) => {
        const base = new Map<string, JoinLog>([['k1', baseLog(['id0', 'id1', 'id2'])]]);
        const versions: Version[] = [{ maps: { logs: CowMap.from(base), seqs: CowMap.empty() }, model: new Map([['k1', ['id0', 'id1', 'id2']]]) }];
        for (const s of steps) {
          const v = versions[s.version % versions.length] as Version;
          if (s.kind === 'fork') {
            if (versions.length < 4) versions.push(fork(v));
            continue;
          }
          const key = KEYS[s.key] as string;
          const id = IDS[s.id] as string;
          const list = v.model.get(key) ?? [];
          if (s.kind === 'join' && !list.includes(id)) {
            join(v.maps, key, id);
            v.model.set(key, [...list, id]);
          } else if (s.kind === 'leave' && list.includes(id)) {
            leave(v.maps, key, id);
            v.model.set(key, list.filter((x) => x !== id));
          }
        }
        for (const v of versions) check(v, start, length, keepEven);
      }),
      { numRuns: 300, seed: 12 },
    );
  });

  it('lists, counts and slices right after a rejoin, a compaction and more leaves', () => {
    const maps: JoinMaps = { logs: CowMap.empty(), seqs: CowMap.empty() };
    let model: string[] = [];
    const doJoin = (id: string) => { join(maps, 'k', id); model.push(id); };
    const doLeave = (id: string) => { leave(maps, 'k', id); model = model.filter((x) => x !== id); };
    const holds = (id: string) => (model.includes(id) ? id : undefined);
    const verify = () => {
      expect(joined(maps, 'k', holds)).toEqual(model);
      expect(joinedCount(maps, 'k')).toBe(model.length);
      const even = (id: string) => Number(id.slice(2)) % 2 === 0;
      for (const [start, end] of [[0, 3], [2, 5], [0, 100], [4, 4]] as const) {
        expect(joinedSlice(maps, 'k', start, end, even, false)).toEqual(model.filter(even).slice(start, end));
        expect(joinedSlice(maps, 'k', start, end, () => true, true)).toEqual(model.slice(start, end));
      }
    };
    doJoin('id1');
    doJoin('id2');
    doLeave('id1');
    doJoin('id1'); // a rejoin: id1's first entry is dead, its second live
    doJoin('id3');
    verify();
    for (let i = 4; i < 40; i++) doJoin(`id${i}`);
    for (let i = 4; i < 30; i++) doLeave(`id${i}`); // compacts on the way
    verify();
    doLeave('id2');
    doJoin('id2');
    doJoin('id6');
    doLeave('id35');
    verify();
  });

  it('lists an id that left a seeded log and came back once, at its new place', () => {
    const maps: JoinMaps = { logs: CowMap.from(new Map([['k', baseLog(['a', 'b'])]])), seqs: CowMap.empty() };
    leave(maps, 'k', 'a');
    join(maps, 'k', 'a');
    expect(joined(maps, 'k', (id) => id)).toEqual(['b', 'a']);
    expect(joinedSlice(maps, 'k', 0, 5, () => true, false)).toEqual(['b', 'a']);
  });

  it('keeps the marks of ids that left bounded by what the logs hold', () => {
    const maps: JoinMaps = { logs: CowMap.empty(), seqs: CowMap.empty() };
    for (let round = 0; round < 50; round++) {
      for (const id of IDS) join(maps, 'k', id);
      for (const id of IDS.slice(1)) leave(maps, 'k', id);
      leave(maps, 'k', IDS[0] as string);
    }
    expect(maps.logs.size).toBe(0);
    expect(maps.seqs.size).toBe(0);
    for (const id of IDS) join(maps, 'k', id);
    for (let i = 0; i < 30; i++) leave(maps, 'k', IDS[i] as string);
    // Compacted at the 21st leave (more dead entries than live): 19 entries, 10 of them live, and
    // at most one mark per entry.
    expect(maps.logs.get('k')).toMatchObject({ length: 19, live: 10 });
    expect(maps.seqs.size).toBe(19);
  });

  it('finds the place of an id that leaves by reading two entries of a log never compacted, not log2 of it', () => {
    // A seeded log of 10,000 (a tag's holders), then joins: never compacted, every entry sits at its number.
    const ids = Array.from({ length: 10_000 }, (_, i) => `s${i}`);
    const maps: JoinMaps = { logs: CowMap.from(new Map([['k', baseLog(ids)]])), seqs: CowMap.empty() };
    for (let i = 0; i < 100; i++) join(maps, 'k', `n${i}`);
    const reads = (id: string): number => {
      leaveWork.read = 0;
      leave(maps, 'k', id);
      return leaveWork.read;
    };
    expect(reads('s5000')).toBe(2);
    expect(reads('n50')).toBe(2);
    expect(reads('s9999')).toBe(2);
    join(maps, 'k', 's5000');
    expect(reads('s5000')).toBe(2);
    expect(joinedCount(maps, 'k')).toBe(10_097);
    // Compacted at the 51st of 60 leaves: m70 is numbered 70 at place 19, and the 51 numbers dropped
    // bound the search to places 19 to 48 (five halvings and the check).
    const small: JoinMaps = { logs: CowMap.empty(), seqs: CowMap.empty() };
    for (let i = 0; i < 100; i++) join(small, 'k', `m${i}`);
    for (let i = 0; i < 60; i++) leave(small, 'k', `m${i}`);
    expect(small.logs.get('k')).toMatchObject({ length: 49, live: 40, next: 100 });
    leaveWork.read = 0;
    leave(small, 'k', 'm70');
    expect(leaveWork.read).toBe(6);
    expect(joinedSlice(small, 'k', 0, 100, () => true, true)).toEqual(Array.from({ length: 40 }, (_, i) => `m${60 + i}`).filter((id) => id !== 'm70'));
  });
});
