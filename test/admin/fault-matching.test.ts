// Which requests a fault matches, how several combine, and what app-scoped listing and removal
// touch: the selectors one at a time, each with a request it must not match.

import { describe, expect, it } from 'vitest';
import { errorCodes, mock, type TestMock } from '../helpers.js';
import { ADA } from '../fixture-ids.js';

const fault = (m: TestMock, spec: object, query = '') => m.call('POST', `/__admin/faults${query}`, { token: null, body: spec });
const ids = async (m: TestMock, query = '') => (await m.call('GET', `/__admin/faults${query}`, { token: null })).body.faults.map((f: { id: number }) => f.id);

describe('fault selectors', () => {
  it('operation_id matches that operation only', async () => {
    const m = mock();
    await fault(m, { error: 'server_error', operation_id: 'listTags' });
    expect((await m.call('GET', '/admins')).status).toBe(200);
    expect((await m.call('GET', '/tags')).status).toBe(500);
  });

  it('method matches whatever its letter case, and only that method', async () => {
    const m = mock();
    await fault(m, { error: 'server_error', method: 'POST', path: '/tags' });
    expect((await m.call('GET', '/tags')).status).toBe(200);
    expect((await m.call('POST', '/tags', { body: { name: 'x' } })).status).toBe(500);
  });

  it('an exact path matches that path only; a prefix ending in * matches what starts with it', async () => {
    const m = mock();
    await fault(m, { error: 'server_error', path: '/users' });
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(200);
    expect((await m.call('GET', '/users')).status).toBe(500);
    await m.call('DELETE', '/__admin/faults', { token: null });
    await fault(m, { error: 'server_error', path: '/users/*' });
    expect((await m.call('GET', '/users')).status).toBe(200);
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(500);
  });

  it('several matching faults: the first error wins, and a later one still counts its hit', async () => {
    const m = mock();
    await fault(m, { error: 'server_error', count: 1 });
    await fault(m, { error: 'not_found', count: 2 });
    expect(errorCodes(await m.call('GET', `/users/${ADA}`))).toEqual(['server_error']);
    expect(errorCodes(await m.call('GET', `/users/${ADA}`))).toEqual(['not_found']);
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(200);
    expect(await ids(m)).toEqual([]);
  });

  it('counts hits: a fault with count 3 is listed with its hits until it expires', async () => {
    const m = mock();
    await fault(m, { error: 'server_error', count: 3, path: '/tags' });
    await m.call('GET', '/tags');
    await m.call('GET', '/admins');
    expect((await m.call('GET', '/__admin/faults', { token: null })).body.faults[0]).toMatchObject({ hits: 1, count: 3 });
  });
});

describe('app-scoped listing and removal', () => {
  it('lists, deletes and clears only the faults of the app named, leaving global and other apps\' faults', async () => {
    const m = mock();
    await fault(m, { error: 'server_error', path: '/none-1' }, '?app=demo');
    await fault(m, { error: 'server_error', path: '/none-2' }, '?app=other');
    await fault(m, { error: 'server_error', path: '/none-3' });
    expect(await ids(m)).toEqual([1, 2, 3]);
    expect(await ids(m, '?app=demo')).toEqual([1]);
    // Fault 2 is other's: not removable as demo's.
    expect((await m.call('DELETE', '/__admin/faults/2?app=demo', { token: null })).status).toBe(404);
    expect(await ids(m)).toEqual([1, 2, 3]);
    expect((await m.call('DELETE', '/__admin/faults?app=demo', { token: null })).body).toEqual({ removed: 1 });
    expect(await ids(m)).toEqual([2, 3]);
    expect((await m.call('DELETE', '/__admin/faults/2?app=other', { token: null })).body).toEqual({ removed: 1 });
    expect((await m.call('DELETE', '/__admin/faults', { token: null })).body).toEqual({ removed: 1 });
    expect(await ids(m)).toEqual([]);
  });
});
