import { describe, expect, it } from 'vitest';
import { ADA } from '../fixture-ids.js';
import { errorCodes, mock, stateText as state } from '../helpers.js';

const count = (m: ReturnType<typeof mock>, what: 'customers' | 'companies') => m.store.app('demo')!.data[what].size;

describe('per-app record limits', () => {
  it('refuses a new customer past the limit with 403 resource_limit_exceeded, writing nothing, not even the new company', async () => {
    const probe = mock();
    const m = mock({ limits: { customers: count(probe, 'customers') } });
    const before = await state(m);
    const res = await m.call('POST', '/users', {
      body: { user_id: 'one-too-many', email: 'many@example.com', companies: [{ company_id: 'brand-new-co', name: 'New' }] },
    });
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect(await state(m)).toBe(before);
    // Updating an existing customer is still fine at the limit.
    expect((await m.call('POST', '/users', { body: { user_id: 'ada-1', name: 'Ada L.' } })).status).toBe(200);
  });

  it('counts leads and visitors against the customer limit', async () => {
    const m = mock({ limits: { customers: count(mock(), 'customers') } });
    const res = await m.call('POST', '/contacts', { body: {} });
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
  });

  it('counts archived users against the customer limit: archiving one frees no room', async () => {
    const m = mock({ limits: { customers: count(mock(), 'customers') } });
    expect((await m.call('DELETE', `/users/${ADA}`)).status).toBe(200);
    const before = await state(m);
    const res = await m.call('POST', '/contacts', { body: {} });
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect(await state(m)).toBe(before);
    // Brought back by POST /users, the archived user takes no new room.
    expect((await m.call('POST', '/users', { body: { user_id: 'ada-1' } })).status).toBe(200);
  });

  it('refuses a new company past the limit', async () => {
    const m = mock({ limits: { companies: count(mock(), 'companies') } });
    const before = await state(m);
    const res = await m.call('POST', '/companies', { body: { company_id: 'one-more', name: 'One more' } });
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect(await state(m)).toBe(before);
    expect((await m.call('POST', '/companies', { body: { company_id: 'acme', name: 'Acme renamed' } })).status).toBe(200);
  });

  it('refuses a new conversation part past the app\'s part limit', async () => {
    const total = [...mock().store.app('demo')!.data.conversations.values()].reduce((n, c) => n + c.parts.length, 0);
    const m = mock({ limits: { parts: total } });
    const res = await m.call('POST', '/conversations/5714dd359a3fd47136000501/reply', {
      body: { type: 'admin', admin_id: '814860', message_type: 'comment', body: '<p>hi</p>' },
    });
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
  });

  it('counts every part a write adds: under a limit one part away, the first reply passes and the second is refused', async () => {
    const total = [...mock().store.app('demo')!.data.conversations.values()].reduce((n, c) => n + c.parts.length, 0);
    const m = mock({ limits: { parts: total + 1 } });
    const reply = () => m.call('POST', '/conversations/5714dd359a3fd47136000501/reply', { body: { type: 'admin', admin_id: '814860', message_type: 'comment', body: '<p>hi</p>' } });
    expect((await reply()).status).toBe(200);
    const second = await reply();
    expect(second.status).toBe(403);
    expect(errorCodes(second)).toEqual(['resource_limit_exceeded']);
  });

  it('frees room again after a reset', async () => {
    const m = mock({ limits: { customers: count(mock(), 'customers') + 1 } });
    expect((await m.call('POST', '/contacts', { body: {} })).status).toBe(200);
    expect((await m.call('POST', '/contacts', { body: {} })).status).toBe(403);
    await m.call('POST', '/__admin/reset', { token: null });
    expect((await m.call('POST', '/contacts', { body: {} })).status).toBe(200);
  });
});

describe('URL length', () => {
  it('answers a URL over 8192 characters with 414 in the envelope, on a route and off one', async () => {
    const m = mock();
    for (const path of [`/users/${'x'.repeat(9000)}`, `/nowhere?q=${'x'.repeat(9000)}`, `/__admin/state?app=${'x'.repeat(9000)}`]) {
      const res = await m.call('GET', path);
      expect(res.status).toBe(414);
      expect(errorCodes(res)).toEqual(['bad_request']);
    }
    expect((await m.call('GET', '/admins')).status).toBe(200);
  });
});

describe('--admin-token', () => {
  it('protects /__admin with 401 in the envelope, and only /__admin', async () => {
    const m = mock({ adminToken: 's3cret' });
    const denied = await m.call('GET', '/__admin/health', { token: null });
    expect(denied.status).toBe(401);
    expect(errorCodes(denied)).toEqual(['unauthorized']);
    expect(denied.body.errors[0].message).toContain('X-Admin-Token');
    const wrong = await m.call('POST', '/__admin/reset', { token: null, headers: { 'x-admin-token': 'nope' } });
    expect(wrong.status).toBe(401);
    expect((await m.call('GET', '/__admin/health', { token: null, headers: { 'x-admin-token': 's3cret' } })).status).toBe(200);
    expect((await m.call('GET', '/admins')).status).toBe(200);
    expect((await m.app.request('/openapi.json')).status).toBe(200);
  });
});

describe('an app seeded past its parts limit', () => {
  it('still takes writes that add no part, and refuses one that adds a part', async () => {
    const total = [...mock().store.app('demo')!.data.conversations.values()].reduce((n, c) => n + c.parts.length, 0);
    const m = mock({ limits: { parts: total - 1 } });
    expect(m.store.app('demo')!.partsTotal).toBe(total);
    const group = '/conversations/5714dd359a3fd47136000501';
    // Marked unread and read again: each a write of the conversation that adds no part.
    expect((await m.call('PUT', group, { body: { read: false } })).status).toBe(200);
    expect((await m.call('PUT', group, { body: { read: true } })).status).toBe(200);
    expect(m.store.app('demo')!.partsTotal).toBe(total);
    expect((await m.call('POST', `${group}/reply`, { body: { type: 'admin', admin_id: '814860', message_type: 'close' } })).status).toBe(403);
    expect((await m.call('POST', '/tags', { body: { name: 'seen', users: [{ user_id: 'ada-1' }] } })).status).toBe(200);
  });
});
