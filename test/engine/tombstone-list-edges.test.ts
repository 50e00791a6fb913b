// The tombstone list at the edges the property test reaches only by chance: the compaction bound,
// an undone append, a reader holding the arrays, the Fenwick tree's span and the key order.

import { describe, expect, it } from 'vitest';
import { before, TombstoneList } from '../../src/engine/tombstone-list.js';

/** A list of `n` live entries, keys 0, 2, 4, ... (odd keys are free for placements between them). */
function list(n: number): TombstoneList {
  const l = new TombstoneList();
  for (let k = 0; k < 2 * n; k += 2) l.push(`id${k}`, k);
  return l;
}

const all = (l: TombstoneList) => l.slice(0, Number.POSITIVE_INFINITY);

describe('TombstoneList compaction', () => {
  it('compacts a list of 32 once dead entries outnumber live ones, not before', () => {
    const l = list(32);
    for (let k = 0; k < 32; k += 2) expect(l.remove(k, `id${k}`)).toBe(true);
    // 16 dead, 16 live: not yet.
    expect(l.length).toBe(32);
    expect(l.live).toBe(16);
    expect(l.remove(32, 'id32')).toBe(true);
    expect(l.length).toBe(15);
    expect(l.live).toBe(15);
    expect(l.hold().dead).toEqual(new Array(15).fill(0));
    expect(all(l)).toEqual(Array.from({ length: 15 }, (_, i) => `id${34 + 2 * i}`));
  });

  it('never compacts a list shorter than 32, however many are dead', () => {
    const l = list(31);
    for (let k = 0; k < 60; k += 2) l.remove(k, `id${k}`);
    expect(l.length).toBe(31);
    expect(l.live).toBe(1);
    expect(all(l)).toEqual(['id60']);
  });

  it('keeps a removed entry in place until then, and brings it back there', () => {
    const l = list(4);
    expect(l.remove(2, 'id2')).toBe(true);
    expect(l.remove(2, 'id2')).toBe(false);
    expect(l.remove(3, 'id2')).toBe(false);
    expect(l.length).toBe(4);
    expect(l.hold().dead).toEqual([0, 1, 0, 0]);
    l.insert('id2', 2);
    expect(l.length).toBe(4);
    expect(all(l)).toEqual(['id0', 'id2', 'id4', 'id6']);
  });
});

describe('TombstoneList placement', () => {
  it('places an entry before the end in the arrays themselves, dead entries and marks moving along', () => {
    const l = list(6);
    l.remove(2, 'id2');
    l.remove(8, 'id8');
    l.insert('id5', 5);
    expect(l.length).toBe(7);
    expect(l.hold().dead).toEqual([0, 1, 0, 0, 0, 1, 0]);
    expect(all(l)).toEqual(['id0', 'id4', 'id5', 'id6', 'id10']);
    expect(l.slice(2, 4)).toEqual(['id5', 'id6']);
    expect(l.liveBefore(l.find(9, ''))).toBe(4);
  });

  it('appends past the end into the arrays a reader holds, without a copy', () => {
    const l = list(3);
    const held = l.hold();
    l.insert('id9', 9);
    expect(held.ids).toEqual(['id0', 'id2', 'id4', 'id9']);
    expect(l.hold().ids).toBe(held.ids);
  });

  it('copies once, without the dead, when an entry goes before the end of held arrays', () => {
    const l = list(4);
    l.remove(2, 'id2');
    const held = l.hold();
    l.insert('id3', 3);
    expect(held.ids).toEqual(['id0', 'id2', 'id4', 'id6']);
    expect(held.dead).toEqual([0, 1, 0, 0]);
    expect(l.length).toBe(4);
    expect(all(l)).toEqual(['id0', 'id3', 'id4', 'id6']);
  });

  it('works in place after a copy has been made', () => {
    const l = list(4);
    l.hold();
    l.insert('id1', 1);
    l.remove(4, 'id4');
    l.insert('id5', 5);
    // The dead entry stays: no reader holds the copy, so no second copy.
    expect(l.length).toBe(6);
    expect(l.hold().dead).toEqual([0, 0, 0, 1, 0, 0]);
    expect(all(l)).toEqual(['id0', 'id1', 'id2', 'id5', 'id6']);
  });
});

