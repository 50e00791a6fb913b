// splitUrl reads origin, path and query out of the canonical URL the adapter hands the pipeline;
// for every canonical URL it must agree with the WHATWG parser it replaces.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitUrl } from '../../src/http/pipeline.js';

const parsed = (href: string) => {
  const url = new URL(href);
  return { origin: url.origin, pathname: url.pathname, search: url.search };
};

describe('splitUrl', () => {
  it.each([
    'http://localhost/users/5714dd359a3fd47136000001',
    'http://127.0.0.1:4010/users?per_page=5&page=2',
    'http://example.com:8080/counts?type=company&count=tag',
    'http://localhost/users?',
    'http://localhost/users?#frag',
    'http://localhost/users#frag',
    'http://localhost/a%20b?x=%2F&y=%E2%9C%93',
    'https://[::1]:8443/visitors?user_id=a?b',
    'http://localhost/',
  ])('agrees with URL on %s', (raw) => {
    const href = new URL(raw).href;
    expect(splitUrl(href)).toEqual(parsed(href));
  });

  it('agrees with URL on any canonical URL', () => {
    const segment = fc.string({ unit: fc.constantFrom(...'abcXYZ019-._~!$&\'()*+,;=:@%/ ?#é✓'.split('')), maxLength: 12 });
    fc.assert(
      fc.property(fc.constantFrom('http://localhost', 'http://127.0.0.1:4010', 'https://mock.example.com'), segment, segment, (origin, path, rest) => {
        const href = new URL(`${origin}/${path}${rest}`).href;
        expect(splitUrl(href)).toEqual(parsed(href));
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});
