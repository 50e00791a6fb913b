// `messaging-api-mock import` end to end, with a second mock as the workspace: what the command
// reads from instance A through the v1 API and writes as a fixture file, instance B loads with
// --fixtures, and B answers the same records, counts and ids through the API as A (its own token,
// which is never A's). --anonymize is keyed and repeatable; the rate limit is obeyed; an
// interrupted import resumes; bad usage is one line.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { ImportError, Upstream } from '../src/import/upstream.js';
import { toFixture } from '../src/import/to-fixture.js';
import { parseFixture } from '../src/fixtures/validate.js';
import { Store } from '../src/state/store.js';
import { Clock } from '../src/core/clock.js';
import { startMockServer } from '../src/testing.js';
import { BUILT, listeningUrl, runCli, spawnLogged, type Spawned } from './real.js';

const root = mkdtempSync(join(tmpdir(), 'mock-import-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function importCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = spawnLogged(process.execPath, [...BUILT, 'import', ...args], { ...process.env, ...env });
  return cli.exited.then((code) => ({ code, ...cli.output() }));
}

async function getJson(url: string, token: string): Promise<any> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'intercom-version': '1.4' } });
  expect(res.status, url).toBe(200);
  return res.json();
}

/** Every page of a list, as the API pages it. */
async function all(base: string, token: string, path: string, key: string): Promise<any[]> {
  const out: any[] = [];
  for (let next: string | null = `${base}${path}`; next; ) {
    const body = await getJson(next, token);
    out.push(...body[key]);
    next = body.pages?.next ?? null;
  }
  return out;
}

/** The answer without what names the app itself. */
const withoutApp = (x: any): any => JSON.parse(JSON.stringify(x, (k, v) => (k === 'app_id' ? undefined : v)));

