// The store's own seams as the control plane and the API see them: which ids a provisioned app
// gets, the idle bound of eviction, which reset rewinds the store's request ids, ids=fresh on a
// re-seed, the defaults a seeded document takes, and what a merge keeps of each list.

import { describe, expect, it } from 'vitest';
import { hashSeed } from '../../src/core/random.js';
import { errorCodes, mock, TEST_NOW, type TestMock } from '../helpers.js';
import { ADA } from '../fixture-ids.js';

const hex = (s: string) => hashSeed(s).toString(16).padStart(8, '0');
const seed = (m: TestMock, doc: unknown, query = '') => m.call('POST', `/__admin/seed${query}`, { token: null, body: doc });
const exported = async (m: TestMock, app = 'demo') => (await m.call('GET', `/__admin/state?app=${app}`, { token: null })).body;
const tiny = (over: Record<string, unknown> = {}) => ({
  app: { id: 'tiny', tokens: ['tiny-token'] },
  admins: [{ id: '1', name: 'Solo', email: 'solo@example.com' }],
  ...over,
});
const anonymousId = async (m: TestMock) => (await m.call('GET', '/admins', { token: null })).headers.get('x-request-id');

describe('provisioned app ids', () => {
  it('takes a token of app-id characters as the id, and names the app after the token', async () => {
    const m = mock();
    const token = `test_${'a'.repeat(59)}`;
    expect((await m.call('GET', `/users/${ADA}`, { token })).body.app_id).toBe(token);
    expect((await exported(m, token)).app.name).toBe(`Test app for ${token}`);
  });

  it('hashes a token with other characters anywhere, or longer than 64, into the id, and cuts the name at 80', async () => {
    const m = mock();
    for (const token of ['test_A.b', 'test_a.B', `test_${'a'.repeat(60)}`]) {
      expect((await m.call('GET', `/users/${ADA}`, { token })).body.app_id).toBe(`test_${hex(token)}`);
    }
    const long = `test_${'x'.repeat(100)}`;
    await m.call('GET', '/admins', { token: long });
    expect((await exported(m, `test_${hex(long)}`)).app.name).toBe(`Test app for ${long.slice(0, 80)}`);
  });

  it('hashes again when the id is taken, leaving the app that holds it alone', async () => {
    const m = mock();
    const taken = `test_${hex('test_X')}`;
    expect((await seed(m, tiny({ app: { id: taken, tokens: ['taken-token'] } }))).status).toBe(200);
    const res = await m.call('GET', `/users/${ADA}`, { token: 'test_X' });
    expect(res.status).toBe(200);
    expect(res.body.app_id).toBe(`test_${hex(taken)}`);
    expect((await m.call('GET', `/users/${ADA}`, { token: 'taken-token' })).status).toBe(404);
    expect((await exported(m, taken)).app.tokens).toEqual(['taken-token']);
  });

  it('keeps an app idle exactly the limit, and evicts it a second later', async () => {
    const m = mock({ testAppIdleSeconds: 60 });
    await m.call('GET', '/admins', { token: 'test_a' });
    m.clock.set(TEST_NOW + 60);
    await m.call('GET', '/admins', { token: 'test_b' });
    expect((await m.call('GET', '/__admin/health', { token: null })).body.apps).toEqual(['demo', 'other', 'test_a', 'test_b']);
    m.clock.set(TEST_NOW + 61);
    await m.call('GET', '/admins', { token: 'test_c' });
    expect((await m.call('GET', '/__admin/health', { token: null })).body.apps).toEqual(['demo', 'other', 'test_b', 'test_c']);
  });
});

describe('request ids of requests that name no app', () => {
  it('start again after a reset of every app with ids=rewind, and only then', async () => {
    const m = mock();
    const first = await anonymousId(m);
    await m.call('POST', '/__admin/reset', { token: null });
    expect(await anonymousId(m)).toBe(first);
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    const afterOne = await anonymousId(m);
    await m.call('POST', '/__admin/reset?ids=fresh', { token: null });
    const afterFresh = await anonymousId(m);
    expect(new Set([first, afterOne, afterFresh]).size).toBe(3);
  });
});

describe('a re-seed of an existing app', () => {
  const generated = async (m: TestMock) => ((await exported(m, 'tiny')).customers as { id: string }[]).map((c) => c.id);
  const created = async (m: TestMock) => (await m.call('POST', '/users', { token: 'tiny-token', body: { user_id: 'new-one' } })).body.id as string;

  it('generates and hands out the same ids again with ids=rewind, and new ones with ids=fresh', async () => {
    const m = mock();
    const doc = tiny({ generate: { users: 2 } });
    expect((await seed(m, doc)).status).toBe(200);
    const first = await generated(m);
    const apiFirst = await created(m);
    expect((await seed(m, doc)).status).toBe(200);
    expect(await generated(m)).toEqual(first);
    expect(await created(m)).toBe(apiFirst);
    expect((await seed(m, doc, '?ids=fresh')).status).toBe(200);
    const fresh = await generated(m);
    expect(fresh).toHaveLength(2);
    expect(fresh.filter((id) => first.includes(id))).toEqual([]);
    const apiFresh = await created(m);
    expect([...first, apiFirst, ...fresh]).not.toContain(apiFresh);
  });

  it('a new app seeded with ids=fresh starts its ids where one seeded with ids=rewind does', async () => {
    const a = mock();
    const b = mock();
    const doc = tiny({ generate: { users: 2 } });
    await seed(a, doc);
    await seed(b, doc, '?ids=fresh');
    expect(await generated(b)).toEqual(await generated(a));
  });
});

