import { describe, expect, it } from 'vitest';
import { errorCodes, mock } from '../helpers.js';
import { ADA } from '../fixture-ids.js';

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('authentication', () => {
  it('accepts a Bearer token', async () => {
    const res = await mock().call('GET', '/admins', { headers: { authorization: 'Bearer demo-token' } });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('admin.list');
  });

  it('accepts Basic auth with the token as user name and an empty password, as the official clients send', async () => {
    const res = await mock().call('GET', `/users/${ADA}`, { headers: { authorization: basic('demo-token') } });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe('ada-1');
  });

  it('accepts the auth scheme in any case', async () => {
    const m = mock();
    expect((await m.call('GET', '/admins', { headers: { authorization: 'bearer demo-token' } })).status).toBe(200);
    expect((await m.call('GET', '/admins', { headers: { authorization: `BASIC ${basic('demo-token').slice(6)}` } })).status).toBe(200);
  });

  it('ignores the Basic password', async () => {
    const res = await mock().call('GET', '/admins', { headers: { authorization: basic('demo-token', 'whatever') } });
    expect(res.status).toBe(200);
  });

  it.each([
    ['no Authorization header', null],
    ['an empty header', ''],
    ['Bearer with no token', 'Bearer '],
    ['Basic with an empty user name', basic('')],
  ])('answers 401 token_not_found "Unauthorized" for %s', async (_name, header) => {
    const res = await mock().call('GET', '/admins', { token: null, headers: header === null ? {} : { authorization: header } });
    expect(res.status).toBe(401);
    expect(errorCodes(res)).toEqual(['token_not_found']);
    expect(res.body.errors[0].message).toBe('Unauthorized');
  });

  it.each([
    ['an unknown Bearer token', 'Bearer nope'],
    ['an unknown Basic user', basic('nope')],
    ['an unknown scheme', 'Token demo-token'],
  ])('answers 401 unauthorized "Access Token Invalid" for %s', async (_name, header) => {
    const res = await mock().call('GET', '/admins', { token: null, headers: { authorization: header } });
    expect(res.status).toBe(401);
    expect(errorCodes(res)).toEqual(['unauthorized']);
    expect(res.body.errors[0].message).toBe('Access Token Invalid');
  });

  it('sends no rate-limit headers on a 401', async () => {
    const res = await mock().call('GET', '/admins', { token: 'nope' });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(res.headers.get('x-ratelimit-reset')).toBeNull();
  });
});

describe('tenancy', () => {
  it('shows each token only its own app', async () => {
    const m = mock();
    const demo = await m.call('GET', '/admins');
    const other = await m.call('GET', '/admins', { token: 'other-token' });
    expect(demo.body.admins.map((a: any) => a.name)).toContain('Ciaran Lee');
    expect(other.body.admins.map((a: any) => a.name)).toEqual(['Oona Other', 'Everyone']);
  });

  it('does not find a record of another app by its id', async () => {
    const m = mock();
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(200);
    const res = await m.call('GET', `/users/${ADA}`, { token: 'other-token' });
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['not_found']);
  });
});
