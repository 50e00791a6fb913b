import { describe, expect, it } from 'vitest';
import { dataAttributeListSchema } from '../../../src/resources/data-attributes/shapes.js';
import { validate } from '../../../src/schemas/validate.js';
import { errorCodes, mock, TEST_NOW, type TestMock } from '../../helpers.js';

interface Item {
  name: string;
  full_name: string;
  data_type: string;
  custom: boolean;
  archived: boolean;
  [key: string]: unknown;
}

const list = async (m: TestMock, query = '') => {
  const res = await m.call('GET', `/data_attributes/customer${query}`);
  expect(res.status).toBe(200);
  expect(validate(dataAttributeListSchema, res.body)).toEqual([]);
  return res.body.data_attributes as Item[];
};
const named = (items: Item[], name: string) => items.find((a) => a.name === name);

describe('GET /data_attributes/customer', () => {
  it('lists the built-ins first: custom false, no id, admin_id, created_at, updated_at or options', async () => {
    const m = mock();
    const res = await m.call('GET', '/data_attributes/customer');
    expect(res.body.type).toBe('data_attribute.list');
    const items = await list(m);
    const builtIns = items.filter((a) => !a.custom);
    expect(builtIns.map((a) => a.name)).toEqual([
      'name', 'owner_id', 'email', 'phone', 'created_at', 'signed_up_at', 'unsubscribed_from_emails', 'marked_email_as_spam',
      'has_hard_bounced', 'id', 'updated_at', 'app_id', 'user_id', 'image_url', 'last_request_at', 'country_name', 'region_name',
      'city_name', 'postal_code', 'timezone', 'continent_code', 'country_code', 'anonymous', 'pseudonym', 'session_count', 'referrer',
      'utm_campaign', 'utm_content', 'utm_medium', 'utm_source', 'utm_term',
    ]);
    expect(items.slice(0, builtIns.length).every((a) => !a.custom)).toBe(true);
    for (const a of builtIns) {
      for (const key of ['id', 'admin_id', 'created_at', 'updated_at', 'options']) expect(a).not.toHaveProperty(key);
      expect(a.type).toBe('data_attribute');
    }
    expect(named(items, 'image_url')?.full_name).toBe('avatar.image_url');
    expect(named(items, 'city_name')?.full_name).toBe('location_data.city_name');
    expect(named(items, 'session_count')?.data_type).toBe('integer');
    expect(named(items, 'created_at')?.data_type).toBe('date');
  });

  it('lists custom attributes with custom true, full_name custom_attributes.<name>, options and admin_id when set', async () => {
    const m = mock();
    const plan = named(await list(m), 'plan_tier');
    expect(plan).toEqual({
      type: 'data_attribute',
      name: 'plan_tier',
      full_name: 'custom_attributes.plan_tier',
      label: 'Plan tier',
      description: 'Subscription plan',
      data_type: 'string',
      options: ['free', 'pro', 'enterprise'],
      api_writable: true,
      ui_writable: true,
      custom: true,
      archived: false,
      admin_id: '814860',
      created_at: 1732665600,
      updated_at: 1732665600,
    });
  });

  it('leaves archived attributes out unless include_archived=true', async () => {
    const m = mock();
    expect(named(await list(m), 'legacy_score')).toBeUndefined();
    expect(named(await list(m, '?include_archived=false'), 'legacy_score')).toBeUndefined();
    expect(named(await list(m, '?include_archived=true'), 'legacy_score')).toMatchObject({ archived: true, custom: true, data_type: 'float' });
  });

  it('reads include_archived=1 and TRUE as true, with no warning', async () => {
    const m = mock();
    const all = await m.call('GET', '/data_attributes/customer?include_archived=true');
    for (const value of ['1', 'TRUE']) {
      const res = await m.call('GET', `/data_attributes/customer?include_archived=${value}`);
      expect(res.body).toEqual(all.body);
      expect(res.headers.get('x-mock-warning')).toBeNull();
    }
  });

  for (const value of ['yes', '']) {
    it(`reads include_archived=${value || '(empty)'} as false with a warning; strict mode answers 400 parameter_invalid`, async () => {
      const m = mock();
      const lenient = await m.call('GET', `/data_attributes/customer?include_archived=${value}`);
      expect(lenient.body).toEqual((await m.call('GET', '/data_attributes/customer?include_archived=false')).body);
      expect(lenient.headers.get('x-mock-warning')).toMatch(/^coerced_value "include_archived must be true or false/);
      const res = await m.call('GET', `/data_attributes/customer?include_archived=${value}`, { headers: { 'x-mock-strict': 'true' } });
      expect(res.status).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_invalid']);
      expect(res.body.errors[0].field).toBe('include_archived');
    });
  }

  it('registers a custom attribute first written through POST /users with its inferred type', async () => {
    const m = mock();
    await m.call('POST', '/users', { body: { user_id: 'ada-1', custom_attributes: { score: 1.5, visits: 3, trial: true, colour: 'red', renewed_at: 1_700_000_000 } } });
    const items = await list(m);
    const types = Object.fromEntries(['score', 'visits', 'trial', 'colour', 'renewed_at'].map((n) => [n, named(items, n)?.data_type]));
    expect(types).toEqual({ score: 'float', visits: 'integer', trial: 'boolean', colour: 'string', renewed_at: 'date' });
    expect(named(items, 'visits')).toMatchObject({ custom: true, archived: false, full_name: 'custom_attributes.visits', created_at: TEST_NOW });
  });

  it('registers a custom attribute first written through POST /contacts', async () => {
    const m = mock();
    await m.call('POST', '/contacts', { body: { custom_attributes: { lead_source: 'ads' } } });
    expect(named(await list(m), 'lead_source')).toMatchObject({ custom: true, data_type: 'string' });
  });

  it('keeps the declared type of a known attribute and registers nothing on a rejected write', async () => {
    const m = mock();
    const before = (await list(m, '?include_archived=true')).length;
    await m.call('POST', '/users', { body: { user_id: 'ada-1', custom_attributes: { seats: 'many' } } });
    const rejected = await m.call('POST', '/users', { body: { user_id: 'ada-1', custom_attributes: { fresh: 1, 'bad.name': 2 } } });
    expect(rejected.status).toBe(400);
    const items = await list(m, '?include_archived=true');
    expect(items).toHaveLength(before);
    expect(named(items, 'seats')?.data_type).toBe('integer');
  });
});
