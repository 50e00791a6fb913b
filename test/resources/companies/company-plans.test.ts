// How one request's company items combine: attributes merge onto what the company already has,
// several items naming one company_id apply in order, a `remove` item contributes nothing, and
// POST /companies has no `remove` (an unknown member there, ignored).
import { describe, expect, it } from 'vitest';
import { mock, type TestMock } from '../../helpers.js';

const company = async (m: TestMock, companyId: string) => {
  const res = await m.call('GET', `/companies?company_id=${companyId}`);
  expect(res.status).toBe(200);
  return res.body;
};

describe('company plans', () => {
  it('POST /companies merges new custom attributes onto the ones the company has', async () => {
    const m = mock();
    expect((await m.call('POST', '/companies', { body: { company_id: 'hooli', custom_attributes: { tier: 2 } } })).status).toBe(200);
    const res = await m.call('POST', '/companies', { body: { company_id: 'hooli', custom_attributes: { region: 'EU' } } });
    expect(res.status).toBe(200);
    expect(res.body.custom_attributes).toEqual({ tier: 2, region: 'EU' });
    expect((await company(m, 'hooli')).custom_attributes).toEqual({ tier: 2, region: 'EU' });
  });

  it('two items of a user companies naming one new company apply in order to the same company', async () => {
    const m = mock();
    const res = await m.call('POST', '/users', {
      body: {
        user_id: 'two-items',
        companies: [
          { company_id: 'twice', name: 'First', custom_attributes: { tier: 1, region: 'EU' } },
          { company_id: 'twice', custom_attributes: { tier: 2 } },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.companies.companies.map((c: { company_id: string }) => c.company_id)).toEqual(['twice']);
    const after = await company(m, 'twice');
    expect(after).toMatchObject({ name: 'First', custom_attributes: { tier: 2, region: 'EU' } });
  });

  it('a remove item of a company the user is not in adds nothing, not even its attributes to a later item', async () => {
    const m = mock();
    const res = await m.call('POST', '/users', {
      body: {
        user_id: 'remove-then-add',
        companies: [
          { company_id: 'later', remove: true, custom_attributes: { dropped: true } },
          { company_id: 'later', name: 'Later', custom_attributes: { kept: 1 } },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect((await company(m, 'later')).custom_attributes).toEqual({ kept: 1 });
  });

  it('POST /companies ignores a remove member: a new company is created, an existing one updated', async () => {
    const m = mock();
    const created = await m.call('POST', '/companies', { body: { company_id: 'not-removed', name: 'Kept', remove: true } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'company', company_id: 'not-removed', name: 'Kept' });
    const updated = await m.call('POST', '/companies', { body: { company_id: 'not-removed', name: 'Renamed', remove: true } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, name: 'Renamed' });
    expect((await company(m, 'not-removed')).name).toBe('Renamed');
  });
});
