import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadFixtureDir } from '../src/fixtures/files.js';
import { createStore } from '../src/setup.js';
import { mock } from './helpers.js';

const dirs: string[] = [];
function dirWith(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mock-fixtures-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const app = (id: string, token = `${id}-token`) => ({ id, tokens: [token] });

describe('the default fixtures', () => {
  const doc = async (appId: string) => JSON.parse((await mock().call('GET', `/__admin/state?app=${appId}`, { token: null })).text);

  it('hold two apps with the documented tokens', async () => {
    const m = mock();
    expect(m.store.appIds()).toEqual(['demo', 'other']);
    expect(m.store.appForToken('demo-token')?.id).toBe('demo');
    expect(m.store.appForToken('other-token')?.id).toBe('other');
  });

  it('hold the records the other features need', async () => {
    const d = await doc('demo');
    const types = (t: string) => d.customers.filter((c: any) => c.type === t).length;
    expect(types('user')).toBeGreaterThan(100);
    expect(types('contact')).toBeGreaterThan(10);
    expect(types('visitor')).toBeGreaterThanOrEqual(5);
    expect(d.admins.length).toBeGreaterThanOrEqual(3);
    expect(d.teams.length).toBeGreaterThanOrEqual(2);
    expect(d.companies.length).toBeGreaterThan(20);
    expect(d.tags.length).toBeGreaterThanOrEqual(5);
    expect(d.segments.filter((s: any) => s.person_type === 'company').length).toBeGreaterThanOrEqual(2);
    expect(d.companies.filter((c: any) => c.tags.length > 0).length).toBeGreaterThan(3);
    expect(d.customers.some((c: any) => c.type === 'contact' && c.companies.length > 0)).toBe(true);
    expect(d.data_attributes.some((a: any) => a.archived)).toBe(true);
    expect(d.data_attributes.some((a: any) => Array.isArray(a.options) && a.options.length > 0)).toBe(true);
    expect(Math.max(...d.conversations.map((c: any) => c.parts.length))).toBe(620);
    expect(d.conversations.some((c: any) => c.customers.length >= 2)).toBe(true);
  });
});

describe('loading a fixture directory', () => {
  it('names the file and the member of a schema error', () => {
    const dir = dirWith({ 'a.json': { app: app('a'), customers: [{ id: 'x', email: 5 }] } });
    expect(() => loadFixtureDir(dir)).toThrow(/a\.json: customers\[0\]\.email: must be of type string or null/);
  });

  it('names the file of malformed JSON', () => {
    const dir = dirWith({ 'broken.json': '{"app": ' });
    expect(() => loadFixtureDir(dir)).toThrow(/broken\.json: \(document\): not valid JSON/);
  });

  it('names the file and the member of a broken reference', () => {
    const dir = dirWith({ 'b.json': { app: app('b'), customers: [{ id: 'u', user_id: 'u', tags: ['404'] }] } });
    expect(() => createStore({ fixturesDir: dir })).toThrow(/b\.json: customers\[0\]\.tags\[0\]: unknown tag "404"/);
  });

  it('refuses a token used by two apps', () => {
    const dir = dirWith({ 'a.json': { app: app('a', 'same') }, 'b.json': { app: app('b', 'same') } });
    expect(() => createStore({ fixturesDir: dir })).toThrow(/b\.json: app\.tokens: token "same" already belongs to app "a"/);
  });

  it('refuses case-insensitive duplicate tag names', () => {
    const dir = dirWith({ 'a.json': { app: app('a'), tags: [{ id: '1', name: 'VIP' }, { id: '2', name: 'vip' }] } });
    expect(() => createStore({ fixturesDir: dir })).toThrow(/tags\[1\]\.name/);
  });

  it('refuses a missing directory and an empty one', () => {
    expect(() => loadFixtureDir('/no/such/dir')).toThrow(/cannot read the fixture directory/);
    expect(() => loadFixtureDir(dirWith({}))).toThrow(/no \*\.json fixture files/);
  });

  it('loads a user\'s own set in the same format', async () => {
    const dir = dirWith({ 'mine.json': { app: app('mine'), admins: [{ id: '7', name: 'Me', email: 'me@example.com' }] } });
    const m = mock({ fixturesDir: dir });
    const res = await m.call('GET', '/admins', { token: 'mine-token' });
    expect(res.status).toBe(200);
    expect(res.body.admins).toEqual([
      { type: 'admin', id: '7', name: 'Me', email: 'me@example.com', away_mode_enabled: false, away_mode_reassign: false, team_ids: [] },
    ]);
  });
});
