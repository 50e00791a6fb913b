import { describe, expect, it } from 'vitest';
import { CowMap } from '../../src/engine/cow.js';

const base = () => new Map([['a', 1], ['b', 2], ['c', 3]]);

describe('CowMap', () => {
  it('reads through to the base and never writes to it', () => {
    const b = base();
    const m = CowMap.from(b);
    m.set('b', 20);
    m.delete('c');
    m.set('d', 4);
    expect([...m.entries()]).toEqual([['a', 1], ['b', 20], ['d', 4]]);
    expect(m.size).toBe(3);
    expect([...b.entries()]).toEqual([['a', 1], ['b', 2], ['c', 3]]);
  });

  it('resets to the base', () => {
    const m = CowMap.from(base());
    m.set('a', 9);
    m.delete('b');
    m.set('z', 26);
    m.reset();
    expect([...m.entries()]).toEqual([['a', 1], ['b', 2], ['c', 3]]);
    expect(m.size).toBe(3);
  });

  it('forks into an independent map', () => {
    const m = CowMap.from(base());
    m.set('a', 10);
    const f = m.fork();
    f.set('a', 100);
    f.delete('b');
    expect(m.get('a')).toBe(10);
    expect(m.get('b')).toBe(2);
    expect(f.get('a')).toBe(100);
    expect(f.has('b')).toBe(false);
    expect(f.size).toBe(2);
  });

  it('keeps size right through re-adding a deleted base key and deleting an added one', () => {
    const m = CowMap.from(base());
    m.delete('a');
    m.set('a', 5);
    m.set('x', 1);
    m.delete('x');
    expect(m.size).toBe(3);
    expect(m.delete('nope')).toBe(false);
    expect([...m.keys()]).toEqual(['a', 'b', 'c']);
    expect(m.get('a')).toBe(5);
  });
});
