// GET /users/{id} and GET /contacts/{id} answer from serialised views while nothing they show has
// changed (src/resources/customers/view-json.ts). Every way a shown value can change must show at once.

import { describe, expect, it } from 'vitest';
import { CUSTOMER_JSON_CACHE_CHARS, CUSTOMER_JSON_CACHE_SIZE, customerJsonCacheUse } from '../../../src/resources/customers/view-json.js';
import { ACME, ADA, LEAD } from '../../fixture-ids.js';
import { mock, type TestMock } from '../../helpers.js';

const getAda = async (m: TestMock, token?: string) => (await m.call('GET', `/users/${ADA}`, token === undefined ? {} : { token })).body;

describe('serialised customer views', () => {
  it('answers the same bytes for repeated reads, and a fresh app the same bytes again', async () => {
    const m = mock();
    const first = (await m.call('GET', `/users/${ADA}`)).text;
    expect((await m.call('GET', `/users/${ADA}`)).text).toBe(first);
    expect((await mock().call('GET', `/users/${ADA}`)).text).toBe(first);
  });

  it('shows a write to the user itself', async () => {
    const m = mock();
    await getAda(m);
    expect((await m.call('POST', '/users', { body: { id: ADA, name: 'Augusta Ada King' } })).status).toBe(200);
    expect((await getAda(m)).name).toBe('Augusta Ada King');
  });

  it('shows a renamed tag, a new tag and an untagging', async () => {
    const m = mock();
    const before = await getAda(m);
    const tag = before.tags.tags[0] as { id: string; name: string };
    expect((await m.call('POST', '/tags', { body: { id: tag.id, name: 'Renamed Tag' } })).status).toBe(200);
    expect((await getAda(m)).tags.tags.map((t: { name: string }) => t.name)).toContain('Renamed Tag');

    expect((await m.call('POST', '/tags', { body: { name: 'Fresh', users: [{ id: ADA }] } })).status).toBe(200);
    expect((await getAda(m)).tags.tags.map((t: { name: string }) => t.name)).toContain('Fresh');

    expect((await m.call('POST', '/tags', { body: { name: 'Renamed Tag', users: [{ id: ADA, untag: true }] } })).status).toBe(200);
    expect((await getAda(m)).tags.tags.map((t: { id: string }) => t.id)).not.toContain(tag.id);
  });

  it('shows a renamed company', async () => {
    const m = mock();
    expect((await getAda(m)).companies.companies).toEqual([expect.objectContaining({ id: ACME, name: 'Acme Corp' })]);
    expect((await m.call('POST', '/companies', { body: { company_id: 'acme', name: 'Acme Holdings' } })).status).toBe(200);
    expect((await getAda(m)).companies.companies).toEqual([expect.objectContaining({ id: ACME, name: 'Acme Holdings' })]);
  });

  it('shows enrichment once its job has run', async () => {
    const m = mock();
    await getAda(m);
    await m.call('POST', '/users', { body: { id: ADA, last_seen_ip: '81.2.69.160' } });
    const before = await getAda(m);
    expect((await m.call('POST', '/__admin/jobs/run', { token: null })).status).toBe(200);
    const after = await getAda(m);
    expect(after.location_data).not.toEqual(before.location_data);
    expect(after.location_data.type).toBe('location_data');
  });

  it('goes back with reset and with a snapshot restore', async () => {
    const m = mock();
    const original = (await m.call('GET', `/users/${ADA}`)).text;
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'before' } })).status).toBe(201);
    await m.call('POST', '/users', { body: { id: ADA, name: 'Changed' } });
    expect((await getAda(m)).name).toBe('Changed');
    expect((await m.call('POST', '/__admin/snapshots/before/restore?app=demo', { token: null })).status).toBe(200);
    expect((await m.call('GET', `/users/${ADA}`)).text).toBe(original);
    await m.call('POST', '/users', { body: { id: ADA, name: 'Changed again' } });
    expect((await m.call('POST', '/__admin/reset', { token: null, body: { app: 'demo' } })).status).toBe(200);
    expect((await m.call('GET', `/users/${ADA}`)).text).toBe(original);
  });

  it('keeps apps that share seeded records apart', async () => {
    const m = mock();
    const a = await getAda(m, 'test_cache_a');
    const b = await getAda(m, 'test_cache_b');
    const demo = await getAda(m);
    expect([a.app_id, b.app_id, demo.app_id]).toEqual(['test_cache_a', 'test_cache_b', 'demo']);
    await m.call('POST', '/companies', { token: 'test_cache_a', body: { company_id: 'acme', name: 'Only In A' } });
    expect((await getAda(m, 'test_cache_a')).companies.companies[0].name).toBe('Only In A');
    expect((await getAda(m, 'test_cache_b')).companies.companies[0].name).toBe('Acme Corp');
    expect((await getAda(m)).companies.companies[0].name).toBe('Acme Corp');
  });

  it('serves leads through GET /contacts/{id} the same way', async () => {
    const m = mock();
    await m.call('GET', `/contacts/${LEAD}`);
    await m.call('POST', '/contacts', { body: { id: LEAD, name: 'Renamed Lead' } });
    expect((await m.call('GET', `/contacts/${LEAD}`)).body.name).toBe('Renamed Lead');
  });

  it(`holds at most ${CUSTOMER_JSON_CACHE_SIZE} views however many customers are read`, async () => {
    const m = mock();
    const seeded = await m.call('POST', '/__admin/seed', {
      token: null,
      body: { app: { id: 'big', tokens: ['big-token'], rate_limit_per_minute: 1_000_000 }, generate: { users: CUSTOMER_JSON_CACHE_SIZE + 200 } },
    });
    expect(seeded.status).toBe(200);
    const ids = (JSON.parse((await m.call('GET', '/__admin/state?app=big', { token: null })).text) as { customers: { id: string }[] }).customers.map((c) => c.id);
    expect(ids.length).toBe(CUSTOMER_JSON_CACHE_SIZE + 200);
    for (const id of ids) expect((await m.call('GET', `/users/${id}`, { token: 'big-token' })).status).toBe(200);
    expect(customerJsonCacheUse().views).toBe(CUSTOMER_JSON_CACHE_SIZE);
    // The oldest views left; reading them again still answers them in full.
    const again = await m.call('GET', `/users/${ids[0]}`, { token: 'big-token' });
    expect(again.body.id).toBe(ids[0]);
  }, 60_000);

  it(`holds at most ${CUSTOMER_JSON_CACHE_CHARS} characters of views, however large each is`, async () => {
    const m = mock();
    const seeded = await m.call('POST', '/__admin/seed', { token: null, body: { app: { id: 'wide', tokens: ['wide-token'], rate_limit_per_minute: 1_000_000 } } });
    expect(seeded.status).toBe(200);
    // 250 attributes of 255 characters: a view of ~70 KB, so the character budget binds long before the count.
    const custom_attributes = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`attribute_${i}`, 'x'.repeat(255)]));
    const ids: string[] = [];
    for (let i = 0; i < 150; i++) {
      const created = await m.call('POST', '/users', { token: 'wide-token', body: { user_id: `wide-${i}`, custom_attributes } });
      expect(created.status).toBe(200);
      ids.push(created.body.id as string);
    }
    let largest = 0;
    for (const id of ids) {
      const read = await m.call('GET', `/users/${id}`, { token: 'wide-token' });
      expect(read.status).toBe(200);
      largest = Math.max(largest, read.text.length);
      expect(customerJsonCacheUse().chars).toBeLessThanOrEqual(CUSTOMER_JSON_CACHE_CHARS);
    }
    expect(largest).toBeGreaterThan(60_000);
    expect(customerJsonCacheUse().views).toBeLessThan(ids.length);
    expect(customerJsonCacheUse().chars).toBeGreaterThan(CUSTOMER_JSON_CACHE_CHARS - largest);
    expect((await m.call('GET', `/users/${ids[0]}`, { token: 'wide-token' })).body.custom_attributes.attribute_249).toBe('x'.repeat(255));
  }, 60_000);
});
