// What --watch does when a fixture file changes (Store.reloadFixture; the file watching itself is
// test/watch.test.ts, a real process): the app goes back to the new seed, and when provisioned test
// apps start from it they go too, the next use of a test token provisioning from the new seed.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixtureFile } from '../../src/fixtures/files.js';
import { mock, type TestMock } from '../helpers.js';
import { ROOT } from '../real.js';

const fixture = (name: string) => loadFixtureFile(join(ROOT, 'fixtures', `${name}.json`)).input;
/** Whether the token's app holds a user of this user_id. */
const holds = async (m: TestMock, token: string, userId: string) => (await m.call('GET', `/users?user_id=${userId}`, { token })).status === 200;

describe('a fixture file changed under --watch', () => {
  it("puts the test apps' app back to its new seed and drops those apps; the next test token starts from the new seed", async () => {
    const m = mock();
    expect((await m.call('POST', '/users', { token: 'test_reload_a', body: { user_id: 'written-before' } })).status).toBe(200);
    expect((await m.call('POST', '/users', { body: { user_id: 'demo-before' } })).status).toBe(200);
    expect(m.store.appIds()).toContain('test_reload_a');
    const demo = fixture('demo');
    const { app, dropped } = await m.store.reloadFixture({ ...demo, customers: [...(demo.customers ?? []), { id: 'u0000000000000000000reload', user_id: 'reloaded' }] });
    expect([app.id, dropped]).toEqual(['demo', 1]);
    expect(m.store.appIds().sort()).toEqual(['demo', 'other']);
    expect(m.store.provisionedCount()).toBe(0);
    expect([await holds(m, 'demo-token', 'reloaded'), await holds(m, 'demo-token', 'demo-before')]).toEqual([true, false]);
    expect([await holds(m, 'test_reload_a', 'reloaded'), await holds(m, 'test_reload_a', 'written-before')]).toEqual([true, false]);
  });

  it('leaves the test apps alone when the file is of another app', async () => {
    const m = mock();
    expect((await m.call('POST', '/users', { token: 'test_reload_b', body: { user_id: 'kept' } })).status).toBe(200);
    expect((await m.call('POST', '/users', { token: 'other-token', body: { user_id: 'other-before' } })).status).toBe(200);
    const { app, dropped } = await m.store.reloadFixture(fixture('other'));
    expect([app.id, dropped]).toEqual(['other', 0]);
    expect(m.store.provisionedCount()).toBe(1);
    expect(await holds(m, 'test_reload_b', 'kept')).toBe(true);
    expect(await holds(m, 'other-token', 'other-before')).toBe(false);
  });
});
