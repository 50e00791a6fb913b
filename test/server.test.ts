import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { Clock } from '../src/core/clock.js';
import { listen } from '../src/server.js';
import { createStore } from '../src/setup.js';
import { BUILT, listeningUrl, ROOT, runCli } from './real.js';

describe('a real listening server', () => {
  it('serves the API over HTTP on an ephemeral port and closes cleanly', async () => {
    const server = await listen(createApp({ store: createStore() }), 0, '127.0.0.1');
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${server.url}/admins`, { headers: { authorization: 'Bearer demo-token' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('x-ratelimit-limit')).toBe('83');
      expect(((await res.json()) as any).type).toBe('admin.list');
      const missing = await fetch(`${server.url}/nope`);
      expect(missing.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('the command line', () => {
  it('prints the base URL, docs URL and demo token, serves, and exits 0 on SIGTERM', async () => {
    const cli = runCli(['--port', '0', '--seed', '3']);
    try {
      const url = await listeningUrl(cli);
      expect(cli.output().stdout).toContain(`docs:       ${url}/docs`);
      expect(cli.output().stdout).toContain(`console:    ${url}/__admin/ui`);
      expect(cli.output().stdout).toContain('demo token: demo-token');
      const health = await fetch(`${url}/__admin/health`);
      expect(((await health.json()) as any).seed).toBe(3);
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toBe(0);
  });

  it('runs from the build (npm install builds it) with precompiled validators that answer like ajv at run time', async () => {
    expect(existsSync(join(ROOT, 'dist/src/schemas/validators.plain.cjs'))).toBe(true);
    const cli = runCli(['--port', '0', '--now', '1767312000'], BUILT);
    try {
      const url = await listeningUrl(cli);
      const body = { user_id: 'x', custom_attributes: { 'a.b': 1, deep: { no: true } }, companies: 'nope' };
      const request = { method: 'POST', headers: { authorization: 'Bearer demo-token', 'content-type': 'application/json' }, body: JSON.stringify(body) };
      const built = await fetch(`${url}/users`, request);
      const inProcess = await createApp({ store: createStore() }).request('/users', request);
      expect(built.status).toBe(400);
      expect(inProcess.status).toBe(400);
      const errors = async (r: Response) => ((await r.json()) as any).errors;
      expect(await errors(built)).toEqual(await errors(inProcess));
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toBe(0);
  });

  it('runs bundled (dist/cli/) and finds by each module\'s own path what the unbundled build finds', async () => {
    // A preload that says when ajv's compiler or faker is loaded: neither may be, with the
    // precompiled validators and the fixture cache found; faker must be, once a seed asks for generated users.
    const dir = mkdtempSync(join(tmpdir(), 'mock-bundle-'));
    const hook = join(dir, 'hook.cjs');
    writeFileSync(hook, "const M = require('node:module'); const load = M._load; M._load = function (r, ...a) { if (/^(ajv\\/dist\\/2020|@faker-js)/.test(r)) process.stderr.write('loaded ' + r + '\\n'); return load.call(this, r, ...a); };\n");
    expect(readFileSync(join(ROOT, BUILT[0] as string), 'utf8')).not.toMatch(/from ["']\.\.?\/src\//);
    const cli = runCli(['--port', '0', '--now', '1767312000'], ['--require', hook, ...BUILT]);
    try {
      const url = await listeningUrl(cli);
      const demo = { authorization: 'Bearer demo-token', 'content-type': 'application/json' };
      expect(((await (await fetch(`${url}/admins`, { headers: demo })).json()) as any).admins.length).toBeGreaterThan(0);
      const refused = await fetch(`${url}/users`, { method: 'POST', headers: demo, body: JSON.stringify({ user_id: 'x', companies: 'nope' }) });
      expect(refused.status).toBe(400);
      expect((await fetch(`${url}/openapi.yaml`)).status).toBe(200);
      const console = await fetch(`${url}/__admin/ui/console.js`);
      expect(console.status).toBe(200);
      expect((await console.text()).length).toBeGreaterThan(1000);
      expect(cli.output().stderr).toBe('');
      const seed = await fetch(`${url}/__admin/seed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ app: { id: 'gen', tokens: ['gen-token'] }, generate: { users: 3 } }) });
      expect(seed.status).toBe(200);
      const users = await fetch(`${url}/users`, { headers: { authorization: 'Bearer gen-token' } });
      expect(((await users.json()) as any).total_count).toBe(3);
      expect(cli.output().stderr).toMatch(/^loaded @faker-js\//);
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toBe(0);
    const version = runCli(['--version'], BUILT);
    expect(await version.exited).toBe(0);
    expect(version.output().stdout).toBe(`${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
  });

  it('starts the default fixtures from their build-time expansion, in exactly the state an expansion at start gives', async () => {
    const built = (await import(join(ROOT, 'dist/src/fixtures/files.js'))) as typeof import('../src/fixtures/files.js');
    const cache = (await import(join(ROOT, 'dist/src/fixtures/expansion-cache.js'))) as typeof import('../src/fixtures/expansion-cache.js');
    const loaded = built.loadFixtureDir(built.DEFAULT_FIXTURES_DIR, 1);
    expect(loaded.map((f) => f.expanded !== undefined)).toEqual([true, true]);
    // Another seed or another text is not in the cache: those expand at start as before.
    const text = readFileSync(join(built.DEFAULT_FIXTURES_DIR, 'demo.json'), 'utf8');
    expect(cache.cachedExpansion(text, 1)).toBeDefined();
    expect(cache.cachedExpansion(text, 2)).toBeUndefined();
    expect(cache.cachedExpansion(`${text}\n`, 1)).toBeUndefined();
    expect(built.loadFixtureDir(built.DEFAULT_FIXTURES_DIR, 2).some((f) => f.expanded)).toBe(false);

    const cli = runCli(['--port', '0', '--now', '1767312000'], BUILT);
    try {
      const url = await listeningUrl(cli);
      const fresh = createApp({ store: createStore({ clock: new Clock({ start: 1767312000, frozen: true }) }) });
      for (const path of ['/__admin/state?app=demo', '/__admin/state?app=other']) {
        const fromCache = await (await fetch(`${url}${path}`)).text();
        const expanded = await (await fresh.request(path)).text();
        expect(fromCache.length).toBeGreaterThan(1000);
        expect(fromCache).toBe(expanded);
      }
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toBe(0);
  });

  it('refuses to start on an invalid fixture, naming the file and the member', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-cli-'));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ app: { id: 'x', tokens: ['t'] }, tags: [{ id: '1' }] }));
    const cli = runCli(['--port', '0', '--fixtures', dir], BUILT);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toMatch(/bad\.json: tags\[0\]\.name: is required/);
    expect(cli.output().stdout).not.toContain('listening');
  });

  it('prints usage for --help and rejects unknown options', async () => {
    const help = runCli(['--help'], BUILT);
    expect(await help.exited).toBe(0);
    expect(help.output().stdout).toContain('--rate-limit N');
    const bad = runCli(['--bogus'], BUILT);
    expect(await bad.exited).toBe(2);
    expect(bad.output().stderr).toContain('unknown option "--bogus"');
  });
});
