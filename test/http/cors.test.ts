// --cors: browser apps that use the mock as their fake backend get Access-Control-* headers and
// answered preflights; without it the mock answers as the real API does (no CORS at all).

import { describe, expect, it } from 'vitest';
import { ADA } from '../fixture-ids.js';
import { mock } from '../helpers.js';

const ORIGIN = 'http://localhost:5173';
const preflight = (m: ReturnType<typeof mock>, path: string) =>
  m.app.request(path, {
    method: 'OPTIONS',
    headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });

describe('without --cors', () => {
  it('sends no Access-Control header and answers OPTIONS like any method a path does not take', async () => {
    const m = mock();
    const res = await m.call('GET', `/users/${ADA}`, { headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const options = await preflight(m, '/users');
    expect(options.status).toBe(405);
    expect(options.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('with --cors', () => {
  it('answers a preflight with 204, the methods and headers a browser app needs, and the mock\'s own headers', async () => {
    const m = mock({ cors: true });
    const res = await preflight(m, '/users');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type,Accept,X-Admin-Token,Intercom-Version,X-Mock-Strict');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-z]{20}$/);
    expect(res.headers.get('date')).not.toBeNull();
    expect(await res.text()).toBe('');
  });

  it('does not count a preflight against the rate limit nor record it in the journal', async () => {
    const m = mock({ cors: true });
    const first = await m.call('GET', `/users/${ADA}`);
    await preflight(m, `/users/${ADA}`);
    await preflight(m, '/users');
    const second = await m.call('GET', `/users/${ADA}`);
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - 1);
    const journal = await m.call('GET', '/__admin/requests?app=demo', { token: null });
    expect(journal.body.requests.map((r: { method: string }) => r.method)).toEqual(['GET', 'GET']);
  });

  it('lets the browser read answers, errors included, and the headers a client reads', async () => {
    const m = mock({ cors: true });
    const ok = await m.call('GET', `/users/${ADA}`, { headers: { origin: ORIGIN } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-expose-headers')).toBe('X-Request-Id,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset,Allow,Retry-After,X-Mock-Warning');
    for (const [path, token, status] of [['/users/nope', 'demo-token', 404], ['/nope', 'demo-token', 404], [`/users/${ADA}`, null, 401]] as const) {
      const res = await m.call('GET', path, { token, headers: { origin: ORIGIN } });
      expect(res.status, path).toBe(status);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
    }
  });
});

describe('contract warnings under --cors', () => {
  it('a browser may read X-Mock-Warning and send X-Mock-Strict', async () => {
    const m = mock({ cors: true });
    const res = await m.call('GET', `/users/${ADA}?expand=1`, { headers: { origin: ORIGIN } });
    expect(res.headers.get('access-control-expose-headers')?.split(',')).toContain('X-Mock-Warning');
    expect(res.headers.get('x-mock-warning')).toMatch(/^unknown_parameter "/);
    expect((await m.call('GET', `/users/${ADA}?expand=1`, { headers: { origin: ORIGIN, 'x-mock-strict': 'true' } })).status).toBe(400);
  });
});
