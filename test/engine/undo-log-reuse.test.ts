// One undo log serves an app's write requests one after another (AppCore.idleLog): its arrays keep
// their length between transactions and a count says which steps are the current one's, so a
// transaction never sees, undoes, reports or purges a step of an earlier one, whether that one was
// small or past the room a cleared log keeps (KEPT_STEPS), and lets go of what its steps pointed at.

import { describe, expect, it } from 'vitest';
import { CowMap, KEPT_STEPS, UndoLog } from '../../src/engine/cow.js';
import { fullGc } from '../bench/full-gc.js';

function start(): { map: CowMap<number>; log: UndoLog } {
  const map = CowMap.from(new Map([['base', 0]]));
  const log = new UndoLog();
  map.undo = log;
  return { map, log };
}

describe('an undo log used for transaction after transaction', () => {
  it('undoes only the last transaction, after a committed one of 2,000 steps and after a small one', () => {
    const { map, log } = start();
    for (let i = 0; i < 2000; i++) map.set(`k${i}`, i);
    log.commit();
    map.set('k1', -1);
    map.delete('k2');
    map.set('new', 5);
    log.undo();
    expect([map.get('k1'), map.get('k2'), map.get('new'), map.size]).toEqual([1, 2, undefined, 2001]);
    map.set('k3', -3);
    log.commit();
    map.set('k4', -4);
    log.undo();
    expect([map.get('k3'), map.get('k4'), map.size]).toEqual([-3, 4, 2001]);
    expect(log.empty).toBe(true);
  });

  it('reports only the current transaction\'s writes, however many the one before made', () => {
    const { map, log } = start();
    for (let i = 0; i < 1500; i++) map.set(`k${i}`, i);
    log.commit();
    map.set('k7', 70);
    map.set('k7', 71);
    map.set('base', 1);
    expect([...log.touched()].map(([, key, slot]) => [key, slot])).toEqual([
      ['k7', 7],
      ['base', undefined],
    ]);
    log.commit();
    expect([...log.touched()]).toEqual([]);
  });

  it('purges only the current transaction\'s deletes: a key deleted before and set again since stays', () => {
    const { map, log } = start();
    map.set('x', 1);
    map.set('y', 2);
    log.commit();
    map.delete('x');
    log.commit();
    map.set('x', 3);
    map.delete('y');
    log.commit();
    expect([...map.entries()]).toEqual([
      ['base', 0],
      ['x', 3],
    ]);
    for (let i = 0; i < 1100; i++) map.set(`d${i}`, i);
    log.commit();
    for (let i = 0; i < 1100; i++) map.delete(`d${i}`);
    map.set('x', 4);
    log.undo();
    expect([map.size, map.get('d0'), map.get('d1099'), map.get('x')]).toEqual([1102, 0, 1099, 3]);
    for (let i = 0; i < 1100; i++) map.delete(`d${i}`);
    log.commit();
    map.delete('x');
    log.undo();
    expect([...map.entries()]).toEqual([
      ['base', 0],
      ['x', 3],
    ]);
  });
});

describe('what a finished transaction\'s log lets go of', () => {
  it('neither the values its writes replaced nor the maps it wrote to stay alive through the log the app keeps', async () => {
    const gc = fullGc();
    const log = new UndoLog();
    const kept = CowMap.from(new Map<string, { n: number }>());
    kept.set('k', { n: 1 });
    // Replaced and deleted in one transaction each: the log recorded both old values.
    const replaced = new WeakRef(kept.get('k') as { n: number });
    kept.undo = log;
    kept.set('k', { n: 2 });
    kept.set('gone', { n: 3 });
    log.commit();
    const deleted = new WeakRef(kept.get('gone') as { n: number });
    kept.delete('gone');
    log.commit();
    kept.undo = null;
    // A map written in a transaction, then dropped (a state since restored or reset).
    const droppedRef = ((): WeakRef<CowMap<number>> => {
      const dropped = CowMap.from(new Map<string, number>());
      dropped.undo = log;
      dropped.set('x', 1);
      dropped.delete('x');
      log.commit();
      dropped.undo = null;
      return new WeakRef(dropped);
    })();
    // WeakRefs hold their targets to the end of the job that made them.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect([replaced.deref(), deleted.deref(), droppedRef.deref()]).toEqual([undefined, undefined, undefined]);
    expect(log.empty).toBe(true);
  });

  it('is empty only with nothing recorded: a step, a delete, then committed or undone', () => {
    const { map, log } = start();
    expect(log.empty).toBe(true);
    map.set('a', 1);
    expect(log.empty).toBe(false);
    log.commit();
    expect(log.empty).toBe(true);
    map.delete('a');
    expect(log.empty).toBe(false);
    log.undo();
    expect([log.empty, map.get('a')]).toEqual([true, 1]);
  });

  it('keeps the room of its deletes no more than that of its steps', () => {
    const { map, log } = start();
    for (let i = 0; i < KEPT_STEPS + 1; i++) map.set(`k${i}`, i);
    log.commit();
    const arrays = log as unknown as { deadMaps: unknown[]; deadKeys: unknown[] };
    // Deleted keys of the app's own are kept in place until the end: each one a tombstone.
    for (let i = 0; i < KEPT_STEPS + 1; i++) map.delete(`k${i}`);
    log.commit();
    expect([arrays.deadMaps.length, arrays.deadKeys.length]).toEqual([0, 0]);
    for (let i = 0; i < KEPT_STEPS; i++) map.set(`k${i}`, i);
    log.commit();
    for (let i = 0; i < KEPT_STEPS; i++) map.delete(`k${i}`);
    log.commit();
    expect([arrays.deadMaps.length, arrays.deadKeys.length]).toEqual([KEPT_STEPS, KEPT_STEPS]);
    expect(arrays.deadMaps.every((m) => m === undefined)).toBe(true);
    expect(map.size).toBe(1);
  });

  it('keeps no more than its room between transactions: a log past it starts again from nothing', () => {
    const { map, log } = start();
    for (let i = 0; i < KEPT_STEPS + 1; i++) map.set(`k${i}`, i);
    log.commit();
    const arrays = log as unknown as { maps: unknown[]; keys: unknown[]; slots: unknown[]; counts: unknown[] };
    expect([arrays.maps.length, arrays.keys.length, arrays.slots.length, arrays.counts.length]).toEqual([0, 0, 0, 0]);
    for (let i = 0; i < KEPT_STEPS; i++) map.set(`k${i}`, -i);
    log.commit();
    expect([arrays.maps.length, arrays.keys.length, arrays.slots.length, arrays.counts.length]).toEqual([KEPT_STEPS, KEPT_STEPS, KEPT_STEPS, KEPT_STEPS]);
    expect(arrays.slots.every((slot) => slot === undefined)).toBe(true);
  });
});
