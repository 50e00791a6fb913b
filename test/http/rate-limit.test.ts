import { describe, expect, it } from 'vitest';
import { errorCodes, mock, TEST_NOW } from '../helpers.js';

const limitHeaders = (h: Headers) => ({
  limit: h.get('x-ratelimit-limit'),
  remaining: h.get('x-ratelimit-remaining'),
  reset: h.get('x-ratelimit-reset'),
});

describe('rate limit', () => {
  it('reports floor(500/6) = 83 per 10-second window, the remaining count and the window end', async () => {
    const res = await mock().call('GET', '/admins');
    expect(limitHeaders(res.headers)).toEqual({ limit: '83', remaining: '82', reset: String(TEST_NOW + 10) });
  });

  it('aligns windows to multiples of 10 seconds of the clock', async () => {
    const m = mock();
    m.clock.set(TEST_NOW + 7);
    const res = await m.call('GET', '/admins');
    expect(res.headers.get('x-ratelimit-reset')).toBe(String(TEST_NOW + 10));
    m.clock.set(TEST_NOW + 10);
    const next = await m.call('GET', '/admins');
    expect(limitHeaders(next.headers)).toEqual({ limit: '83', remaining: '82', reset: String(TEST_NOW + 20) });
  });

  it('lets exactly 83 operations through in a window, then answers 429 with the contract message', async () => {
    const m = mock();
    for (let i = 0; i < 83; i++) expect((await m.call('GET', '/admins')).status).toBe(200);
    const res = await m.call('GET', '/admins');
    expect(res.status).toBe(429);
    expect(errorCodes(res)).toEqual(['rate_limit_exceeded']);
    expect(res.body.errors[0].message).toBe('Exceeded rate limit of 83 in 10_seconds');
    expect(limitHeaders(res.headers)).toEqual({ limit: '83', remaining: '0', reset: String(TEST_NOW + 10) });
  });

  it('restores the full allowance when the window resets, and moves Reset forward by one window', async () => {
    const m = mock();
    for (let i = 0; i < 84; i++) await m.call('GET', '/admins');
    m.clock.advance(10);
    const res = await m.call('GET', '/admins');
    expect(res.status).toBe(200);
    expect(limitHeaders(res.headers)).toEqual({ limit: '83', remaining: '82', reset: String(TEST_NOW + 20) });
  });

  it('counts reads and failed requests alike, and sends the headers on 4xx answers', async () => {
    const m = mock();
    const miss = await m.call('GET', '/users/does-not-exist');
    expect(miss.status).toBe(404);
    expect(miss.headers.get('x-ratelimit-remaining')).toBe('82');
    expect((await m.call('GET', '/admins')).headers.get('x-ratelimit-remaining')).toBe('81');
  });

  it('keeps a separate window per app, with the limit each app sets (other: 120/min → 20)', async () => {
    const m = mock();
    for (let i = 0; i < 84; i++) await m.call('GET', '/admins');
    const other = await m.call('GET', '/admins', { token: 'other-token' });
    expect(other.status).toBe(200);
    expect(limitHeaders(other.headers)).toEqual({ limit: '20', remaining: '19', reset: String(TEST_NOW + 10) });
  });

  it('takes the default limit from the rate-limit option for apps that set none', async () => {
    const m = mock({ rateLimit: 60 });
    expect((await m.call('GET', '/admins')).headers.get('x-ratelimit-limit')).toBe('10');
    expect((await m.call('GET', '/admins', { token: 'other-token' })).headers.get('x-ratelimit-limit')).toBe('20');
  });

  it('lets exactly floor(limit/6) of a simultaneous burst succeed', async () => {
    const m = mock();
    const results = await Promise.all(Array.from({ length: 150 }, () => m.call('GET', '/admins')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(83);
    expect(results.filter((r) => r.status === 429)).toHaveLength(67);
  });

  it('never counts control-plane requests', async () => {
    const m = mock();
    for (let i = 0; i < 100; i++) expect((await m.call('GET', '/__admin/health', { token: null })).status).toBe(200);
    expect((await m.call('GET', '/admins')).headers.get('x-ratelimit-remaining')).toBe('82');
  });

  it('sends no rate-limit headers on control-plane responses', async () => {
    const res = await mock().call('GET', '/__admin/health', { token: null });
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});
