// Custom attributes nobody declared: registered from the first value seen, whether a seeded
// customer carries them or an API write sends them, each once, after the declared ones.

import { describe, expect, it } from 'vitest';
import { REFERENCE_TIME } from '../../../src/fixtures/normalize.js';
import { mock, TEST_NOW, type TestMock } from '../../helpers.js';

interface Item { name: string; custom: boolean; [key: string]: unknown }

const customs = async (m: TestMock, token = 'demo-token') =>
  ((await m.call('GET', '/data_attributes/customer', { token })).body.data_attributes as Item[]).filter((a) => a.custom);

const undeclared = (name: string, dataType: string, at: number) => ({
  type: 'data_attribute',
  name,
  full_name: `custom_attributes.${name}`,
  label: name,
  description: '',
  data_type: dataType,
  api_writable: true,
  ui_writable: true,
  custom: true,
  archived: false,
  created_at: at,
  updated_at: at,
});

describe('custom attributes carried by seeded customers', () => {
  it('are listed once each, in first-seen order after the declared ones, typed from the first value', async () => {
    const m = mock();
    const doc = {
      app: { id: 'tiny', tokens: ['tiny-token'] },
      data_attributes: [{ name: 'plan', label: 'Plan', description: 'Declared', data_type: 'string' }],
      customers: [
        { id: 'u0000000000000000000000a', user_id: 'u-a', custom_attributes: { plan: 'pro', shoe_size: 42, vip: true } },
        { id: 'u0000000000000000000000b', user_id: 'u-b', custom_attributes: { vip: 'no', ratio: 0.5, plan: 'free' } },
      ],
    };
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    const items = await customs(m, 'tiny-token');
    expect(items.map((a) => a.name)).toEqual(['plan', 'shoe_size', 'vip', 'ratio']);
    expect(items[0]).toMatchObject({ description: 'Declared', label: 'Plan' });
    expect(items[1]).toEqual(undeclared('shoe_size', 'integer', REFERENCE_TIME));
    expect(items[2]).toEqual(undeclared('vip', 'boolean', REFERENCE_TIME));
    expect(items[3]).toEqual(undeclared('ratio', 'float', REFERENCE_TIME));
  });
});

describe('custom attributes sent by an API write', () => {
  it('are registered at the time of the write, writable through the API and the UI', async () => {
    const m = mock();
    const before = await customs(m);
    const res = await m.call('POST', '/users', { body: { user_id: 'ada-1', custom_attributes: { favourite_colour: 'teal', renewed_at: 1 } } });
    expect(res.status).toBe(200);
    const after = await customs(m);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length)).toEqual([undeclared('favourite_colour', 'string', TEST_NOW), undeclared('renewed_at', 'date', TEST_NOW)]);
  });
});

describe('custom attribute names no customer holds any more', () => {
  it('leave the list when undeclared, and stay when the fixture declared them', async () => {
    const m = mock();
    const names = async () => ((await m.call('GET', '/data_attributes/customer?include_archived=true')).body.data_attributes as Item[]).filter((a) => a.custom).map((a) => a.name);
    // legacy_score is declared (and archived) and held by no one; one_off and shared_off are not declared.
    const ids: string[] = [];
    for (const [userId, attributes] of [['declared-one', { legacy_score: 3 }], ['one-off', { one_off: 1, shared_off: 1 }], ['keeps-shared', { shared_off: 2 }]] as const) {
      const created = await m.call('POST', '/users', { body: { user_id: userId, custom_attributes: attributes } });
      expect(created.status).toBe(200);
      ids.push(created.body.id as string);
    }
    expect(await names()).toEqual(expect.arrayContaining(['legacy_score', 'one_off']));
    for (const id of ids.slice(0, 2)) expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: id } })).status).toBe(200);
    const after = await names();
    expect(after).toContain('legacy_score');
    expect(after).not.toContain('one_off');
    // Still held by another customer: it stays.
    expect(after).toContain('shared_off');
  });
});
