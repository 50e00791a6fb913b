// GET /companies without company_id: the list (C1), by tag or segment (C2), by name (C3); the
// Java client's type=users (C5); the 2.x-only DELETE /companies/{id} (C6) and
// GET /companies/{id}/contacts (C7).

import { describe, expect, it } from 'vitest';
import { mock } from '../../helpers.js';
import { SortedIndex } from '../../../src/engine/sorted-index.js';
import { ALPHA, BETA, BETA_2, catalogMock, catRejected, GAMMA, get, idsOf, SEG_C, TOKEN, U1, U2 } from '../customers/catalog-fixture.js';

type M = Awaited<ReturnType<typeof catalogMock>>;

const companies = async (m: M, query: string) => {
  const res = await get(m, `/companies${query}`);
  expect(res.status).toBe(200);
  expect(res.body.type).toBe('company.list');
  return { ids: idsOf(res.body.companies), total: res.body.total_count as number, pages: res.body.pages };
};

describe('GET /companies (list)', () => {
  it('lists companies with users or leads, by last_request_at newest first, nulls last', async () => {
    const m = await catalogMock();
    const res = await get(m, '/companies');
    expect(res.body).toMatchObject({ type: 'company.list', total_count: 3, pages: { type: 'pages', page: 1, per_page: 50, total_pages: 1 } });
    expect(idsOf(res.body.companies)).toEqual([BETA, ALPHA, BETA_2]);
    expect(res.body.companies[0]).toMatchObject({ type: 'company', company_id: 'b', name: 'Beta', user_count: 2 });
    expect((await companies(m, '?order=asc')).ids).toEqual([BETA_2, ALPHA, BETA]);
  });

  it('pages with an absolute next', async () => {
    const m = await catalogMock();
    const p1 = await companies(m, '?per_page=2');
    expect(p1).toMatchObject({ ids: [BETA, ALPHA], total: 3, pages: { page: 1, per_page: 2, total_pages: 2 } });
    const next = new URL(p1.pages.next);
    expect(Object.fromEntries(next.searchParams)).toEqual({ per_page: '2', page: '2' });
    expect((await companies(m, next.search)).ids).toEqual([BETA_2]);
  });

  it('shows a company once it has a user, and hides it once it has none', async () => {
    const m = await catalogMock();
    await m.call('POST', '/users', { token: TOKEN, body: { user_id: 'u2', companies: [{ company_id: 'g' }] } });
    expect((await companies(m, '')).ids).toEqual([BETA, ALPHA, BETA_2, GAMMA]);
    await m.call('POST', '/users', { token: TOKEN, body: { user_id: 'u1', companies: [{ company_id: 'a', remove: true }] } });
    expect((await companies(m, '')).ids).toEqual([BETA, BETA_2, GAMMA]);
    // A rejected write (an over-long custom attribute) leaves the list as it was.
    await catRejected(m, 'POST', '/users', 400, ['parameter_invalid'], { user_id: 'u2', companies: [{ company_id: 'g', remove: true }], custom_attributes: { x: 'y'.repeat(256) } });
    expect((await companies(m, '')).ids).toEqual([BETA, BETA_2, GAMMA]);
    await m.call('POST', '/__admin/reset?app=cat', { token: null });
    expect((await companies(m, '')).ids).toEqual([BETA, ALPHA, BETA_2]);
  });

  it('filters by tag_id or segment_id, keeping only companies with users', async () => {
    const m = await catalogMock();
    expect((await companies(m, '?tag_id=1')).ids).toEqual([BETA, ALPHA]);
    expect((await companies(m, '?tag_id=1&order=asc')).ids).toEqual([ALPHA, BETA]);
    expect((await companies(m, `?segment_id=${SEG_C}`)).ids).toEqual([BETA]);
    expect(await companies(m, '?tag_id=999')).toMatchObject({ ids: [], total: 0, pages: { total_pages: 0 } });
    await m.call('POST', '/tags', { token: TOKEN, body: { name: 'C', companies: [{ id: ALPHA }] } });
    expect((await companies(m, '?tag_id=3')).ids).toEqual([ALPHA]);
    await catRejected(m, 'GET', `/companies?tag_id=1&segment_id=${SEG_C}`, 400, ['bad_request']);
  });

  it.each(['?order=up', '?per_page=61', '?page=0'])('refuses %s (400 parameter_invalid)', async (query) => {
    const m = await catalogMock();
    await catRejected(m, 'GET', `/companies${query}`, 400, ['parameter_invalid']);
  });
});

