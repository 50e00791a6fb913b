// What a page in the developer's browser can make the mock do (http/origin-guard.ts): a control-plane
// write a browser sends on another page's behalf is refused, no control-plane GET changes state,
// a Host the mock does not answer to is refused (DNS rebinding), and --cors never opens /__admin.
// The same rules against a real browser are in test/browser/drive-by.test.ts.

import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/resources/index.js';
import { errorCodes, mock, stateText, type TestMock } from '../helpers.js';

const ADMIN_WRITES = ROUTES.filter((r) => r.scope === 'admin' && r.method !== 'GET');

/** A user the demo app holds only if nothing reset or reseeded it. */
async function marked(m: TestMock): Promise<void> {
  expect((await m.call('POST', '/users', { body: { user_id: 'still-here' } })).status).toBe(200);
}
const stillMarked = async (m: TestMock) => (await m.call('GET', '/users?user_id=still-here')).status === 200;
const health = async (m: TestMock) => (await m.call('GET', '/__admin/health', { token: null })).body;

describe('control-plane writes a browser sends for another page', () => {
  const foreign: [string, Record<string, string>][] = [
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (another port of localhost)', { 'sec-fetch-site': 'same-site', origin: 'http://localhost:3000' }],
    ['an Origin of another site', { origin: 'http://evil.test' }],
    ['Origin: null (a sandboxed frame, a file)', { origin: 'null' }],
  ];

  it.each(foreign)('%s: every control-plane write is 403 forbidden and changes nothing', async (_what, headers) => {
    const m = mock();
    await marked(m);
    const before = await stateText(m);
    const clock = (await m.call('GET', '/__admin/clock', { token: null })).text;
    for (const route of ADMIN_WRITES) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      const res = await m.call(route.method, `${path}?app=demo`, { token: null, headers, body: {} });
      expect([res.status, errorCodes(res)], `${route.method} ${path}`).toEqual([403, ['forbidden']]);
      expect(res.body.errors[0].message).toContain('--admin-origins');
    }
    expect(await stateText(m)).toBe(before);
    expect((await m.call('GET', '/__admin/clock', { token: null })).text).toBe(clock);
    expect(await stillMarked(m)).toBe(true);
  });

  it.each(['/%5F_admin/reset', '/%5f%5fadmin/reset', '/_%5Fadmin/reset'])('%s (the path percent-encoded, which the router decodes) is refused the same', async (path) => {
    const m = mock({ cors: true });
    await marked(m);
    const res = await m.call('POST', path, { token: null, headers: { origin: 'http://evil.test', 'sec-fetch-site': 'cross-site' }, body: {} });
    expect([res.status, errorCodes(res)]).toEqual([403, ['forbidden']]);
    expect(await stillMarked(m)).toBe(true);
    // Sent as curl would, the same path is the reset: the guard is the route's, not the URL text's.
    expect((await m.call('POST', `${path}?app=demo`, { token: null })).status).toBe(200);
    expect(await stillMarked(m)).toBe(false);
  });

  it('an empty form post (what an auto-submitted <form> sends) does not reset', async () => {
    const m = mock();
    await marked(m);
    const res = await m.call('POST', '/__admin/reset', { token: null, raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.test', 'sec-fetch-site': 'cross-site' } });
    expect(res.status).toBe(403);
    expect(await stillMarked(m)).toBe(true);
  });

  it.each([
    ['no browser headers (curl, a test suite, the library)', {}],
    ['its own origin (the console)', { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' }],
    ['a navigation the user typed', { 'sec-fetch-site': 'none' }],
  ])('%s: served as before', async (_what, headers) => {
    const m = mock();
    await marked(m);
    const res = await m.call('POST', '/__admin/reset?app=demo', { token: null, headers });
    expect(res.status, res.text).toBe(200);
    expect(await stillMarked(m)).toBe(false);
  });

  it('an origin --admin-origins names is served, same-site or cross-site; another is not', async () => {
    const m = mock({ guard: { adminOrigins: ['http://localhost:3000'] } });
    const ok = await m.call('POST', '/__admin/clock?app=demo', { token: null, headers: { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site' }, body: { advance: 5 } });
    expect(ok.status, ok.text).toBe(200);
    const refused = await m.call('POST', '/__admin/clock?app=demo', { token: null, headers: { origin: 'http://localhost:3001', 'sec-fetch-site': 'same-site' }, body: { advance: 5 } });
    expect(refused.status).toBe(403);
  });

  it('reads stay open to a page of its own origin, and a cross-site GET changes nothing it could not already', async () => {
    const m = mock();
    const res = await m.call('GET', '/__admin/state?app=demo', { token: null, headers: { 'sec-fetch-site': 'cross-site', origin: 'http://evil.test' } });
    // The browser, not the mock, keeps the answer from the page: no CORS header lets it read.
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('no control-plane GET changes state', () => {
  const gets = ROUTES.filter((r) => r.scope === 'admin' && r.method === 'GET');

  it('every GET naming an unseen test_ app (by ?app= or its token) answers without creating the app', async () => {
    const m = mock();
    const before = await health(m);
    for (const route of gets) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      for (const [query, token] of [[`?app=test_unseen_${route.operationId}`, null], ['', `test_token_${route.operationId}`]] as const) {
        const res = await m.call('GET', `${path}${query}`, { token });
        expect(res.status, `${route.operationId} ${query} ${res.text.slice(0, 200)}`).toBeLessThan(500);
      }
    }
    expect(await health(m)).toEqual(before);
  });

  it('shows a fresh app as it would be provisioned: its seeded state and an empty journal; the first write then provisions it', async () => {
    const m = mock();
    const preview = await m.call('GET', '/__admin/state?app=test_preview', { token: null });
    expect(preview.status).toBe(200);
    expect(preview.body.app).toMatchObject({ id: 'test_preview', tokens: ['test_preview'] });
    expect(preview.body.customers.length).toBeGreaterThan(0);
    expect((await m.call('GET', '/__admin/requests?app=test_preview', { token: null })).body.requests).toEqual([]);
    expect((await m.call('GET', '/__admin/apps?app=test_preview', { token: null })).body.apps[0]).toMatchObject({ id: 'test_preview', provisioned: true });
    expect((await health(m)).apps).not.toContain('test_preview');
    // A control-plane write (or the token's first API call) provisions it, as before.
    expect((await m.call('POST', '/__admin/clock?app=test_preview', { token: null, body: { advance: 1 } })).status).toBe(200);
    expect((await health(m)).apps).toContain('test_preview');
    expect((await m.call('GET', '/__admin/state?app=test_preview', { token: null })).body.customers).toEqual(preview.body.customers);
  });
});

describe('the Host check (DNS rebinding)', () => {
  const at = (m: TestMock, host: string, path = '/admins', token: string | null = 'demo-token') => m.app.request(`http://${host}${path}`, { headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });

  it.each(['evil.test', 'evil.test:4010', '0.0.0.0:4010', '192.168.1.20', 'localhost.evil.test'])('%s: 421 misdirected_request on the API, the control plane and the docs, before authentication', async (host) => {
    const m = mock();
    for (const path of ['/admins', '/__admin/state?app=demo', '/docs', '/openapi.json']) {
      const res = await at(m, host, path, null);
      expect(res.status, `${host}${path}`).toBe(421);
      const body = (await res.json()) as { errors: { code: string; message: string }[] };
      expect(body.errors[0]?.code).toBe('misdirected_request');
      expect(body.errors[0]?.message).toContain('--allowed-hosts');
    }
    expect((await m.call('GET', '/__admin/requests?app=demo', { token: null })).body.requests).toEqual([]);
  });

  it.each(['localhost', 'localhost:4010', 'localhost.:4010', '127.0.0.1:4010', '127.9.9.9', '[::1]:4010', '[::ffff:127.0.0.1]:4010', 'app.localhost:4010'])('%s: served', async (host) => {
    expect((await at(mock(), host)).status).toBe(200);
  });

  it('answers the listening address, the names --allowed-hosts lists, and everything with any', async () => {
    const named = mock({ guard: { listenHost: '192.168.1.20', allowedHosts: ['mock.internal'] } });
    expect((await at(named, '192.168.1.20:4010')).status).toBe(200);
    expect((await at(named, 'MOCK.internal:4010')).status).toBe(200);
    expect((await at(named, '192.168.1.21:4010')).status).toBe(421);
    expect((await at(mock({ guard: { allowedHosts: 'any' } }), 'evil.test')).status).toBe(200);
  });

  it('listening on every interface, answers any address literal (an address cannot be rebound) but no other name', async () => {
    const m = mock({ guard: { listenHost: '0.0.0.0' } });
    expect((await at(m, '10.1.2.3:4010')).status).toBe(200);
    expect((await at(m, '[fd00::5]:4010')).status).toBe(200);
    expect((await at(m, 'evil.test:4010')).status).toBe(421);
  });
});

describe('--cors and the control plane', () => {
  it('never opens /__admin, however its path is encoded', async () => {
    const m = mock({ cors: true });
    const headers = { origin: 'http://app.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' };
    for (const path of ['/%5F_admin/state?app=demo', '/%5f%5fadmin/state?app=demo']) {
      const read = await m.app.request(`http://localhost${path}`, { headers: { origin: 'http://app.test', accept: 'application/json' } });
      expect(read.status).toBe(200);
      expect(read.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await m.app.request(`http://localhost${path}`, { method: 'OPTIONS', headers });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('opens the API to other origins, never /__admin', async () => {
    const m = mock({ cors: true });
    const headers = { origin: 'http://app.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' };
    const apiPreflight = await m.app.request('http://localhost/users', { method: 'OPTIONS', headers });
    expect(apiPreflight.headers.get('access-control-allow-origin')).toBe('*');
    const adminPreflight = await m.app.request('http://localhost/__admin/reset', { method: 'OPTIONS', headers });
    expect(adminPreflight.headers.get('access-control-allow-origin')).toBeNull();
    const read = await m.call('GET', '/__admin/state?app=demo', { token: null, headers: { origin: 'http://app.test' } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });
});
