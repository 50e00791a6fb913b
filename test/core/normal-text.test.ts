// The normal form of emails and tag names must be idempotent: a stored value normalised again is
// itself, which is what lets an export seed back unchanged and a lookup by a stored value find it.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { longerThan, normalEmail, normalTagName, tagNameKey } from '../../src/core/normal-text.js';

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.array(fc.constantFrom(' ', '\t', '\u00a0', '\u0130', 'e\u0301', '\u00e9', '\u0958', '\ufb2c', '\u03a3', 'A'), { maxLength: 8 }).map((xs) => xs.join('')),
);

describe('normal text', () => {
  it('is idempotent for emails, tag names and tag keys', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(normalEmail(normalEmail(s))).toBe(normalEmail(s));
        expect(normalTagName(normalTagName(s))).toBe(normalTagName(s));
        expect(tagNameKey(normalTagName(s))).toBe(tagNameKey(s));
        expect(tagNameKey(tagNameKey(s))).toBe(tagNameKey(s));
      }),
      { seed: 0x7e57, numRuns: 500 },
    );
  });

  it('trims, lower-cases emails, composes to NFC and keeps a tag name\'s case and inner blanks', () => {
    expect(normalEmail(' \tCafe\u0301@X.io\n')).toBe('caf\u00e9@x.io');
    expect(normalEmail('\u0130@x.io')).toBe('i\u0307@x.io');
    expect(normalTagName('  Big  Deal\u0301 ')).toBe('Big  Dea\u013a');
    expect(tagNameKey(' MyTag ')).toBe(tagNameKey('mytag'));
  });

  it('counts length in code points, as JSON Schema does', () => {
    expect(longerThan('🙂'.repeat(255), 255)).toBe(false);
    expect(longerThan('🙂'.repeat(256), 255)).toBe(true);
    expect(longerThan('a'.repeat(255), 255)).toBe(false);
    expect(longerThan('a'.repeat(256), 255)).toBe(true);
  });
});

describe('tag name keys', () => {
  it('compare by lower case: names that only upper-case to the same text stay apart', () => {
    expect(tagNameKey('VIP')).toBe(tagNameKey('vip'));
    // ß upper-cases to SS but lower-cases to itself: "Straße" and "STRASSE" are two names.
    expect(tagNameKey('Straße')).not.toBe(tagNameKey('STRASSE'));
  });
});