describe('GET /companies?name=', () => {
  it('answers the company of that exact name, the most recently updated of several', async () => {
    const m = await catalogMock();
    const res = await get(m, '/companies?name=Alpha');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'company', id: ALPHA, name: 'Alpha' });
    expect((await get(m, '/companies?name=Beta')).body.id).toBe(BETA_2);
    await m.call('POST', '/companies', { token: TOKEN, body: { company_id: 'b', monthly_spend: 1 } });
    expect((await get(m, '/companies?name=Beta')).body.id).toBe(BETA);
  });

  it('follows a rename, and answers 404 company_not_found for a name nobody has', async () => {
    const m = await catalogMock();
    await m.call('POST', '/companies', { token: TOKEN, body: { company_id: 'a', name: 'Delta' } });
    expect((await get(m, '/companies?name=Delta')).body.id).toBe(ALPHA);
    await catRejected(m, 'GET', '/companies?name=Alpha', 404, ['company_not_found']);
    await catRejected(m, 'GET', '/companies?name=alpha', 404, ['company_not_found']);
  });
});

describe('GET /companies?company_id= with type', () => {
  it('treats the Java client\'s type=users like type=user', async () => {
    const m = await catalogMock();
    for (const type of ['user', 'users']) {
      const res = await get(m, `/companies?company_id=b&type=${type}`);
      expect(res.status).toBe(200);
      expect(res.body.type).toBe('user.list');
      expect(idsOf(res.body.users)).toEqual([U1, U2]);
    }
    expect((await get(m, '/companies?company_id=b')).body).toMatchObject({ type: 'company', id: BETA });
  });

  it('refuses another type, and a type without company_id', async () => {
    const m = await catalogMock();
    await catRejected(m, 'GET', '/companies?company_id=b&type=company', 400, ['bad_request']);
    await catRejected(m, 'GET', '/companies?type=user', 400, ['parameter_not_found']);
    await catRejected(m, 'GET', '/companies?company_id=nope', 404, ['company_not_found']);
  });

  it('refuses the list\'s parameters beside company_id or name (400 bad_request naming them)', async () => {
    const m = await catalogMock();
    for (const query of ['company_id=b&tag_id=1', 'company_id=b&type=user&order=asc', `name=Alpha&segment_id=${SEG_C}`]) {
      const res = await catRejected(m, 'GET', `/companies?${query}`, 400, ['bad_request']);
      expect(['tag_id', 'segment_id', 'order']).toContain(res.body.errors[0].field);
    }
  });
});

describe('operations API 1.x does not have', () => {
  it('DELETE /companies/{id} answers the unknown-path 404 and deletes nothing', async () => {
    const m = await catalogMock();
    const res = await catRejected(m, 'DELETE', `/companies/${ALPHA}`, 404, ['not_found']);
    expect(res.body.errors[0].message).toBe('The requested resource does not exist; check your path and try again');
    expect((await get(m, `/companies/${ALPHA}`)).status).toBe(200);
  });

  it('GET /companies/{id}/contacts is a 2.x path: 400 intercom_version_invalid (README "API versions")', async () => {
    const m = await catalogMock();
    const res = await catRejected(m, 'GET', `/companies/${ALPHA}/contacts`, 400, ['intercom_version_invalid']);
    expect(res.body.errors[0].message).toBe('Requested resource is not available in current API version');
  });
});

describe('GET /companies on test apps over one base', () => {
  it("shows each app its own list: one app's new company is not in another's, before or after a reset", async () => {
    const m = mock();
    const list = async (token: string) => (await m.call('GET', '/companies?per_page=60', { token })).body.companies.map((c: { company_id: string }) => c.company_id);
    const base = await list('test_companies_a');
    expect((await m.call('POST', '/users', { token: 'test_companies_b', body: { user_id: 'b-1', companies: [{ company_id: 'only-in-b', name: 'B' }] } })).status).toBe(200);
    expect(await list('test_companies_b')).toEqual(['only-in-b', ...base]);
    expect(await list('test_companies_c')).toEqual(base);
    expect((await m.call('POST', '/__admin/reset?app=test_companies_a', { token: null })).status).toBe(200);
    expect(await list('test_companies_a')).toEqual(base);
    expect(await list('test_companies_b')).toEqual(['only-in-b', ...base]);
  });
});

describe('GET /companies after a snapshot restore', () => {
  it('copies the base\'s list with the companies the snapshot had changed, sorting nothing', async () => {
    const m = mock();
    const list = async () => (await m.call('GET', '/companies?per_page=60')).body.companies.map((c: { company_id: string }) => c.company_id);
    const base = await list();
    expect((await m.call('POST', '/users', { body: { user_id: 'snap-1', companies: [{ company_id: 'in-snapshot', name: 'S' }] } })).status).toBe(200);
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 's' } })).status).toBe(201);
    expect((await m.call('POST', '/__admin/reset?app=demo', { token: null })).status).toBe(200);
    expect(await list()).toEqual(base);
    const builds = SortedIndex.builds;
    expect((await m.call('POST', '/__admin/snapshots/s/restore?app=demo', { token: null })).status).toBe(200);
    expect(await list()).toEqual(['in-snapshot', ...base]);
    expect(SortedIndex.builds).toBe(builds);
  });
});