describe('TombstoneList ties of key', () => {
  it('tells entries of one key apart by id', () => {
    const l = new TombstoneList();
    l.push('a', 5);
    l.push('c', 5);
    expect(l.remove(5, 'b')).toBe(false);
    l.insert('b', 5);
    expect(all(l)).toEqual(['a', 'b', 'c']);
    expect(l.remove(5, 'c')).toBe(true);
    l.unpush(5, 'b');
    expect(all(l)).toEqual(['a']);
    expect(l.length).toBe(3);
  });
});

describe('TombstoneList unpush', () => {
  it('takes back the last entry', () => {
    const l = list(3);
    l.unpush(4, 'id4');
    expect(l.length).toBe(2);
    expect(l.hold().dead).toEqual([0, 0]);
    expect(all(l)).toEqual(['id0', 'id2']);
  });

  it('marks an entry that is not last dead, and leaves the last alone', () => {
    const l = list(3);
    l.unpush(2, 'id2');
    expect(l.length).toBe(3);
    expect(all(l)).toEqual(['id0', 'id4']);
    l.unpush(4, 'id2');
    expect(all(l)).toEqual(['id0', 'id4']);
  });

  it('does nothing for a last entry already dead', () => {
    const l = list(3);
    l.remove(4, 'id4');
    l.unpush(4, 'id4');
    expect(l.length).toBe(3);
    expect(l.live).toBe(2);
    expect(all(l)).toEqual(['id0', 'id2']);
  });

  it('only marks the last entry dead while a reader holds the arrays', () => {
    const l = list(3);
    const held = l.hold();
    l.unpush(4, 'id4');
    expect(held.ids).toEqual(['id0', 'id2', 'id4']);
    expect(held.dead).toEqual([0, 0, 1]);
    expect(all(l)).toEqual(['id0', 'id2']);
  });

  it('does nothing on an empty list, and takes back an only entry', () => {
    const l = new TombstoneList();
    l.unpush(0, 'id0');
    expect(l.length).toBe(0);
    l.push('id0', 0);
    l.unpush(0, 'id0');
    expect(l.length).toBe(0);
  });
});

describe('TombstoneList tree', () => {
  it('reads live entries past the span of the tree, which grew only as far as the last mark', () => {
    const l = list(8);
    l.remove(2, 'id2');
    // The tree spans positions 0 and 1; positions 2 to 7 lie past it.
    expect(l.slice(4, 6)).toEqual(['id10', 'id12']);
    expect(l.slice(6, 10)).toEqual(['id14']);
    expect(l.liveBefore(8)).toBe(7);
    expect(l.liveBefore(2)).toBe(1);
  });

  it('counts marks made before the tree grew', () => {
    const l = list(8);
    l.remove(0, 'id0');
    l.remove(10, 'id10');
    l.remove(14, 'id14');
    expect(l.liveBefore(8)).toBe(5);
    expect(l.liveBefore(6)).toBe(4);
    expect(l.slice(0, 8)).toEqual(['id2', 'id4', 'id6', 'id8', 'id12']);
    expect(l.slice(3, 8)).toEqual(['id8', 'id12']);
  });

  it('reads an empty slice for a start at or past the end', () => {
    const l = list(4);
    l.remove(2, 'id2');
    expect(l.slice(3, 3)).toEqual([]);
    expect(l.slice(3, 10)).toEqual([]);
    expect(l.slice(5, 10)).toEqual([]);
    expect(l.slice(2, 10)).toEqual(['id6']);
  });
});

describe('before', () => {
  it('puts null keys first, then keys ascending, ties by id', () => {
    expect(before(null, 'b', -1, 'a')).toBe(true);
    expect(before(-1, 'a', null, 'b')).toBe(false);
    expect(before(5, 'a', null, 'b')).toBe(false);
    expect(before(-2, 'z', -1, 'a')).toBe(true);
    expect(before(-1, 'a', -2, 'z')).toBe(false);
    expect(before(3, 'a', 3, 'b')).toBe(true);
    expect(before(3, 'b', 3, 'a')).toBe(false);
    expect(before(null, 'a', null, 'b')).toBe(true);
    expect(before(3, 'a', 3, 'a')).toBe(false);
  });
});
