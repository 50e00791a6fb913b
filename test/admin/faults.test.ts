import { describe, expect, it } from 'vitest';
import { errorCodes, mock } from '../helpers.js';

const fault = (m: ReturnType<typeof mock>, spec: object, query = '') => m.call('POST', `/__admin/faults${query}`, { token: null, body: spec });

describe('faults', () => {
  it('answers the injected error for the next N matching requests, then expires', async () => {
    const m = mock();
    const added = await fault(m, { error: 'server_error', operation_id: 'listAdmins', count: 2 }, '?app=demo');
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: 1, app: 'demo', hits: 0, count: 2, error: 'server_error' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await m.call('GET', '/admins')).status);
    expect(statuses).toEqual([500, 500, 200]);
    expect((await m.call('GET', '/__admin/faults', { token: null })).body).toEqual({ faults: [] });
  });

  it('puts an injected error in the envelope with the rate-limit headers', async () => {
    const m = mock();
    await fault(m, { error: 'server_error', count: 1 });
    const res = await m.call('GET', '/admins');
    expect(errorCodes(res)).toEqual(['server_error']);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('82');
  });

  it('applies only to the app it names, and a global fault to every app', async () => {
    const m = mock();
    await fault(m, { error: 'server_error' }, '?app=other');
    expect((await m.call('GET', '/admins')).status).toBe(200);
    expect((await m.call('GET', '/admins', { token: 'other-token' })).status).toBe(500);
    await m.call('DELETE', '/__admin/faults', { token: null });
    await fault(m, { error: 'server_error', method: 'GET', path: '/adm*' });
    expect((await m.call('GET', '/admins')).status).toBe(500);
    expect((await m.call('GET', '/admins', { token: 'other-token' })).status).toBe(500);
    expect((await m.call('GET', '/tags')).status).toBe(200);
  });

  it('answers a status given as such, with its most general code, e.g. 503 service_unavailable for retry tests', async () => {
    const m = mock();
    const added = await fault(m, { status: 503, count: 1 });
    expect(added.body).toMatchObject({ status: 503, error: 'service_unavailable' });
    const res = await m.app.request('/admins', { headers: { authorization: 'Bearer demo-token' } });
    expect(res.status).toBe(503);
    const body = (await res.json()) as any;
    expect(body.type).toBe('error.list');
    expect(body.errors[0].code).toBe('service_unavailable');
    expect((await m.call('GET', '/admins')).status).toBe(200);
  });

  it('refuses a status that no code answers, or one that contradicts the error given', async () => {
    const m = mock();
    expect((await fault(m, { status: 418 })).status).toBe(400);
    const clash = await fault(m, { status: 503, error: 'server_error' });
    expect(clash.status).toBe(400);
    expect(clash.body.errors[0].field).toBe('status');
    expect((await m.call('GET', '/__admin/faults', { token: null })).body.faults).toEqual([]);
  });

  it('forces a 429 with Remaining 0', async () => {
    const m = mock();
    await fault(m, { rate_limit: true, count: 1 });
    const res = await m.call('GET', '/admins');
    expect(res.status).toBe(429);
    expect(errorCodes(res)).toEqual(['rate_limit_exceeded']);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await m.call('GET', '/admins')).status).toBe(200);
  });

  it('drops the rate-limit headers, as the real service occasionally does', async () => {
    const m = mock();
    await fault(m, { drop_rate_limit_headers: true, count: 1 });
    const app = m.app;
    const res = await app.request('/admins', { headers: { authorization: 'Bearer demo-token' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect((await m.call('GET', '/admins')).headers.get('x-ratelimit-limit')).toBe('83');
  });

  it('adds latency', async () => {
    const m = mock();
    await fault(m, { latency_ms: 60, count: 1 });
    const t0 = performance.now();
    expect((await m.call('GET', '/admins')).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
  });

  it('applies a fraction of the time, the same requests in the same order for the same seed', async () => {
    const pattern = async () => {
      const m = mock({ seed: 5 });
      await fault(m, { error: 'server_error', fraction: 0.5 });
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await m.call('GET', '/admins')).status);
      return out;
    };
    const [a, b] = [await pattern(), await pattern()];
    expect(a).toEqual(b);
    const failures = a.filter((s) => s === 500).length;
    expect(failures).toBeGreaterThan(8);
    expect(failures).toBeLessThan(32);
  });

  it('lists, deletes one, and rejects a fault with no effect or a bad value', async () => {
    const m = mock();
    await fault(m, { latency_ms: 1 });
    await fault(m, { error: 'not_found' });
    expect((await m.call('GET', '/__admin/faults', { token: null })).body.faults.map((f: any) => f.id)).toEqual([1, 2]);
    expect((await m.call('DELETE', '/__admin/faults/1', { token: null })).body).toEqual({ removed: 1 });
    expect((await m.call('DELETE', '/__admin/faults/1', { token: null })).status).toBe(404);
    const none = await fault(m, { count: 3 });
    expect(none.status).toBe(400);
    expect(errorCodes(none)).toEqual(['parameter_not_found']);
    const bad = await fault(m, { error: 'teapot' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('error');
    expect((await m.call('GET', '/__admin/faults', { token: null })).body.faults.map((f: any) => f.id)).toEqual([2]);
  });
});
