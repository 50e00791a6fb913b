import { describe, expect, it } from 'vitest';
import { MAX_FAULTS_PER_SCOPE } from '../../src/admin/fault-rules.js';
import { errorCodes, mock, TEST_NOW } from '../helpers.js';

const fault = (m: ReturnType<typeof mock>, spec: object, query = '') => m.call('POST', `/__admin/faults${query}`, { token: null, body: spec });
const listed = async (m: ReturnType<typeof mock>, query = '') =>
  ((await m.call('GET', `/__admin/faults${query}`, { token: null })).body as { faults: { id: number }[] }).faults;

describe('fault caps and order across scopes', () => {
  it('holds at most MAX_FAULTS_PER_SCOPE faults per app and as many for every app: past it 409 conflict naming app, nothing added', async () => {
    const m = mock();
    for (let i = 0; i < MAX_FAULTS_PER_SCOPE; i++) expect((await fault(m, { latency_ms: 0, path: `/p${i}` }, '?app=demo')).status).toBe(201);
    const refused = await fault(m, { error: 'server_error' }, '?app=demo');
    expect(refused.status).toBe(409);
    expect(errorCodes(refused)).toEqual(['conflict']);
    expect(refused.body).toMatchObject({ errors: [{ field: 'app' }] });
    expect(await listed(m, '?app=demo')).toHaveLength(MAX_FAULTS_PER_SCOPE);
    expect((await m.call('GET', '/admins')).status).toBe(200);
    // Another app and the global scope have their own room.
    expect((await fault(m, { latency_ms: 0 }, '?app=other')).status).toBe(201);
    for (let i = 0; i < MAX_FAULTS_PER_SCOPE; i++) expect((await fault(m, { latency_ms: 0, path: `/g${i}` })).status).toBe(201);
    expect((await fault(m, { latency_ms: 0 })).status).toBe(409);
    expect(await listed(m)).toHaveLength(2 * MAX_FAULTS_PER_SCOPE + 1);
    // Removing one frees its room.
    const first = (await listed(m, '?app=demo'))[0];
    expect((await m.call('DELETE', `/__admin/faults/${first?.id}?app=demo`, { token: null })).status).toBe(200);
    expect((await fault(m, { latency_ms: 0 }, '?app=demo')).status).toBe(201);
  });

  it("drops an evicted provisioned app's faults: a later app of that token starts without them", async () => {
    const m = mock({ testAppIdleSeconds: 60 });
    expect((await m.call('GET', '/admins', { token: 'test_gone' })).status).toBe(200);
    expect((await fault(m, { error: 'server_error', operation_id: 'listAdmins' }, '?app=test_gone')).status).toBe(201);
    expect((await m.call('GET', '/admins', { token: 'test_gone' })).status).toBe(500);
    m.clock.set(TEST_NOW + 61);
    await m.call('GET', '/admins', { token: 'test_other' });
    expect(m.store.appIds()).not.toContain('test_gone');
    expect(await listed(m)).toEqual([]);
    expect((await m.call('GET', '/admins', { token: 'test_gone' })).status).toBe(200);
  });

  it('applies an app fault and a global one in the order they were added: the first added error wins', async () => {
    const m = mock();
    await fault(m, { error: 'server_error' });
    await fault(m, { error: 'unauthorized' }, '?app=demo');
    await fault(m, { error: 'unauthorized' }, '?app=other');
    expect(errorCodes(await m.call('GET', '/admins'))).toEqual(['server_error']);
    await m.call('DELETE', '/__admin/faults', { token: null });
    await fault(m, { error: 'unauthorized' }, '?app=demo');
    await fault(m, { error: 'server_error' });
    expect(errorCodes(await m.call('GET', '/admins'))).toEqual(['unauthorized']);
    expect(errorCodes(await m.call('GET', '/admins', { token: 'other-token' }))).toEqual(['server_error']);
  });

  it('expires a counted fault of either scope and keeps the others, listing what is left in id order', async () => {
    const m = mock();
    await fault(m, { latency_ms: 0, count: 1 });
    await fault(m, { latency_ms: 0 }, '?app=demo');
    await fault(m, { latency_ms: 0, count: 2 }, '?app=demo');
    await fault(m, { latency_ms: 0 });
    await m.call('GET', '/admins');
    expect((await listed(m)).map((f) => f.id)).toEqual([2, 3, 4]);
    await m.call('GET', '/admins');
    expect((await listed(m)).map((f) => f.id)).toEqual([2, 4]);
    expect((await listed(m, '?app=demo')).map((f) => f.id)).toEqual([2]);
  });
});
