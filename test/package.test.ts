// What the published package holds and does: `npm pack` gives a tarball with what users run and
// nothing else, the unpacked tarball starts and answers, and the install-time report of a
// dependency is switched off. Real processes and sockets throughout.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { listeningUrl, ROOT, spawnLogged } from './real.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The mock is gone once a recipe returns: its port refuses connections (no orphan left serving). */
function portRefuses(url: string): boolean {
  return spawnSync(process.execPath, ['-e', `fetch(${JSON.stringify(url)}).then(() => process.exit(0), () => process.exit(7))`]).status === 7;
}

describe('the packed tarball, installed in a consumer project', () => {
  let dir: string;
  let pkg: string;
  let files: string[];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mock-pack-'));
    // --ignore-scripts: dist/ is already built by `npm install`; packing must not rebuild it mid-suite.
    const out = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' });
    const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
    files = info!.files.map((f) => f.path);
    // The layout npm gives a project that installs the tarball: the package under node_modules,
    // its bin linked in node_modules/.bin, its dependencies (here, this project's) beside it.
    const modules = join(dir, 'consumer', 'node_modules');
    mkdirSync(join(modules, '.bin'), { recursive: true });
    execFileSync('tar', ['-xzf', join(dir, info!.filename), '-C', modules]);
    pkg = join(modules, 'messaging-api-mock');
    renameSync(join(modules, 'package'), pkg);
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    symlinkSync('../messaging-api-mock/bin/messaging-api-mock.js', join(modules, '.bin', 'messaging-api-mock'));
    writeFileSync(join(dir, 'consumer', 'package.json'), JSON.stringify({ name: 'consumer', private: true, scripts: { test: 'node check.mjs' } }));
    // The consumer's "test suite": one request to the mock whose address the recipe exported.
    writeFileSync(
      join(dir, 'consumer', 'check.mjs'),
      "const r = await fetch(process.env.MOCK_URL + '/users?per_page=1', { headers: { authorization: 'Bearer demo-token', accept: 'application/json' } });\n" +
        "console.log('consumer saw', r.status, (await r.json()).type);\nprocess.exit(r.status === 200 ? 0 : 1);\n",
    );
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds what users run and none of the tests, benchmarks or source maps', () => {
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'bin/messaging-api-mock.js', 'dist/cli/index.js', 'dist/src/index.js', 'dist/src/lib.js', 'dist/src/lib.d.ts', 'fixtures/demo.json', 'openapi/openapi.json', 'examples/ci-step.sh', 'dist/console/console.js', 'dist/console/console.css']) {
      expect(files).toContain(needed);
    }
    expect(files.some((f) => f.startsWith('dist/src/schemas/validators.') && f.endsWith('.cjs'))).toBe(true);
    expect(files.some((f) => f.startsWith('dist/fixture-cache/'))).toBe(true);
    expect(files.filter((f) => /^(test|src|reports|\.ci)\/|\.map$|tsbuildinfo|\.test\./.test(f))).toEqual([]);
    // What only people changing the mock read stays in the repository.
    expect(files.filter((f) => /^docs\/(architecture|mutation)/.test(f))).toEqual([]);
    expect(files).toContain('docs/reference.md');
    // The README's relative links (docs/…) lead somewhere in the installed package too.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = [...readme.matchAll(/\]\(((?![a-z]+:|#)[^)#\s]+)/g)].map((m) => m[1]!);
    expect(linked.length).toBeGreaterThan(0);
    for (const target of linked) expect(files).toContain(target);
  });

  it('prints its version and serves the API and the docs page', async () => {
    const bin = join(pkg, 'bin', 'messaging-api-mock.js');
    expect(execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
    expect(execFileSync(process.execPath, [bin, '-v'], { encoding: 'utf8' })).toBe(`${version}\n`);
    const cli = spawnLogged(process.execPath, [bin, '--port', '0', '--host', '127.0.0.1']);
    try {
      const url = await listeningUrl(cli);
      const users = await fetch(`${url}/users?per_page=1`, { headers: { authorization: 'Bearer demo-token', accept: 'application/json' } });
      expect(users.status).toBe(200);
      expect(((await users.json()) as { type: string }).type).toBe('user.list');
      expect((await fetch(`${url}/docs`)).status).toBe(200);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  }, 30_000);

  it('gives the in-process API to CommonJS (require) and to ES modules (import), with types', () => {
    const consumer = join(dir, 'consumer');
    const body = "const mock = await startMockServer({ port: 0 });\nconst res = await fetch(mock.url + '/admins', { headers: mock.headers() });\nconsole.log(res.status);\nawait mock.stop();\n";
    writeFileSync(join(consumer, 'check.cjs'), `const { startMockServer } = require('messaging-api-mock');\n(async () => {\n${body}})();\n`);
    writeFileSync(join(consumer, 'check-esm.mjs'), `import { startMockServer } from 'messaging-api-mock';\n${body}`);
    for (const file of ['check.cjs', 'check-esm.mjs']) {
      expect(execFileSync(process.execPath, [file], { cwd: consumer, encoding: 'utf8' }), file).toBe('200\n');
    }
    const types = readFileSync(join(pkg, 'dist', 'src', 'lib.d.ts'), 'utf8');
    expect(types).toContain('startMockServer');
  }, 30_000);

  it("runs the README's GitHub Actions job step as written: npx starts the mock, the tests see MOCK_URL, the mock stops", () => {
    const workflow = parse(readFileSync(join(ROOT, 'examples', 'github-actions.yml'), 'utf8')) as { jobs: Record<string, { steps: { run?: string }[] }> };
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    const step = steps.find((s) => s.run?.includes('ci-step.sh'))?.run;
    expect(step).toBe('sh node_modules/messaging-api-mock/examples/ci-step.sh npm test');
    const out = execFileSync('sh', ['-c', step!], { cwd: join(dir, 'consumer'), encoding: 'utf8', env: { ...process.env, npm_config_offline: 'true' } });
    const url = /mock listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    expect(url).toBeDefined();
    expect(out).toContain('consumer saw 200 user.list');
    expect(portRefuses(url!)).toBe(true);
  }, 60_000);

  it('the CI step keeps the test command\'s failure and still stops the mock', () => {
    const script = join(pkg, 'examples', 'ci-step.sh');
    const run = spawnSync('sh', [script, 'sh', '-c', 'echo "$MOCK_URL" > url.txt; exit 3'], { cwd: join(dir, 'consumer'), encoding: 'utf8' });
    expect(run.status).toBe(3);
    const url = readFileSync(join(dir, 'consumer', 'url.txt'), 'utf8').trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(portRefuses(url)).toBe(true);
  }, 60_000);

  it('the CI step prints the contract line when the mock stops, and with MOCK_FAIL_ON_WARNINGS=1 fails a passing command the mock warned about', () => {
    const script = join(pkg, 'examples', 'ci-step.sh');
    const warn = 'node -e \'fetch(process.env.MOCK_URL + "/admins?x=1", { headers: { authorization: "Bearer demo-token" } }).then((r) => process.exit(r.status === 200 ? 0 : 5))\'';
    const plain = spawnSync('sh', [script, 'sh', '-c', warn], { cwd: join(dir, 'consumer'), encoding: 'utf8' });
    expect(plain.status).toBe(0);
    expect(plain.stdout).toMatch(/\ncontract: 1 of \d+ operations called in 1 requests; 1 warning \(unknown_parameter 1\); GET \/__admin\/report for details\n$/);
    const strict = spawnSync('sh', [script, 'sh', '-c', warn], { cwd: join(dir, 'consumer'), encoding: 'utf8', env: { ...process.env, MOCK_FAIL_ON_WARNINGS: '1' } });
    expect(strict.status).toBe(1);
    expect(strict.stderr).toContain('--fail-on-warnings: 1 warning(s) that are not muted');
    const failing = spawnSync('sh', [script, 'sh', '-c', 'exit 3'], { cwd: join(dir, 'consumer'), encoding: 'utf8', env: { ...process.env, MOCK_FAIL_ON_WARNINGS: '1' } });
    expect(failing.status).toBe(3);
  }, 60_000);
});

