// Learning the address of a mock started with --port 0, from a script: the ready file and the
// JSON start-up line. Real processes on the built entry.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT, runCli, waitFor } from './real.js';

const dir = mkdtempSync(join(tmpdir(), 'mock-ready-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--ready-file and --log-format json', () => {
  it('writes {url, port, pid} once listening, answers at that url, and removes the file on SIGTERM', async () => {
    const file = join(dir, 'ready.json');
    const cli = runCli(['--port', '0', '--ready-file', file, '--log-format', 'json'], BUILT);
    const ready = await waitFor(() => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { url: string; port: number; pid: number }) : undefined));
    expect(ready.pid).toBe(cli.child.pid);
    expect(ready.url).toBe(`http://127.0.0.1:${ready.port}`);
    const health = await fetch(`${ready.url}/__admin/health`);
    expect(health.status).toBe(200);
    const [first] = cli.output().stdout.split('\n');
    expect(JSON.parse(first!)).toMatchObject({ event: 'listening', url: ready.url, port: ready.port, pid: ready.pid, docs: `${ready.url}/docs`, health: `${ready.url}/__admin/health`, demo_token: 'demo-token' });
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(existsSync(file)).toBe(false);
    const lines = cli.output().stdout.trim().split('\n');
    expect(JSON.parse(lines.at(-2)!)).toEqual({ event: 'stopping', signal: 'SIGTERM', grace_seconds: 5 });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ event: 'contract', called: 0, calls: 0, warnings: 0, muted: 0 });
  }, 30_000);

  it('refuses an unwritable ready file in one line with exit 2, and a log format it does not know', async () => {
    const bad = runCli(['--port', '0', '--ready-file', join(dir, 'no-such-dir', 'ready.json')], BUILT);
    expect(await bad.exited).toBe(2);
    expect(bad.output().stderr).toMatch(/^messaging-api-mock: --ready-file .*no-such-dir\/ready\.json: ENOENT: cannot write it\n$/);
    // Nothing but that line: no "listening" banner for a start that failed.
    expect(bad.output().stdout).toBe('');
    const format = runCli(['--log-format', 'yaml'], BUILT);
    expect(await format.exited).toBe(2);
    expect(format.output().stderr).toBe('messaging-api-mock: --log-format must be one of text, json, not "yaml"\n');
  }, 30_000);
});
