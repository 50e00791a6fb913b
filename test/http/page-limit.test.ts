// The real API pages users, leads and companies only to their first 10,000 records; deeper is a
// 400 that points to the scroll (surface U4). Other paged lists have no such limit.

import { describe, expect, it } from 'vitest';
import { ACME } from '../fixture-ids.js';
import { expectRejected, mock } from '../helpers.js';

describe('the 10,000-record paging limit', () => {
  it.each(['/users', '/contacts', '/companies'])('%s: the page that ends at record 10,000 answers, the next is refused', async (path) => {
    const m = mock();
    expect((await m.call('GET', `${path}?per_page=50&page=200`)).status).toBe(200);
    expect((await m.call('GET', `${path}?per_page=60&page=167`)).status).toBe(200);
    for (const query of ['per_page=50&page=201', 'per_page=60&page=168', 'page=99999999999']) {
      const res = await expectRejected(m, 'GET', `${path}?${query}`, {}, 400, ['bad_request']);
      expect(res.body.errors[0]).toEqual({ code: 'bad_request', field: 'page', message: 'page limit reached, please use scroll API' });
    }
  });

  it('does not apply to a company\'s users, which have no scroll', async () => {
    expect((await mock().call('GET', `/companies/${ACME}/users?per_page=50&page=201`)).status).toBe(200);
  });
});

describe('page and per_page where nothing is paged', () => {
  it.each([
    ['/companies?company_id=acme&page=2', 'page', 'page pages a list; company_id answers one company (add type=user with company_id for its users).'],
    ['/companies?name=Acme%20Corp&per_page=5', 'per_page', 'per_page pages a list; name answers one company (add type=user with company_id for its users).'],
    ['/counts?type=user&count=tag&page=2', 'page', 'page pages only type=company&count=tag; this count is not paged.'],
    ['/counts?per_page=10', 'per_page', 'per_page pages only type=company&count=tag; this count is not paged.'],
  ])('%s is refused, not ignored', async (path, field, message) => {
    const res = await expectRejected(mock(), 'GET', path, {}, 400, ['bad_request']);
    expect(res.body.errors[0]).toEqual({ code: 'bad_request', field, message });
  });

  it('still pages what is paged', async () => {
    const m = mock();
    expect((await m.call('GET', '/companies?company_id=acme&type=user&per_page=1')).status).toBe(200);
    expect((await m.call('GET', '/counts?type=company&count=tag&per_page=1&page=2')).status).toBe(200);
  });
});
