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
