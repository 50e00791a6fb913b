// The single executable (npm run build:binary) as a team without Node runs it: copied alone into
// an empty directory, started with nothing on PATH but itself and no project around it. It serves
// the API, /docs and the console from inside itself, byte for byte what `npm start` serves; a
// fixture directory of the user's, --data-dir across a restart, --tls and generated seeds work;
// and the POSIX CI step runs a test command against it without Node.

import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT, listeningUrl, ROOT, spawnLogged, type Spawned } from './real.js';

const root = mkdtempSync(join(tmpdir(), 'mock-binary-'));
const bin = join(root, 'bin');
const exe = join(bin, 'messaging-api-mock');
const home = join(root, 'home');
const work = join(root, 'work');
/** Nothing but the executable: no node, no shell tools. */
const bare = { PATH: bin, HOME: home };

afterAll(() => rmSync(root, { recursive: true, force: true }));

function run(args: string[]): Spawned {
  const child = spawn(exe, ['--port', '0', ...args], { cwd: work, env: bare, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** A directory of the POSIX tools the CI step uses (no node, no npm), made once. */
let toolDir: string | undefined;
function tools(): string {
  if (toolDir) return toolDir;
  toolDir = join(root, 'tools');
  mkdirSync(toolDir, { recursive: true });
  for (const tool of ['sh', 'sed', 'sleep', 'mktemp', 'cat', 'grep', 'tail', 'kill', 'curl', 'rm', 'dirname', 'uname']) {
    const found = execFileSync('sh', ['-c', `command -v ${tool} || true`], { encoding: 'utf8' }).trim();
    if (found.startsWith('/')) execFileSync('ln', ['-sf', found, join(toolDir, tool)]);
  }
  return toolDir;
}

/** The real executable of a runner (through pyenv shims, symlinks), or undefined when the machine lacks it. */
function realRunner(command: string, args: string[], fromOutput: (out: string) => string = (out) => out): string | undefined {
  try {
    const out = execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return out === '' ? undefined : fromOutput(out);
  } catch {
    return undefined;
  }
}

async function stop(cli: Spawned): Promise<void> {
  cli.child.kill('SIGTERM');
  expect(await cli.exited).toBe(0);
}

async function text(url: string, init: RequestInit = {}): Promise<{ status: number; type: string | null; body: string }> {
  const res = await fetch(url, { ...init, headers: { authorization: 'Bearer demo-token', accept: 'application/json', ...(init.headers as Record<string, string>) } });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe.skipIf(process.env.MUTATION_RUN === '1')('the single executable', () => {
  beforeAll(async () => {
    const { buildBinary } = await import('../dist/src/build-binary.js');
    const report = await buildBinary(join(root, 'build'));
    for (const dir of [bin, home, work]) mkdirSync(dir, { recursive: true });
    copyFileSync(report.path, exe);
    execFileSync('chmod', ['755', exe]);
    expect(readFileSync(`${report.path}.sha256`, 'utf8')).toBe(`${report.sha256}  ${report.path.split('/').at(-1)}\n`);
  }, 120_000);

  it('prints its version with nothing on PATH', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(execFileSync(exe, ['--version'], { cwd: work, env: bare, encoding: 'utf8' })).toBe(`${pkg.version}\n`);
  });

  it('serves the API, /docs and the console from inside itself, as npm start serves them', async () => {
    const args = ['--now', '1700000000'];
    const cli = run(args);
    const npm = spawnLogged(process.execPath, [...BUILT, '--port', '0', ...args]);
    try {
      const url = await listeningUrl(cli);
      const other = await listeningUrl(npm);
      for (const path of ['/admins', '/users?per_page=5', '/__admin/state?app=demo', '/openapi.json', '/docs', '/__admin/ui']) {
        const [a, b] = [await text(`${url}${path}`), await text(`${other}${path}`)];
        expect(a.status, path).toBe(200);
        // The same bytes, but for the origin the mock writes into links and the docs.
        expect(a.body.replaceAll(url, 'ORIGIN'), path).toBe(b.body.replaceAll(other, 'ORIGIN'));
      }
      for (const [path, type] of [
        ['/docs/swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
        ['/docs/swagger-ui.css', 'text/css; charset=utf-8'],
        ['/docs/favicon-32x32.png', 'image/png'],
        ['/__admin/ui/console.js', 'application/javascript; charset=utf-8'],
        ['/__admin/ui/console.css', 'text/css; charset=utf-8'],
        ['/openapi.yaml', 'application/yaml; charset=utf-8'],
      ] as const) {
        const [a, b] = [await text(`${url}${path}`), await text(`${other}${path}`)];
        expect([a.status, a.type], path).toEqual([200, type]);
        expect(a.body.replaceAll(url, 'ORIGIN'), path).toBe(b.body.replaceAll(other, 'ORIGIN'));
      }
      // Generating records loads Faker, bundled inside: the same records as npm start makes.
      const doc = JSON.stringify({ app: { id: 'gen', tokens: ['gen-token'] }, generate: { users: 30, companies: 3, conversations: 4 } });
      const seeded = [await text(`${url}/__admin/seed`, { method: 'POST', body: doc, headers: { 'content-type': 'application/json' } }), await text(`${other}/__admin/seed`, { method: 'POST', body: doc, headers: { 'content-type': 'application/json' } })];
      expect(seeded[0]?.status).toBe(200);
      const states = [await text(`${url}/__admin/state?app=gen`), await text(`${other}/__admin/state?app=gen`)];
      expect(states[0]?.body).toBe(states[1]?.body);
      expect(JSON.parse(states[0]?.body ?? '').customers).toHaveLength(30);
    } finally {
      await stop(cli);
      npm.child.kill('SIGTERM');
      await npm.exited;
    }
  }, 60_000);

  it('loads a fixture directory of the user\'s, keeps --data-dir across a restart, and serves --tls', async () => {
    const fixtures = join(work, 'fixtures');
    mkdirSync(fixtures, { recursive: true });
    writeFileSync(join(fixtures, 'mine.json'), JSON.stringify({ app: { id: 'mine', tokens: ['mine-token'] }, admins: [{ id: '7', name: 'Ada', email: 'ada@example.com' }] }));
    const data = join(work, 'data');
    const first = run(['--fixtures', fixtures, '--data-dir', data]);
    try {
      const url = await listeningUrl(first);
      const admins = await text(`${url}/admins`, { headers: { authorization: 'Bearer mine-token' } });
      expect(JSON.parse(admins.body).admins.map((a: { name: string }) => a.name)).toEqual(['Ada']);
      const made = await text(`${url}/users`, { method: 'POST', body: '{"user_id":"kept"}', headers: { authorization: 'Bearer mine-token', 'content-type': 'application/json' } });
      expect(made.status).toBe(200);
    } finally {
      await stop(first);
    }
    const second = run(['--fixtures', fixtures, '--data-dir', data, '--tls']);
    try {
      const url = await listeningUrl(second);
      expect(url).toMatch(/^https:/);
      const ca = readFileSync(join(data, 'tls', 'ca.pem'), 'utf8');
      const kept = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${url}/users?user_id=kept`, { ca, headers: { authorization: 'Bearer mine-token', accept: 'application/json' } }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(kept.status).toBe(200);
      expect(JSON.parse(kept.body).user_id).toBe('kept');
    } finally {
      await stop(second);
    }
  }, 60_000);

  it('says --watch needs a fixture directory of the user\'s, whose files it can watch', async () => {
    const cli = run(['--watch']);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toBe('messaging-api-mock: --watch needs --fixtures DIR here: the default fixtures are inside the executable\n');
  });

  it('runs the CI step with only the executable and a POSIX shell: the test command sees MOCK_URL', () => {
    const step = join(work, 'ci-step.sh');
    copyFileSync(join(ROOT, 'examples', 'ci-step.sh'), step);
    const env = { PATH: `${bin}:${tools()}`, HOME: home, MOCK_CMD: exe };
    expect(() => execFileSync('sh', ['-c', 'command -v node'], { env })).toThrow();
    const out = execFileSync('sh', [step, 'sh', '-c', 'curl -sf -H "Authorization: Bearer demo-token" "$MOCK_URL/admins"'], { cwd: work, env, encoding: 'utf8' });
    expect(out).toMatch(/^mock listening on http:\/\/127\.0\.0\.1:\d+\n\{"type":"admin\.list"/);
    expect(out).toMatch(/contract: 1 of \d+ operations called in 1 requests; no warnings;.*\n$/);
  }, 60_000);

  // The recipes of docs/distribution.md, each with its language's usual runner where this machine
  // has it (Debian's packages: python3-pytest, golang-go, ruby), and still no Node on PATH.
  const runners: { name: string; found: string | undefined; dir: string; command: string[]; env?: Record<string, string> }[] = [
    { name: 'pytest', found: realRunner('python3', ['-c', 'import pytest, sys; print(sys.executable)']) ?? realRunner('/usr/bin/python3', ['-c', 'import pytest, sys; print(sys.executable)']), dir: 'python', command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '.'] },
    { name: 'go test', found: realRunner('go', ['env', 'GOROOT'], (root) => join(root, 'bin', 'go')), dir: 'go', command: ['go', 'test', './...'], env: { CGO_ENABLED: '0', GOFLAGS: '-mod=mod', GOCACHE: join(root, 'gocache'), GOPATH: join(root, 'gopath') } },
    { name: 'minitest', found: realRunner('ruby', ['-e', 'require "minitest"; print RbConfig.ruby']), dir: 'ruby', command: ['ruby', 'test_mock.rb'] },
  ];
  for (const runner of runners) {
    it.skipIf(runner.found === undefined)(`runs the ${runner.name} recipe: the example suite passes against the executable`, () => {
      const dir = join(work, runner.dir);
      execFileSync('cp', ['-r', join(ROOT, 'examples', runner.dir), dir]);
      const tool = join(root, `runner-${runner.dir}`);
      mkdirSync(tool, { recursive: true });
      execFileSync('ln', ['-sf', runner.found as string, join(tool, runner.command[0] as string)]);
      const env = { PATH: `${bin}:${tool}:${tools()}`, HOME: home, MOCK_CMD: exe, ...runner.env };
      expect(() => execFileSync('sh', ['-c', 'command -v node'], { env })).toThrow();
      const out = execFileSync('sh', [join(ROOT, 'examples', 'ci-step.sh'), ...runner.command], { cwd: dir, env, encoding: 'utf8' });
      expect(out).toMatch(/^mock listening on http:\/\/127\.0\.0\.1:\d+\n/);
      // Both tests of the example reached the mock: three requests, each a different operation.
      expect(out).toMatch(/contract: 3 of \d+ operations called in 3 requests; no warnings;/);
    }, 120_000);
  }
});
