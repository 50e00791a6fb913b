import { describe, expect, it } from 'vitest';
import { CowMap, UndoLog } from '../../src/engine/cow.js';

describe('UndoLog over CowMaps', () => {
  it('takes back sets and deletes on several maps in reverse order', () => {
    const a = CowMap.from(new Map([['x', 1], ['y', 2]]));
    const b = CowMap.from(new Map<string, string>());
    a.set('x', 10);
    const before = [[...a.entries()], a.size, [...b.entries()], b.size];
    const log = new UndoLog();
    a.undo = log;
    b.undo = log;
    a.set('x', 100);
    a.delete('y');
    a.set('z', 3);
    a.set('z', 4);
    b.set('k', 'v');
    b.delete('k');
    b.set('k', 'w');
    log.undo();
    expect([[...a.entries()], a.size, [...b.entries()], b.size]).toEqual(before);
  });

  it('records nothing when no log is attached', () => {
    const a = CowMap.from(new Map([['x', 1]]));
    const log = new UndoLog();
    a.set('x', 2);
    log.undo();
    expect(a.get('x')).toBe(2);
  });
});
