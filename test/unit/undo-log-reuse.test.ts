// One undo log serves an app's write requests one after another (AppState.idleLog): its arrays keep
// their length between transactions and a count says which steps are the current one's, so a
// transaction never sees, undoes, reports or purges a step of an earlier one, whether that one was
// small or past the room a cleared log keeps (1,024 steps).

import { describe, expect, it } from 'vitest';
import { CowMap, UndoLog } from '../../src/core/cow.js';

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
