// The character classes behind entity decoding, at their boundaries: which digits a numeric
// reference accepts, where a code point saturates, and which characters a named reference may hold.
import { describe, it, expect } from 'vitest';
import { decodeEntities } from '../../src/core/html-entities.js';

describe('decodeEntities: text without an ampersand', () => {
  it('returns it as it is, even where it reads like a reference', () => {
    expect(decodeEntities('1#65; xamp;')).toBe('1#65; xamp;');
  });
});

describe('decodeEntities: hex digits', () => {
  it('reads 9 and both ends of a-f and A-F as hex digits', () => {
    expect(decodeEntities('&#x39;&#x6a;&#x6f;&#x4A;&#x4f;')).toBe('9joJO');
  });

  it('reads lower-case hex letters', () => {
    expect(decodeEntities('&#xe9;&#x1f600;')).toBe('\u00e9\u{1f600}');
  });

  it('ends a hex reference at the first letter past f or F', () => {
    expect(decodeEntities('&#x41g;')).toBe('Ag;');
    expect(decodeEntities('&#x4G;')).toBe('\u0004G;');
  });
});

describe('decodeEntities: code point saturation', () => {
  it('rejects a reference whose digits continue past U+10FFFF', () => {
    expect(decodeEntities('&#x10FFFF0;')).toBe('\ufffd');
    expect(decodeEntities('&#11141110;')).toBe('\ufffd');
  });
});

describe('decodeEntities: names with digits and capitals', () => {
  it('decodes names holding digits, capitals and a z', () => {
    expect(decodeEntities('&frac12;&sup2;&Eacute;&Agrave;&AElig;&szlig;')).toBe('\u00bd\u00b2\u00c9\u00c0\u00c6\u00df');
  });
});
