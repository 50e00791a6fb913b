import { describe, expect, it } from 'vitest';
import { errorCodes, mock, TEST_NOW, stateText as state } from '../helpers.js';
import { ADA } from '../fixture-ids.js';

const tagNames = async (m: ReturnType<typeof mock>, token: string) =>
  (await m.call('GET', '/tags', { token })).body.tags.map((t: any) => t.name) as string[];

describe('per-test apps', () => {
  it('provisions a fresh app seeded from the default fixtures on first use of an unseen test_ token', async () => {
    const m = mock();
    const res = await m.call('GET', `/users/${ADA}`, { token: 'test_alpha' });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe('ada-1');
    expect(res.body.app_id).toBe('test_alpha');
    expect(res.headers.get('x-ratelimit-limit')).toBe('83');
    const health = await m.call('GET', '/__admin/health', { token: null });
    expect(health.body.apps).toEqual(['demo', 'other', 'test_alpha']);
    expect(health.body.provisioned_apps).toBe(1);
  });

  it('keeps provisioned apps apart from each other and from demo, even in parallel', async () => {
    const m = mock();
    await Promise.all([
      m.call('POST', '/tags', { token: 'test_a', body: { name: 'only-in-a' } }),
      m.call('POST', '/tags', { token: 'test_b', body: { name: 'only-in-b' } }),
    ]);
    expect(await tagNames(m, 'test_a')).toContain('only-in-a');
    expect(await tagNames(m, 'test_a')).not.toContain('only-in-b');
    expect(await tagNames(m, 'test_b')).toContain('only-in-b');
    expect(await tagNames(m, 'test_b')).not.toContain('only-in-a');
    expect(await tagNames(m, 'demo-token')).not.toContain('only-in-a');
  });

  it('gives each provisioned app its own rate-limit window', async () => {
    const m = mock();
    for (let i = 0; i < 84; i++) await m.call('GET', '/admins', { token: 'test_busy' });
    expect((await m.call('GET', '/admins', { token: 'test_busy' })).status).toBe(429);
    expect((await m.call('GET', '/admins', { token: 'test_calm' })).status).toBe(200);
  });

  it('keeps other unknown tokens at 401', async () => {
    const res = await mock().call('GET', '/admins', { token: 'prod_abc' });
    expect(res.status).toBe(401);
    expect(errorCodes(res)).toEqual(['unauthorized']);
  });

  it('can be turned off', async () => {
    const m = mock({ testApps: false });
    const res = await m.call('GET', '/admins', { token: 'test_off' });
    expect(res.status).toBe(401);
    expect(m.store.appIds()).toEqual(['demo', 'other']);
  });

  it('evicts the least recently used app past the count limit', async () => {
    const m = mock({ maxTestApps: 2 });
    await m.call('GET', '/admins', { token: 'test_1' });
    await m.call('GET', '/admins', { token: 'test_2' });
    await m.call('GET', '/admins', { token: 'test_1' }); // test_2 is now the least recently used
    await m.call('GET', '/admins', { token: 'test_3' });
    expect(m.store.appIds()).toEqual(['demo', 'other', 'test_1', 'test_3']);
  });

  it('evicts apps idle past the time limit, and a later request starts from the fixtures again', async () => {
    const m = mock({ testAppIdleSeconds: 60 });
    await m.call('POST', '/tags', { token: 'test_idle', body: { name: 'written' } });
    m.clock.set(TEST_NOW + 61);
    await m.call('GET', '/admins', { token: 'test_other' });
    expect(m.store.appIds()).toEqual(['demo', 'other', 'test_other']);
    expect(await tagNames(m, 'test_idle')).not.toContain('written');
  });

  it('can be reset and exported through the control plane by its token', async () => {
    const m = mock();
    await m.call('POST', '/tags', { token: 'test_ctl', body: { name: 'temp' } });
    expect((await m.call('GET', '/__admin/state', { token: 'test_ctl' })).text).toContain('"temp"');
    expect((await m.call('POST', '/__admin/reset', { token: 'test_ctl' })).body).toEqual({ reset: ['test_ctl'] });
    expect(await tagNames(m, 'test_ctl')).not.toContain('temp');
  });
});

describe('snapshots', () => {

  it('round-trips exactly: snapshot, write, restore', async () => {
    const m = mock();
    await m.call('POST', '/tags', { body: { name: 'before-snapshot' } });
    const saved = await state(m);
    const snap = await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'base' } });
    expect(snap.status).toBe(201);
    expect(snap.body).toEqual({ app: 'demo', name: 'base', created_at: TEST_NOW });
    await m.call('POST', '/tags', { body: { name: 'after-snapshot' } });
    await m.call('POST', '/users', { body: { user_id: 'snap-user', email: 'snap@example.com' } });
    expect(await state(m)).not.toBe(saved);
    const restored = await m.call('POST', '/__admin/snapshots/base/restore?app=demo', { token: null });
    expect(restored.status).toBe(200);
    expect(await state(m)).toBe(saved);
    // Restorable again after further writes.
    await m.call('POST', '/tags', { body: { name: 'again' } });
    await m.call('POST', '/__admin/snapshots/base/restore', { token: 'demo-token' });
    expect(await state(m)).toBe(saved);
  });

  it('lists and deletes snapshots', async () => {
    const m = mock();
    await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'one' } });
    await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'two' } });
    expect((await m.call('GET', '/__admin/snapshots?app=demo', { token: null })).body.snapshots.map((s: any) => s.name)).toEqual(['one', 'two']);
    expect((await m.call('DELETE', '/__admin/snapshots/one?app=demo', { token: null })).body).toEqual({ deleted: 'one' });
    expect((await m.call('GET', '/__admin/snapshots?app=demo', { token: null })).body.snapshots.map((s: any) => s.name)).toEqual(['two']);
  });

  it('answers 404 for an unknown snapshot and 400 for a bad name or no app', async () => {
    const m = mock();
    const missing = await m.call('POST', '/__admin/snapshots/nope/restore?app=demo', { token: null });
    expect(missing.status).toBe(404);
    expect(errorCodes(missing)).toEqual(['not_found']);
    const bad = await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'has space' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('name');
    const noApp = await m.call('POST', '/__admin/snapshots', { token: null, body: { name: 'x' } });
    expect(noApp.status).toBe(400);
    expect(errorCodes(noApp)).toEqual(['parameter_not_found']);
  });

  it('keeps snapshots of one app away from another', async () => {
    const m = mock();
    await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'mine' } });
    expect((await m.call('POST', '/__admin/snapshots/mine/restore?app=other', { token: null })).status).toBe(404);
  });
});