describe('install-time reports', () => {
  // SCARF_LOCAL_PORT points the report at a local server, so a report that would leave the machine
  // arrives here instead; the probe counts what it receives.
  async function scarfReports(root: string): Promise<{ hits: string[]; output: string }> {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, INIT_CWD: root, SCARF_LOCAL_PORT: String(port), SCARF_VERBOSE: 'true' };
      const report = spawnLogged(process.execPath, [join(root, 'node_modules/@scarf/scarf/report.js')], env);
      expect(await report.exited).toBe(0);
      return { hits, output: report.output().stdout + report.output().stderr };
    } finally {
      server.close();
    }
  }

  it("the @scarf/scarf report that swagger-ui-dist installs sends nothing for this project's tree", async () => {
    // The report gives `npm ls` 3 s, which a loaded CI machine can miss; that failure sends nothing
    // either, but proves nothing about the opt-out, so the report runs again (at most 4 times).
    let run = await scarfReports(ROOT);
    for (let again = 0; again < 3 && run.output.includes('Scarf received an error from npm -ls'); again++) {
      expect(run.hits).toEqual([]);
      run = await scarfReports(ROOT);
    }
    expect(run.output).toContain('Scarf has been disabled via a package.json in the dependency chain');
    expect(run.hits).toEqual([]);
  }, 60_000);
});
