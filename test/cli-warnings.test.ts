// The command line's contract warnings: --strict, --mute-warnings, and the report's line (and
// --fail-on-warnings' exit code) when the mock stops, as a CI step sees them.

import { describe, expect, it } from 'vitest';
import { BUILT, listeningUrl, runCli, waitFor } from './real.js';

const auth = { authorization: 'Bearer demo-token' };

async function stopped(cli: ReturnType<typeof runCli>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  cli.child.kill('SIGTERM');
  const code = await cli.exited;
  return { code, ...cli.output() };
}

describe('contract warnings on the command line', () => {
  it('by default answers with a warning, and prints the report\'s line on shutdown, exit 0', async () => {
    const cli = runCli(['--port', '0', '--now', '1700000000'], BUILT);
    const url = await listeningUrl(cli);
    const res = await fetch(`${url}/admins?x=1`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-mock-warning')).toMatch(/^unknown_parameter "x /);
    const journal = (await (await fetch(`${url}/__admin/requests?warnings=true`)).json()) as { requests: { path: string; warnings: { code: string }[] }[] };
    expect(journal.requests.map((r) => [r.path, r.warnings.map((w) => w.code)])).toEqual([['/admins', ['unknown_parameter']]]);
    const report = (await (await fetch(`${url}/__admin/report`)).json()) as { totals: { calls: number; warnings: number } };
    expect(report.totals).toMatchObject({ calls: 1, warnings: 1 });
    const out = await stopped(cli);
    expect(out.code).toBe(0);
    expect(out.stdout.trim().split('\n').at(-1)).toMatch(/^contract: 1 of \d+ operations called in 1 requests; 1 warning \(unknown_parameter 1\); GET \/__admin\/report for details$/);
  }, 30_000);

  it('--strict refuses it; --mute-warnings hides it and strict mode then accepts it', async () => {
    const strict = runCli(['--port', '0', '--strict'], BUILT);
    const url = await listeningUrl(strict);
    expect((await fetch(`${url}/admins?x=1`, { headers: auth })).status).toBe(400);
    await stopped(strict);
    const muted = runCli(['--port', '0', '--strict', '--mute-warnings', 'unknown_parameter'], BUILT);
    const url2 = await listeningUrl(muted);
    const res = await fetch(`${url2}/admins?x=1`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-mock-warning')).toBeNull();
    expect((await stopped(muted)).code).toBe(0);
  }, 30_000);

  it('--fail-on-warnings exits 1 when a warning was not muted, 0 when none was', async () => {
    const warned = runCli(['--port', '0', '--fail-on-warnings', '--log-format', 'json'], BUILT);
    const base = await waitFor(() => {
      const first = warned.output().stdout.split('\n')[0];
      return first ? (JSON.parse(first) as { url: string }).url : undefined;
    });
    await fetch(`${base}/admins?x=1`, { headers: auth });
    const out = await stopped(warned);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout.trim().split('\n').at(-1) as string)).toMatchObject({ event: 'contract', calls: 1, warnings: 1, muted: 0 });
    expect(out.stderr).toBe('messaging-api-mock: --fail-on-warnings: 1 warning(s) that are not muted\n');
    const clean = runCli(['--port', '0', '--fail-on-warnings'], BUILT);
    const url2 = await listeningUrl(clean);
    await fetch(`${url2}/admins`, { headers: auth });
    expect((await stopped(clean)).code).toBe(0);
  }, 30_000);

  it('refuses a warning code it does not know, naming the codes', async () => {
    const bad = runCli(['--port', '0', '--mute-warnings', 'nope'], BUILT);
    expect(await bad.exited).toBe(2);
    expect(bad.output().stderr).toMatch(/--mute-warnings: "nope" is not a warning code \(unknown_parameter, /);
  }, 30_000);
});
