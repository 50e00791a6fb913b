// CowLog past what the model test reaches: a log thousands of places long whose oldest places are
// evicted, as an app's events are. The array gives back the slots of evicted places, and reads,
// forks, undos and resets answer the same before and after it does.

import { describe, expect, it } from 'vitest';
import { UndoLog } from '../../src/engine/cow.js';
import { CowLog } from '../../src/engine/cow-log.js';

/** A log over seeded places 1 to 3, then places 4 to `last` appended, each in a standing transaction. */
function grown(last: number): CowLog<string> {
  const log = CowLog.over(new Map([1, 2, 3].map((p) => [p, `seeded ${p}`])));
  for (let p = 4; p <= last; p++) standing(log, () => log.set(p, `event ${p}`));
  return log;
}

/**
 * The array's length, the evicted slots still leading it included: the storage the log keeps.
 * slotCount counts from the head, so it reads the same before and after those slots are dropped.
 */
const stored = (log: CowLog<string>): number => (log as unknown as { own: unknown[] }).own.length;

function standing(log: CowLog<string>, write: () => void): void {
  const undo = new UndoLog();
  log.undo = undo;
  write();
  undo.commit();
  log.undo = null;
}

describe('CowLog eviction', () => {
  it('gives back the slots of evicted places, in transactions or not, and reads the rest as before', () => {
    const log = grown(5000);
    expect(log.slotCount).toBe(4997);
    // The seeded places go through the overlay (CowMap's path), the app's own through the array.
    for (let p = 1; p <= 3; p++) standing(log, () => expect(log.delete(p)).toBe(true));
    for (let p = 4; p <= 3000; p++) standing(log, () => expect(log.delete(p)).toBe(true));
    for (let p = 3001; p <= 3500; p++) expect(log.delete(p)).toBe(true);
    expect(log.size).toBe(1500);
    // Dropped once evicted slots were at least 1,024 and half the array: what is left is the held places, plus fewer evicted than held.
    expect(stored(log)).toBeLessThan(3000);
    expect(stored(log)).toBeGreaterThanOrEqual(1500);
    // The head is past every evicted place.
    expect(log.slotCount).toBe(1500);
    expect([log.get(3), log.get(3000), log.get(3500), log.get(3501), log.get(5000), log.get(5001)]).toEqual([undefined, undefined, undefined, 'event 3501', 'event 5000', undefined]);
    expect([...log.keys()]).toEqual(Array.from({ length: 1500 }, (_, i) => 3501 + i));
    expect(log.delete(3000)).toBe(false);
  });

  it('undoes an eviction after slots were given back, and a fork of it holds exactly the held places', () => {
    const log = grown(4000);
    for (let p = 4; p <= 3000; p++) standing(log, () => log.delete(p));
    const slots = log.slotCount;
    expect(stored(log)).toBeLessThan(2000);
    const undo = new UndoLog();
    log.undo = undo;
    log.delete(3001);
    log.set(4001, 'event 4001');
    expect([log.get(3001), log.size]).toEqual([undefined, 1003]);
    undo.undo();
    log.undo = null;
    expect([log.get(3001), log.get(4001), log.size, log.slotCount]).toEqual(['event 3001', undefined, 1003, slots]);
    const fork = log.fork();
    fork.delete(3001);
    expect([fork.get(3001), log.get(3001), fork.size, log.size]).toEqual([undefined, 'event 3001', 1002, 1003]);
    expect([...fork.entries()][0]).toEqual([1, 'seeded 1']);
    expect(fork.slotCount).toBe(999);
  });

  it('takes a place written again behind the slots given back, and a reset forgets every own place', () => {
    const log = grown(4000);
    for (let p = 4; p <= 3000; p++) log.delete(p);
    log.set(10, 'again');
    expect([log.get(10), log.get(11), log.get(3001), log.size]).toEqual(['again', undefined, 'event 3001', 1004]);
    expect([...log.keys()].slice(0, 5)).toEqual([1, 2, 3, 10, 3001]);
    log.reset();
    expect([log.size, log.slotCount, log.get(10), log.get(3001), log.get(2)]).toEqual([3, 0, undefined, undefined, 'seeded 2']);
    log.set(7, 'after reset');
    expect([...log.entries()]).toEqual([[1, 'seeded 1'], [2, 'seeded 2'], [3, 'seeded 3'], [7, 'after reset']]);
  });

  // The rule pinned exactly (DROP_AFTER is 1,024): a drop copies what is held, so made earlier it
  // would cost a copy per eviction; made never, an app's array would grow with every event it added.
  it('drops the evicted slots leading the array once they are 1,024 and half of it, and never inside a transaction', () => {
    // 2,048 own places: the 1,024th eviction is half of them.
    const log = grown(2051);
    for (let p = 4; p <= 1026; p++) log.delete(p);
    expect([stored(log), log.slotCount]).toEqual([2048, 1025]);
    // Marked in the transaction, so an undo finds the slot where it was; dropped when it stands.
    const undo = new UndoLog();
    log.undo = undo;
    expect(log.delete(1027)).toBe(true);
    expect([stored(log), log.get(1027)]).toEqual([2048, undefined]);
    undo.commit();
    log.undo = null;
    expect([stored(log), log.slotCount, log.size]).toEqual([1024, 1024, 1027]);
    expect([log.get(1027), log.get(1028), log.get(2051), [...log.keys()].slice(0, 4)]).toEqual([undefined, 'event 1028', 'event 2051', [1, 2, 3, 1028]]);

    // 2,049 own places: 1,024 evicted are not yet half; the next eviction drops 1,025.
    const longer = grown(2052);
    for (let p = 4; p <= 1027; p++) longer.delete(p);
    expect(stored(longer)).toBe(2049);
    longer.delete(1028);
    expect([stored(longer), longer.get(1029), longer.size]).toEqual([1024, 'event 1029', 1027]);

    // A short array keeps its evicted slots, though they are most of it, all of it at the end; its head stops at its end.
    const short = grown(13);
    for (let p = 4; p <= 12; p++) short.delete(p);
    expect([stored(short), short.slotCount, [...short.keys()]]).toEqual([10, 1, [1, 2, 3, 13]]);
    short.delete(13);
    expect([stored(short), short.slotCount, [...short.keys()]]).toEqual([10, 0, [1, 2, 3]]);
  });
});

describe('CowLog forks', () => {
  it('a fork taken while a transaction runs holds its deletions as deletions, and gives back their slots', () => {
    const log = grown(1000);
    const undo = new UndoLog();
    log.undo = undo;
    for (let p = 4; p <= 500; p++) log.delete(p);
    const fork = log.fork();
    undo.commit();
    log.undo = null;
    expect([fork.size, fork.get(4), fork.get(501)]).toEqual([503, undefined, 'event 501']);
    // The fork runs on as a log: appends and evictions, its array bounded by what it holds.
    for (let p = 1001; p <= 6000; p++) {
      fork.set(p, `event ${p}`);
      fork.delete(p - 500);
    }
    expect(fork.size).toBe(503);
    expect(fork.slotCount).toBeLessThan(2 * 500 + 1024);
  });
});
