// The pager's next link and slices, for what HTTP cannot send: a query member left undefined.

import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/core/pagination.js';

const link = (query: Record<string, unknown>) => ({ origin: 'http://h', path: '/p', query });

describe('paginate', () => {
  it('carries every defined query member into next, repeated ones repeated, and drops undefined ones', () => {
    const { pages } = paginate([1, 2, 3], { page: 1, perPage: 2 }, link({ a: 'x', gone: undefined, many: ['1', '2'], page: 1 }));
    expect(pages.next).toBe('http://h/p?a=x&many=1&many=2&page=2');
  });

  it('puts page last in next, wherever the request had it', () => {
    const { pages } = paginate([1, 2, 3], { page: 1, perPage: 2 }, link({ page: '1', per_page: '2' }));
    expect(pages.next).toBe('http://h/p?per_page=2&page=2');
  });

  it('answers an empty page past the end, and a null next on the last page', () => {
    expect(paginate([1, 2, 3], { page: 3, perPage: 2 }, link({}))).toEqual({ items: [], pages: { type: 'pages', page: 3, per_page: 2, total_pages: 2, next: null } });
    expect(paginate([1, 2, 3], { page: 2, perPage: 2 }, link({})).items).toEqual([3]);
  });
});
