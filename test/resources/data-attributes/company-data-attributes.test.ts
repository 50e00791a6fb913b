// GET /data_attributes/company (surface D1): the built-in company attributes, then the custom
// company attributes the app's companies carry, registered on first write.

import { beforeEach, describe, expect, it } from 'vitest';
import { dataAttributeListSchema } from '../../../src/resources/data-attributes/shapes.js';
import { validate } from '../../../src/schemas/validate.js';
import { ADA } from '../../fixture-ids.js';
import { expectRejected, mock, stateText, TEST_NOW } from '../../helpers.js';

interface Item {
  name: string;
  full_name: string;
  data_type: string;
  custom: boolean;
  [key: string]: unknown;
}

const m = mock();
beforeEach(async () => {
  await m.call('POST', '/__admin/reset', { token: null });
});

const list = async (query = '', token = 'demo-token') => {
  const res = await m.call('GET', `/data_attributes/company${query}`, { token });
  expect(res.status).toBe(200);
  expect(res.body.type).toBe('data_attribute.list');
  expect(validate(dataAttributeListSchema, res.body)).toEqual([]);
  return res.body.data_attributes as Item[];
};

describe('GET /data_attributes/company', () => {
  it('lists the built-in company attributes, custom false, without id, admin_id, timestamps or options', async () => {
    const items = await list();
    expect(items.map((a) => `${a.full_name}:${a.data_type}`)).toEqual([
      'name:string', 'company_id:string', 'last_request_at:date', 'remote_created_at:date', 'user_count:integer', 'session_count:integer',
      'plan.name:string', 'monthly_spend:float', 'size:integer', 'industry:string', 'website:string', 'id:string', 'created_at:date',
      'updated_at:date', 'plan.id:string',
    ]);
    expect(items[0]).toEqual({
      type: 'data_attribute', name: 'name', full_name: 'name', label: 'Company name', description: 'The name of a company',
      data_type: 'string', api_writable: true, ui_writable: true, custom: false, archived: false,
    });
    expect(items.find((a) => a.full_name === 'plan.name')?.name).toBe('name');
    for (const a of items) for (const key of ['id', 'admin_id', 'created_at', 'updated_at', 'options']) expect(a).not.toHaveProperty(key);
  });

  it('registers a custom company attribute the first time a company carries it, typed from its value, and never in the customer list', async () => {
    await m.call('POST', '/companies', { body: { company_id: 'acme', custom_attributes: { region: 'EMEA', seats: 40, renewal_at: 1_800_000_000 } } });
    await m.call('POST', '/users', { body: { id: ADA, companies: [{ company_id: 'newco', custom_attributes: { churn_risk: 0.25, paying: true } }] } });
    // Written again with another type: the first registration stands.
    await m.call('POST', '/companies', { body: { company_id: 'acme', custom_attributes: { seats: 'forty' } } });
    const custom = (await list()).filter((a) => a.custom);
    expect(custom.map((a) => `${a.full_name}:${a.data_type}`)).toEqual([
      'custom_attributes.region:string', 'custom_attributes.seats:integer', 'custom_attributes.renewal_at:date',
      'custom_attributes.churn_risk:float', 'custom_attributes.paying:boolean',
    ]);
    expect(custom[0]).toMatchObject({ name: 'region', custom: true, archived: false, created_at: TEST_NOW, updated_at: TEST_NOW });
    const customer = (await m.call('GET', '/data_attributes/customer')).body.data_attributes as Item[];
    expect(customer.some((a) => a.name === 'region' || a.name === 'churn_risk')).toBe(false);
  });

  it('registers nothing when the write is refused', async () => {
    const tooLong = 'x'.repeat(256);
    await expectRejected(m, 'POST', '/companies', { body: { company_id: 'acme', custom_attributes: { region: 'EMEA', bad: tooLong } } }, 400, ['parameter_invalid']);
    expect((await list()).some((a) => a.custom)).toBe(false);
  });

  it('is app state: exported as company_data_attributes, seeded back (declared ones with options and archived ones too), forgotten by a reset', async () => {
    await m.call('POST', '/companies', { body: { company_id: 'acme', custom_attributes: { region: 'EMEA' } } });
    const exported = await stateText(m);
    const doc = JSON.parse(exported) as { company_data_attributes: { name: string }[] };
    expect(doc.company_data_attributes.map((a) => a.name)).toEqual(['region']);
    const fresh = mock();
    expect((await fresh.call('POST', '/__admin/seed', { token: null, raw: exported, headers: { 'content-type': 'application/json' } })).status).toBe(200);
    expect(await stateText(fresh)).toBe(exported);
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    expect((await list()).some((a) => a.custom)).toBe(false);

    const seeded = {
      app: { id: 'cda', tokens: ['cda-token'] },
      company_data_attributes: [{ name: 'tier', data_type: 'string', options: ['gold', 'silver'] }, { name: 'legacy', data_type: 'boolean', archived: true }],
      companies: [{ id: 'co1', company_id: 'co-1', custom_attributes: { tier: 'gold', employees_at: 1_700_000_000 } }],
    };
    expect((await m.call('POST', '/__admin/seed', { token: null, body: seeded })).status).toBe(200);
    expect((await list('', 'cda-token')).filter((a) => a.custom).map((a) => [a.name, a.data_type, a.options])).toEqual([
      ['tier', 'string', ['gold', 'silver']],
      ['employees_at', 'date', undefined],
    ]);
    expect((await list('?include_archived=true', 'cda-token')).filter((a) => a.custom).map((a) => a.name)).toEqual(['tier', 'legacy', 'employees_at']);
  });

  it('refuses an include_archived other than true or false under strict mode (otherwise it is false, with a warning)', async () => {
    expect((await m.call('GET', '/data_attributes/company?include_archived=yes')).headers.get('x-mock-warning')).toMatch(/^coerced_value "/);
    await expectRejected(m, 'GET', '/data_attributes/company?include_archived=yes', { headers: { 'x-mock-strict': 'true' } }, 400, ['parameter_invalid']);
  });
});
