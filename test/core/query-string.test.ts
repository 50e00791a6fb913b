// The query as the API reads it: one value per name, the first of a repeated name winning.

import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/core/query-string.js';

describe('parseQuery', () => {
  it('keeps the first value of a repeated name and every other name once', () => {
    expect(parseQuery('?a=1&b=x&a=2&a=3')).toEqual({ a: '1', b: 'x' });
  });

  it('reads a name without a value as empty, and percent and plus escapes as their characters', () => {
    expect(parseQuery('?flag&q=a%20b+c')).toEqual({ flag: '', q: 'a b c' });
  });

  it('gives an empty object for no query, a lone question mark, or a query of separators', () => {
    for (const search of ['', '?', '?&&']) expect(parseQuery(search)).toEqual({});
  });

  it('makes a __proto__ parameter an own member, never the prototype', () => {
    const q = parseQuery('?__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(q)).toBe(Object.prototype);
    expect(Object.keys(q)).toEqual(['__proto__', 'constructor']);
    expect(q.constructor).toBe('y');
  });
});