describe.skipIf(process.env.MUTATION_RUN === '1')('import', () => {
  let a: Spawned;
  let urlA = '';
  beforeAll(async () => {
    // The workspace: the default fixtures, a real clock (its rate-limit windows turn) and a note
    // and an event written through the API, so the per-person lists have something recent.
    a = runCli(['--port', '0', '--rate-limit', '100000'], BUILT);
    urlA = await listeningUrl(a);
    const post = (path: string, body: unknown) => fetch(`${urlA}${path}`, { method: 'POST', headers: { authorization: 'Bearer demo-token', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/events', { event_name: 'imported-event', user_id: 'ada-1', created_at: Math.floor(Date.now() / 1000) - 60, metadata: { plan: 'pro' } })).status).toBe(202);
    expect((await post('/notes', { user: { user_id: 'ada-1' }, admin_id: '814860', body: 'A note to import' })).status).toBe(200);
    // A conversation nobody is assigned to (1.4: {"type": "nobody_admin", "id": null}).
    expect((await post('/messages', { from: { type: 'user', user_id: 'ada-1' }, body: 'Is anyone there?' })).status).toBe(200);
  }, 30_000);
  afterAll(() => a?.child.kill('SIGKILL'));

  it('writes a fixture that a second instance loads and answers as the first, under its own token', async () => {
    const out = join(root, 'fixtures', 'imported.json');
    mkdirSync(join(root, 'fixtures'));
    const run = await importCli(['--from', urlA, '--out', out, '--app-token', 'imported-token'], { IMPORT_TOKEN: 'demo-token' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^import: reading .* \(Intercom-Version: 1\.4\); visitors are not read: the v1 API lists none\n/);
    expect(run.stdout).toMatch(/\nimport: wrote .*imported\.json: app "imported", \d+ users, \d+ leads, \d+ companies, \d+ conversations, \d+ notes, [1-9]\d* events \(\d+ requests\)\n$/);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain('demo-token');
    expect(existsSync(`${out}.partial`)).toBe(false);

    const b = runCli(['--port', '0', '--fixtures', join(root, 'fixtures')], BUILT);
    try {
      const urlB = await listeningUrl(b);
      for (const [path, key] of [
        ['/users?per_page=60', 'users'],
        ['/contacts?per_page=60', 'contacts'],
        ['/companies?per_page=60', 'companies'],
        ['/tags', 'tags'],
        ['/segments', 'segments'],
        ['/segments?type=company', 'segments'],
        ['/admins', 'admins'],
        ['/teams', 'teams'],
      ] as const) {
        const [fromA, fromB] = [await all(urlA, 'demo-token', path, key), await all(urlB, 'imported-token', path, key)];
        expect(fromB.length, path).toBeGreaterThan(0);
        // Latitude and longitude, which 1.4 leaves out of the answer, are all a person loses.
        expect(withoutApp(fromB), path).toEqual(withoutApp(fromA));
      }
      expect(await getJson(`${urlB}/counts`, 'imported-token')).toEqual(await getJson(`${urlA}/counts`, 'demo-token'));
      // Each conversation read whole; one with more parts than the API shows (500) keeps the ones shown.
      const conversations = await all(urlA, 'demo-token', '/conversations?per_page=60', 'conversations');
      for (const head of conversations) {
        const [one, two] = [await getJson(`${urlA}/conversations/${head.id}`, 'demo-token'), await getJson(`${urlB}/conversations/${head.id}`, 'imported-token')];
        if (one.conversation_parts.total_count >= 500) {
          expect(two.conversation_parts.conversation_parts).toEqual(one.conversation_parts.conversation_parts);
          continue;
        }
        expect(withoutApp(two), head.id).toEqual(withoutApp(one));
      }
      const ada = (await getJson(`${urlA}/users?user_id=ada-1`, 'demo-token')).id;
      for (const path of [`/notes?id=${ada}`, `/events?type=user&intercom_user_id=${ada}`]) {
        expect(withoutApp(await getJson(`${urlB}${path}`, 'imported-token')), path).toEqual(withoutApp(await getJson(`${urlA}${path}`, 'demo-token')));
      }
      // The workspace's token is not the imported app's.
      expect((await fetch(`${urlB}/admins`, { headers: { authorization: 'Bearer demo-token' } })).status).toBe(401);
    } finally {
      b.child.kill('SIGTERM');
      await b.exited;
    }
  }, 120_000);

  it('--anonymize: the same key gives the same file; names, emails and bodies are replaced, ids kept', async () => {
    const plain = JSON.parse(readFileSync(join(root, 'fixtures', 'imported.json'), 'utf8'));
    const files = [join(root, 'anon-1.json'), join(root, 'anon-2.json')];
    for (const out of files) {
      const run = await importCli(['--from', urlA, '--token', 'demo-token', '--out', out, '--app-token', 'imported-token', '--anonymize'], { IMPORT_KEY: 'team-key' });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toContain('new key');
    }
    const [one, two] = files.map((f) => readFileSync(f, 'utf8'));
    expect(one).toBe(two);
    const anon = JSON.parse(one as string);
    expect(anon.customers.map((c: any) => c.id)).toEqual(plain.customers.map((c: any) => c.id));
    const text = one as string;
    for (const c of plain.customers) {
      for (const value of [c.email, c.name, c.phone, c.last_seen_ip]) if (value) expect(text).not.toContain(JSON.stringify(value));
    }
    for (const n of plain.notes) expect(text).not.toContain(n.body);
    for (const t of plain.tags) expect(text).not.toContain(JSON.stringify(t.name));
    expect(anon.customers.every((c: any) => c.email === null || /^user-[0-9a-f]{16}@example\.com$/.test(c.email))).toBe(true);
    // Another key, other stand-ins.
    const other = join(root, 'anon-3.json');
    expect((await importCli(['--from', urlA, '--token', 'demo-token', '--out', other, '--app-token', 'imported-token', '--anonymize', '--key', 'another'])).code).toBe(0);
    expect(readFileSync(other, 'utf8')).not.toBe(one);
  }, 120_000);

  it('resumes after the last finished phase when the partial file is the same upstream\'s and token\'s', async () => {
    const out = join(root, 'resumed.json');
    const source = (token: string) => createHash('sha256').update(`${urlA}\u0000${token}`).digest('hex');
    // As if an earlier run had read the admins (and only them) before it stopped.
    const before = [{ type: 'admin', id: '814860', name: 'Kept From Before', email: 'before@example.com' }];
    writeFileSync(`${out}.partial`, JSON.stringify({ source: source('demo-token'), phases: { admins: before } }));
    const run = await importCli(['--from', urlA, '--token', 'demo-token', '--out', out, '--app-token', 'imported-token']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`import: resuming: admins already read (${out}.partial)\n`);
    expect(JSON.parse(readFileSync(out, 'utf8')).admins).toEqual([{ id: '814860', name: 'Kept From Before', email: 'before@example.com', away_mode_enabled: false, away_mode_reassign: false }]);
    // Read with another token (another workspace): not mixed in.
    writeFileSync(`${out}.partial`, JSON.stringify({ source: source('other-token'), phases: { admins: before } }));
    const again = await importCli(['--from', urlA, '--token', 'demo-token', '--out', out, '--app-token', 'imported-token']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`import: ${out}.partial was read from another upstream or with another token: starting over\n`);
    expect(JSON.parse(readFileSync(out, 'utf8')).admins.map((a: { name: string }) => a.name)).not.toContain('Kept From Before');
  }, 120_000);

  it('says in one line what is missing or refused', async () => {
    expect(await importCli(['--from', urlA, '--out', join(root, 'x.json')])).toMatchObject({ code: 2, stderr: 'messaging-api-mock: import: --token is required (or IMPORT_TOKEN)\n' });
    expect(await importCli(['--from', 'ftp://x', '--token', 't', '--out', join(root, 'x.json')])).toMatchObject({ code: 2, stderr: 'messaging-api-mock: import: --from must be an http(s) URL, not "ftp://x"\n' });
    expect(await importCli(['--from', urlA, '--token', 'nobody-token', '--out', join(root, 'x.json')])).toMatchObject({ code: 1, stderr: `messaging-api-mock: import: ${urlA}/admins: 401 unauthorized: check --token (or IMPORT_TOKEN)\n` });
  }, 60_000);
});

describe('what import makes of what the API lists', () => {
  it('keeps a conversation whole whose people or admins the API does not list, and drops references to nothing', () => {
    const read = {
      admins: [{ type: 'admin', id: '1', name: 'Ann', email: 'ann@example.com' }, { type: 'team', id: '9', name: 'Desk', admin_ids: [1, 2] }],
      tags: [{ id: '5', name: 'VIP' }],
      segments: [],
      companies: [],
      users: [{ id: 'u1', user_id: 'one', email: 'one@example.com', created_at: 100, tags: { tags: [{ id: '5' }, { id: '404' }] }, companies: { companies: [{ id: 'gone' }] } }],
      leads: [],
      conversations: [
        {
          id: 'c1',
          created_at: 100,
          conversation_message: { subject: '', body: '<p>Hi</p>', author: { type: 'user', id: 'v-visitor' }, attachments: [] },
          customers: [{ type: 'user', id: 'v-visitor' }, { type: 'user', id: 'u1' }],
          assignee: { type: 'nobody_admin', id: null },
          tags: { tags: [{ id: '404' }] },
          conversation_parts: { conversation_parts: [{ id: '1', part_type: 'comment', body: '<p>x</p>', created_at: 101, author: { type: 'admin', id: 'deleted-admin' } }] },
        },
      ],
      notes: [{ id: '1', body: 'by someone gone', created_at: 100, author: { id: 'deleted-admin' }, user: { id: 'u1' } }],
      events: [],
    };
    const doc = toFixture(read as never, 'imported', 'imported-token');
    const conversation = (doc.conversations as any[])[0];
    expect(conversation.assignee).toBeNull();
    expect(conversation.customers).toEqual(['v-visitor', 'u1']);
    expect(conversation.tags).toEqual([]);
    expect(conversation.parts[0].author).toEqual({ type: 'nobody_admin', id: 'deleted-admin' });
    expect(doc.former_customers).toEqual(['v-visitor']);
    expect((doc.customers as any[])[0]).toMatchObject({ tags: ['5'], companies: [] });
    expect((doc.teams as any[])[0].admin_ids).toEqual(['1']);
    expect(doc.notes).toEqual([]);
    // It loads as --fixtures loads it: every reference checked.
    const store = new Store({ seed: 1, clock: new Clock(), fixtures: [{ input: parseFixture(JSON.parse(JSON.stringify(doc))) }] });
    expect(store.app('imported')?.data.conversations.size).toBe(1);
  });
});

describe('import and the rate limit', () => {
  it('sends the token to the upstream\'s own origin only', async () => {
    const up = new Upstream({ from: 'http://127.0.0.1:9/', token: 'secret', say: () => undefined });
    await expect(up.get('http://thief.example/steal')).rejects.toThrow(new ImportError("the upstream's link http://thief.example/steal leaves http://127.0.0.1:9: refused, the token goes to no other host"));
  });

  it('waits and tries again after a 5xx', async () => {
    const mock = await startMockServer({ rateLimit: 600 });
    try {
      expect((await fetch(`${mock.url}/__admin/faults?app=demo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 503, count: 1 }) })).status).toBe(201);
      const said: string[] = [];
      const up = new Upstream({ from: mock.url, token: 'demo-token', say: (l) => said.push(l), sleep: async () => undefined });
      expect((await up.get<{ type: string }>('/tags')).type).toBe('tag.list');
      expect(said).toEqual(['the upstream answered 503: waiting 2.0 s']);
    } finally {
      await mock.stop();
    }
  });

  it('says in one line when the workspace refuses Intercom-Version 1.4', async () => {
    const { createServer } = await import('node:http');
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers['intercom-version'] as string | undefined);
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error.list', errors: [{ code: 'intercom_version_invalid', message: 'Requested version is not supported' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { port } = server.address() as { port: number };
      const up = new Upstream({ from: `http://127.0.0.1:${port}/`, token: 't', say: () => undefined });
      await expect(up.get('/admins')).rejects.toThrow(new ImportError('the workspace refused Intercom-Version: 1.4 (the last v1 version): Requested version is not supported'));
      expect(seen).toEqual(['1.4']);
    } finally {
      server.close();
    }
  });

  it('waits for the next window on a 429, as long as the upstream\'s headers say, then goes on', async () => {
    const mock = await startMockServer({ rateLimit: 600 });
    try {
      expect((await fetch(`${mock.url}/__admin/faults?app=demo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rate_limit: true, count: 2 }) })).status).toBe(201);
      const waits: number[] = [];
      const said: string[] = [];
      const up = new Upstream({ from: mock.url, token: 'demo-token', say: (l) => said.push(l), sleep: async (ms) => void waits.push(ms) });
      const admins = await up.get<{ type: string }>('/admins');
      expect(admins.type).toBe('admin.list');
      expect(waits).toHaveLength(2);
      for (const ms of waits) {
        expect(ms).toBeGreaterThan(0);
        expect(ms).toBeLessThanOrEqual(10_100);
      }
      expect(said.every((l) => /^rate limited \(429\): waiting \d+\.\d s$/.test(l))).toBe(true);
      expect(up.requests).toBe(3);
    } finally {
      await mock.stop();
    }
  });
});
