// --data-dir: each app's state survives a restart. In-process for the rules (what is saved, what a
// reload gives, what a corrupt directory does), real processes for SIGTERM, kill -9 and exit codes.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDir } from '../src/data-dir/state-files.js';
import { Clock } from '../src/core/clock.js';
import { FixtureError } from '../src/fixtures/fixture-doc.js';
import { mock, stateText, type TestMock } from './helpers.js';
import { BUILT, runCli, waitFor, type Spawned } from './real.js';

const root = mkdtempSync(join(tmpdir(), 'mock-data-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `d${++dirs}`);

function withDataDir(dir: string): { m: TestMock; dataDir: DataDir; loaded: string[] } {
  const m = mock();
  const dataDir = new DataDir(dir, m.store);
  const loaded = dataDir.load();
  m.store.saver = () => dataDir.save();
  return { m, dataDir, loaded };
}

const save = (m: TestMock) => m.call('POST', '/__admin/save', { token: null });
const createUser = (m: TestMock, email: string) => m.call('POST', '/users', { body: { email, user_id: email.split('@')[0] } });

describe('saving and loading in-process', () => {
  it('answers 400 bad_request to POST /__admin/save without --data-dir', async () => {
    const res = await save(mock());
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('bad_request');
    expect(res.body.errors[0].message).toContain('--data-dir');
  });

  it('writes every app first, then only the apps that changed', async () => {
    const dir = freshDir();
    const { m } = withDataDir(dir);
    expect((await save(m)).body).toEqual({ dir, saved: ['demo', 'other'], unchanged: [] });
    expect((await save(m)).body).toEqual({ dir, saved: [], unchanged: ['demo', 'other'] });
    await createUser(m, 'saved@example.com');
    expect((await save(m)).body).toEqual({ dir, saved: ['demo'], unchanged: ['other'] });
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    expect((await save(m)).body.saved).toEqual(['demo']);
    expect(readdirSync(dir).sort()).toEqual(['demo.json', 'other.json']);
  });

  it('gives back exactly the saved state, and ids continue where they stood: no collision, same ids as without the restart', async () => {
    const dir = freshDir();
    const before = withDataDir(dir);
    const created = await createUser(before.m, 'kept@example.com');
    await before.m.call('POST', '/contacts', { body: { name: 'Lead before' } });
    expect((await save(before.m)).status).toBe(200);
    const after = withDataDir(dir);
    expect(after.loaded).toEqual(['demo', 'other']);
    expect(await stateText(after.m)).toBe(await stateText(before.m));
    // The restarted app hands out what the running one would have: the streams were saved too.
    const nextAfter = await after.m.call('POST', '/contacts', { body: { name: 'Lead after' } });
    const nextBefore = await before.m.call('POST', '/contacts', { body: { name: 'Lead after' } });
    expect(nextAfter.body).toEqual(nextBefore.body);
    expect(nextAfter.headers.get('x-request-id')).toBe(nextBefore.headers.get('x-request-id'));
    const found = await after.m.call('GET', '/users?email=kept@example.com');
    expect(found.body.users.map((u: { id: string }) => u.id)).toEqual([created.body.id]);
  });

  it('a reset after a reload returns a fixture app to its fixtures, and a seeded app to its saved state', async () => {
    const dir = freshDir();
    const before = withDataDir(dir);
    await createUser(before.m, 'gone@example.com');
    const seeded = await before.m.call('POST', '/__admin/seed', { token: null, body: { app: { id: 'extra', tokens: ['extra-token'] }, tags: [{ id: '1', name: 'Seeded' }] } });
    expect(seeded.status).toBe(200);
    await before.m.call('POST', '/tags', { token: 'extra-token', body: { name: 'Added later' } });
    await save(before.m);
    const after = withDataDir(dir);
    expect(after.loaded).toEqual(['demo', 'extra', 'other']);
    const tags = async () => (await after.m.call('GET', '/tags', { token: 'extra-token' })).body.tags.map((t: { name: string }) => t.name).sort();
    expect(await tags()).toEqual(['Added later', 'Seeded']);
    await after.m.call('POST', '/__admin/reset', { token: null });
    expect(await tags()).toEqual(['Added later', 'Seeded']);
    expect(await stateText(after.m)).toBe(await stateText(mock()));
  });

  it('a reset after a reload rewinds a fixture app\'s streams to the fixtures\' start, and a seeded app\'s to where the saved state left them', async () => {
    const dir = freshDir();
    const before = withDataDir(dir);
    await before.m.call('POST', '/__admin/seed', { token: null, body: { app: { id: 'extra', tokens: ['extra-token'] } } });
    for (const token of ['demo-token', 'extra-token']) await before.m.call('POST', '/contacts', { token, body: { name: 'Before the restart' } });
    await save(before.m);
    const after = withDataDir(dir);
    const lead = async (m: TestMock, token: string) => {
      const res = await m.call('POST', '/contacts', { token, body: { name: 'After' } });
      return { id: res.body.id, user_id: res.body.user_id, request: res.headers.get('x-request-id') };
    };
    const firstExtra = await lead(after.m, 'extra-token');
    await after.m.call('POST', '/__admin/reset', { token: null });
    expect(await lead(after.m, 'extra-token')).toEqual(firstExtra);
    const fresh = mock();
    await fresh.call('POST', '/__admin/reset', { token: null });
    expect(await lead(after.m, 'demo-token')).toEqual(await lead(fresh, 'demo-token'));
  });

  it('does not save provisioned test apps', async () => {
    const dir = freshDir();
    const { m } = withDataDir(dir);
    expect((await m.call('GET', '/admins', { token: 'test_ephemeral' })).status).toBe(200);
    expect((await save(m)).body.saved).toEqual(['demo', 'other']);
  });

  it('refuses a directory holding a file it did not write, and leaves that file as it was', () => {
    const cases: [string, string, RegExp][] = [
      ['demo.json', '{"users": [', /demo\.json: \(document\): not valid JSON/],
      ['demo.json', '{"app": {"id": "demo"}}', /demo\.json: format: not a state file of this mock/],
      ['demo.json', '{"format": "messaging-api-mock/app-state", "version": 9}', /demo\.json: version: state file version 9 is not 1/],
      ['notes.txt', 'hello', /notes\.txt: \(document\): not a state file of this mock/],
      ['demo.json', '{"format": "messaging-api-mock/app-state", "version": 1, "app": "demo", "saved_at": 0, "streams": {}, "state": {}}', /demo\.json: \(document\): a state file needs app, streams and state/],
    ];
    for (const [name, text, message] of cases) {
      const dir = freshDir();
      mkdirSync(dir);
      writeFileSync(join(dir, name), text);
      expect(() => new DataDir(dir, mock().store).load()).toThrow(FixtureError);
      expect(() => new DataDir(dir, mock().store).load()).toThrow(message);
      expect(readFileSync(join(dir, name), 'utf8')).toBe(text);
    }
  });

  it('refuses a state whose records are invalid, naming the member', async () => {
    const dir = freshDir();
    const { m } = withDataDir(dir);
    await save(m);
    const file = JSON.parse(readFileSync(join(dir, 'demo.json'), 'utf8'));
    file.state.customers[0].email = 42;
    writeFileSync(join(dir, 'demo.json'), JSON.stringify(file));
    expect(() => new DataDir(dir, mock().store).load()).toThrow(/demo\.json: state\.customers\[0\]\.email: must be of type string or null/);
  });

  it('lists in the same order after a restart, under a frozen clock earlier than the fixtures too', async () => {
    const dir = freshDir();
    // Records made at 2023-11-14 sit after fixtures of 2025: by creation, not by created_at.
    const early = () => ({ clock: new Clock({ start: 1_700_000_000, frozen: true }) });
    const before = mock(early());
    const saving = new DataDir(dir, before.store);
    saving.load();
    before.store.saver = () => saving.save();
    for (const id of ['early-1', 'early-2']) expect((await before.call('POST', '/users', { body: { user_id: id } })).status).toBe(200);
    expect((await before.call('POST', '/contacts', { body: { email: 'early@example.com' } })).status).toBe(200);
    const lists = async (m: TestMock) => {
      const out: string[][] = [];
      for (const [path, key] of [['/users', 'users'], ['/contacts', 'contacts'], ['/users?sort=created_at&order=asc', 'users']] as const) {
        const ids: string[] = [];
        for (let page = 1; ; page++) {
          const items = (await m.call('GET', `${path}${path.includes('?') ? '&' : '?'}per_page=60&page=${page}`)).body[key] as { id: string }[];
          if (items.length === 0) break;
          ids.push(...items.map((c) => c.id));
        }
        out.push(ids);
      }
      return out;
    };
    const listed = await lists(before);
    expect(listed[0]?.slice(-2)).toHaveLength(2);
    expect((await save(before)).status).toBe(200);
    const after = mock(early());
    new DataDir(dir, after.store).load();
    expect(await lists(after)).toEqual(listed);
  });

  it('serves other apps while a big app is saved: a request made once the file is begun is answered before the save', async () => {
    const dir = freshDir();
    const { m } = withDataDir(dir);
    const seeded = await m.call('POST', '/__admin/seed', { token: null, body: { app: { id: 'big', tokens: ['big-token'] }, generate: { users: 3000 } } });
    expect(seeded.status, seeded.text.slice(0, 200)).toBe(200);
    const order: string[] = [];
    const saving = m.call('POST', '/__admin/save', { token: null }).then((res) => order.push(`save ${res.status}`));
    // The save has written its first piece of big.json: the file is begun, not whole.
    await waitFor(() => (readdirSync(dir).some((f) => /^big\.json\.\d+\.tmp$/.test(f)) || order.length > 0 ? true : undefined));
    expect(order).toEqual([]);
    await m.call('GET', '/admins').then((res) => order.push(`other ${res.status}`));
    await saving;
    expect(order).toEqual(['other 200', 'save 200']);
    expect(JSON.parse(readFileSync(join(dir, 'big.json'), 'utf8')).state.customers.length).toBeGreaterThanOrEqual(3000);
  });

  it('exports a big app in pieces, each made in a turn of its own', async () => {
    const m = mock();
    expect((await m.call('POST', '/__admin/seed', { token: null, body: { app: { id: 'big', tokens: ['big-token'] }, generate: { users: 3000 } } })).status).toBe(200);
    const res = await m.app.request('/__admin/state?app=big', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.length).toBeGreaterThan(4);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(JSON.parse(text).customers.length).toBeGreaterThanOrEqual(3000);
  });

  it('drops what a crash left between writing and renaming, and ignores hidden files', async () => {
    const dir = freshDir();
    const { m } = withDataDir(dir);
    await save(m);
    writeFileSync(join(dir, 'demo.json.4242.tmp'), '{"half": ');
    writeFileSync(join(dir, '.DS_Store'), 'x');
    expect(withDataDir(dir).loaded).toEqual(['demo', 'other']);
    expect(existsSync(join(dir, 'demo.json.4242.tmp'))).toBe(false);
  });
});

// Skipped under `npm run mutate`: the built server it spawns holds no mutant (vitest.mutate.config.ts).
describe.skipIf(process.env.MUTATION_RUN === '1')('surviving a restart (real processes)', () => {
  const auth = { authorization: 'Bearer demo-token', accept: 'application/json', 'content-type': 'application/json' };
  async function start(dir: string, extra: string[] = []): Promise<{ cli: Spawned; url: string }> {
    const ready = join(dir, '..', `${dir.split('/').at(-1)}-ready-${Math.random().toString(36).slice(2)}.json`);
    const cli = runCli(['--port', '0', '--data-dir', dir, '--ready-file', ready, '--now', '1700000000', ...extra], BUILT);
    const url = await waitFor(() => (existsSync(ready) ? (JSON.parse(readFileSync(ready, 'utf8')) as { url: string }).url : cli.child.exitCode !== null ? 'exited' : undefined));
    return { cli, url };
  }
  /** Every user's email, all pages (records made in the session list after the seeded ones). */
  const emails = async (url: string) => {
    const out: string[] = [];
    for (let page = 1; ; page++) {
      const users = ((await (await fetch(`${url}/users?per_page=60&page=${page}`, { headers: auth })).json()) as { users: { email: string }[] }).users;
      if (users.length === 0) return out;
      out.push(...users.map((u) => u.email));
    }
  };

  it('writes on SIGTERM and reads it back on the next start', async () => {
    const dir = freshDir();
    const first = await start(dir);
    expect((await fetch(`${first.url}/users`, { method: 'POST', headers: auth, body: JSON.stringify({ email: 'restart@example.com' }) })).status).toBe(200);
    first.cli.child.kill('SIGTERM');
    expect(await first.cli.exited).toBe(0);
    const second = await start(dir);
    expect(await emails(second.url)).toContain('restart@example.com');
    second.cli.child.kill('SIGTERM');
    expect(await second.cli.exited).toBe(0);
  }, 60_000);

  it('keeps what an autosave wrote when killed with SIGKILL', async () => {
    const dir = freshDir();
    const first = await start(dir, ['--autosave', '1']);
    expect((await fetch(`${first.url}/users`, { method: 'POST', headers: auth, body: JSON.stringify({ email: 'autosaved@example.com' }) })).status).toBe(200);
    await waitFor(() => (existsSync(join(dir, 'demo.json')) && readFileSync(join(dir, 'demo.json'), 'utf8').includes('autosaved@example.com') ? true : undefined));
    first.cli.child.kill('SIGKILL');
    await first.cli.exited;
    const second = await start(dir);
    expect(await emails(second.url)).toContain('autosaved@example.com');
    second.cli.child.kill('SIGTERM');
    await second.cli.exited;
  }, 60_000);

  it('stops with exit 2 and one line on a corrupt state file, without touching it', async () => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(join(dir, 'demo.json'), '{"torn');
    const cli = runCli(['--port', '0', '--data-dir', dir], BUILT);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toMatch(/^messaging-api-mock: .*demo\.json: \(document\): not valid JSON .*the file was left as it is\n$/);
    expect(readFileSync(join(dir, 'demo.json'), 'utf8')).toBe('{"torn');
  }, 30_000);

  it('holds a lock: a second process on the directory exits 2 with one line naming the first, which keeps serving', async () => {
    const dir = freshDir();
    const first = await start(dir);
    expect((await fetch(`${first.url}/users`, { method: 'POST', headers: auth, body: JSON.stringify({ email: 'locked@example.com' }) })).status).toBe(200);
    const second = runCli(['--port', '0', '--data-dir', dir], BUILT);
    expect(await second.exited).toBe(2);
    expect(second.output().stderr).toBe(`messaging-api-mock: --data-dir ${dir} is in use by process ${first.cli.child.pid} on ${hostname()} (lock ${join(dir, '.lock')}): stop it, or give each process its own directory\n`);
    first.cli.child.kill('SIGTERM');
    expect(await first.cli.exited).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['demo.json', 'other.json']);
    const third = await start(dir);
    expect(await emails(third.url)).toContain('locked@example.com');
    third.cli.child.kill('SIGTERM');
    expect(await third.cli.exited).toBe(0);
  }, 60_000);

  it('takes over at once the lock of a process of this host that is gone, saying so', async () => {
    const dir = freshDir();
    const first = await start(dir);
    first.cli.child.kill('SIGKILL');
    await first.cli.exited;
    const second = await start(dir);
    expect(second.cli.output().stderr).toContain(`--data-dir ${dir}: took over the lock of process ${first.cli.child.pid}, which is gone`);
    second.cli.child.kill('SIGTERM');
    expect(await second.cli.exited).toBe(0);
  }, 60_000);

  it('a lock of another host (a container sharing the directory) holds while refreshed and is taken over once stale', async () => {
    const dir = freshDir();
    mkdirSync(join(dir, '.lock'), { recursive: true });
    writeFileSync(join(dir, '.lock-owner.json'), '{"pid":1,"host":"other-host"}');
    const held = runCli(['--port', '0', '--data-dir', dir], BUILT);
    expect(await held.exited).toBe(2);
    expect(held.output().stderr).toContain(`--data-dir ${dir} is in use by process 1 on other-host`);
    const minuteAgo = (Date.now() - 60_000) / 1000;
    utimesSync(join(dir, '.lock'), minuteAgo, minuteAgo);
    const taken = await start(dir);
    expect(taken.cli.output().stderr).toMatch(/took over a stale lock \(not refreshed for 6\d s: its process is gone\)/);
    taken.cli.child.kill('SIGTERM');
    expect(await taken.cli.exited).toBe(0);
  }, 60_000);

  it('stops with exit 2 at start, not at shutdown, when the directory cannot be written', async () => {
    const file = freshDir();
    writeFileSync(file, 'a file, not a directory');
    const cli = runCli(['--port', '0', '--data-dir', file], BUILT);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toBe(`messaging-api-mock: --data-dir ${file}: cannot write in the directory (ENOTDIR); give one this user can create and write\n`);
  }, 30_000);

  it('makes missing parents, and stops with exit 2 and one line where a directory cannot be made', async () => {
    const nested = join(freshDir(), 'a', 'b');
    const { m, loaded } = withDataDir(nested);
    expect(loaded).toEqual([]);
    expect((await save(m)).status).toBe(200);
    expect(readdirSync(nested).sort()).toEqual(['demo.json', 'other.json']);
    const file = join(freshDir());
    writeFileSync(file, 'not a directory');
    // Under a file; and in /proc, which refuses children of a directory that exists (Node's own
    // recursive mkdir retried that for ever).
    for (const [dir, code] of [[join(file, 'x'), 'ENOTDIR'], ['/proc/mock-data-dir', 'ENOENT']] as const) {
      const cli = runCli(['--port', '0', '--data-dir', dir], BUILT);
      expect(await cli.exited).toBe(2);
      expect(cli.output().stderr).toBe(`messaging-api-mock: --data-dir ${dir}: cannot create the directory (${code}); give one this user can create and write\n`);
      expect(cli.output().stdout).toBe('');
    }
  }, 30_000);
});