describe('app settings a seeded document leaves out', () => {
  it('take the store\'s rate limit and API version; given ones are kept', async () => {
    const m = mock({ rateLimit: 600, apiVersion: '1.2' });
    await seed(m, tiny());
    const plain = await m.call('GET', '/admins', { token: 'tiny-token' });
    expect(plain.headers.get('x-ratelimit-limit')).toBe('100');
    expect((await exported(m, 'tiny')).app).toMatchObject({ rate_limit_per_minute: 600, api_version: '1.2' });
    await seed(m, tiny({ app: { id: 'tiny', tokens: ['tiny-token'], rate_limit_per_minute: 60, api_version: '1.1' } }));
    expect((await m.call('GET', '/admins', { token: 'tiny-token' })).headers.get('x-ratelimit-limit')).toBe('10');
    expect((await exported(m, 'tiny')).app).toMatchObject({ rate_limit_per_minute: 60, api_version: '1.1' });
  });
});

describe('a merge seed', () => {
  it('moves a record between customers and archived_customers when the document names it in the other list', async () => {
    const m = mock();
    const before = await exported(m);
    const ada = (before.customers as { id: string }[]).find((c) => c.id === ADA);
    expect((await seed(m, { app: { id: 'demo', tokens: ['demo-token'] }, archived_customers: [ada] }, '?mode=merge')).status).toBe(200);
    let after = await exported(m);
    expect((after.customers as { id: string }[]).map((c) => c.id)).toEqual((before.customers as { id: string }[]).map((c) => c.id).filter((id) => id !== ADA));
    expect((after.archived_customers as { id: string }[]).map((c) => c.id)).toEqual([ADA]);
    expect((await seed(m, { app: { id: 'demo', tokens: ['demo-token'] }, customers: [ada] }, '?mode=merge')).status).toBe(200);
    after = await exported(m);
    expect(after.archived_customers).toEqual([]);
    expect((after.customers as { id: string }[]).map((c) => c.id)).toContain(ADA);
  });

  it('drops the owners of tokens the merged app no longer has', async () => {
    const m = mock();
    expect((await exported(m)).app.token_owners).toEqual({ 'demo-token': '814860' });
    expect((await seed(m, { app: { id: 'demo', tokens: ['demo-token', 'demo-3'] } }, '?mode=merge')).status).toBe(200);
    expect((await exported(m)).app.token_owners).toEqual({ 'demo-token': '814860' });
    const res = await seed(m, { app: { id: 'demo', tokens: ['demo-2'] } }, '?mode=merge');
    expect(res.status).toBe(200);
    expect((await exported(m)).app.token_owners).toEqual({});
    expect((await m.call('GET', '/admins', { token: 'demo-2' })).status).toBe(200);
    expect((await m.call('GET', '/admins', { token: 'demo-token' })).status).toBe(401);
  });

  it('keeps the current attributes and delete requests beside the document\'s', async () => {
    const m = mock();
    const app = { id: 'tiny', tokens: ['tiny-token'] };
    const attr = (name: string) => ({ name, data_type: 'string' });
    await seed(m, tiny({ data_attributes: [attr('kept')], company_data_attributes: [attr('ckept')], user_delete_requests: 3 }));
    const res = await seed(m, { app, data_attributes: [attr('added')], company_data_attributes: [attr('cadded')] }, '?mode=merge');
    expect(res.status).toBe(200);
    const doc = await exported(m, 'tiny');
    expect((doc.data_attributes as { name: string }[]).map((a) => a.name)).toEqual(['kept', 'added']);
    expect((doc.company_data_attributes as { name: string }[]).map((a) => a.name)).toEqual(['ckept', 'cadded']);
    expect(doc.user_delete_requests).toBe(3);
    await seed(m, { app, user_delete_requests: 5 }, '?mode=merge');
    expect((await exported(m, 'tiny')).user_delete_requests).toBe(5);
  });

  it('refuses a generate past the record limits before expanding it, changing nothing', async () => {
    const m = mock({ limits: { customers: 400 } });
    const res = await seed(m, tiny({ generate: { users: 401 } }));
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect((await m.call('GET', '/__admin/health', { token: null })).body.apps).toEqual(['demo', 'other']);
  });
});
