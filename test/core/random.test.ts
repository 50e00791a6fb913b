// The seeded streams every id, pseudonym and generated record comes from. Their values are pinned:
// recorded fixtures and snapshot tests hold what they produced, so a change of algorithm is a
// breaking change to make on purpose, not by accident.

import { describe, expect, it } from 'vitest';
import { hashSeed, Random } from '../../src/core/random.js';

describe('hashSeed', () => {
  it('gives pinned values, and tells parts apart from their concatenation', () => {
    expect(hashSeed()).toBe(2872998923);
    expect(hashSeed('a')).toBe(2448022055);
    expect(hashSeed(1, 'demo')).toBe(2384919090);
    expect(hashSeed('ab')).toBe(2138214941);
    expect(hashSeed('a', 'b')).toBe(4121897818);
    expect(hashSeed(1)).toBe(hashSeed('1'));
  });
});

describe('Random', () => {
  it('draws the pinned sfc32 stream for a seed', () => {
    const r = new Random(1);
    expect([r.nextUint32(), r.nextUint32(), r.nextUint32()]).toEqual([24724473, 838574162, 2522700496]);
    expect(new Random(7).next()).toBe(0.9882143849972636);
    expect(new Random(7).int(1000)).toBe(988);
    expect(new Random(9).pick(['a', 'b', 'c', 'd', 'e'])).toBe('a');
  });

  it('keeps floats from 0 up to 1 and integers from 0 up to max, both ends excluded at the top', () => {
    const r = new Random(5);
    for (let i = 0; i < 2000; i++) {
      const f = r.next();
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
      const n = r.int(3);
      expect([0, 1, 2]).toContain(n);
    }
  });

  it('refuses to pick from an empty list', () => {
    expect(() => new Random(1).pick([])).toThrow();
  });

  it('makes hex and base36 strings of the asked length, from pinned draws', () => {
    expect(new Random(3).hex(13)).toBe('402b5b4cc6c07');
    expect(new Random(3).base36(13)).toBe('hsywy4j59xoxo');
    expect(new Random(3).hex(0)).toBe('');
    // Exactly two draws for 12 characters: the next call starts at the third.
    const twice = new Random(3);
    expect([twice.base36(12), twice.base36(12)]).toEqual(['hsywy4j59xox', 'oswqdycqqaab']);
    // Draws below 36^5 are zero-padded to six characters: pinned over many draws.
    expect(hashSeed(new Random(4).base36(6000))).toBe(258050706);
    const r = new Random(11);
    for (let i = 0; i < 200; i++) {
      expect(r.hex(10)).toMatch(/^[0-9a-f]{10}$/);
      expect(r.base36(20)).toMatch(/^[0-9a-z]{20}$/);
    }
  });

  it('makes RFC 4122 version-4 UUIDs, pinned for a seed', () => {
    const r = new Random(42);
    expect(r.uuid()).toBe('4170db43-6ced-4b83-80ce-0dcaaa09c307');
    expect(r.uuid()).toBe('f688eba1-432a-4165-8b44-d529d84c791d');
    const variants = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const u = r.uuid();
      expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      variants.add(u.charAt(19));
    }
    expect([...variants].sort()).toEqual(['8', '9', 'a', 'b']);
  });

  it('writes a UUID from the 32 hex digits of its four draws, leading zeros kept', () => {
    // The digits are hex(32)'s for the same draws: the 13th replaced by the version, the 17th's low
    // two bits choosing the variant. 2,000 draws include values under 0x10000000 at every place.
    const a = new Random(7);
    const b = new Random(7);
    for (let i = 0; i < 2_000; i++) {
      const h = b.hex(32);
      const variant = '89ab'.charAt(parseInt(h.charAt(16), 16) & 3);
      expect(a.uuid()).toBe(`${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`);
    }
  });

  it('rewinds to a saved state and draws the same values again', () => {
    const r = new Random(8);
    r.nextUint32();
    const saved = r.state();
    const first = [r.nextUint32(), r.nextUint32()];
    r.rewind(saved);
    expect([r.nextUint32(), r.nextUint32()]).toEqual(first);
    expect(r.state()).not.toEqual(saved);
  });
});
