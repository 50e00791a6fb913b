// --log-requests: a line per request (http/request-log.ts), in-process for its content and with the
// real command for where it goes.

import { describe, expect, it } from 'vitest';
import { mock } from './helpers.js';
import { BUILT, listeningUrl, runCli } from './real.js';

function logged(format: 'text' | 'json', queries = false) {
  const lines: string[] = [];
  const m = mock({ requestLog: { format, queries, write: (line) => lines.push(line) } });
  return { m, lines };
}

describe('a line per request', () => {
  it('says time, the frozen clock, app, method, path without its query, status, ms, request id and the warnings, never a body', async () => {
    const { m, lines } = logged('text');
    const res = await m.call('GET', '/users?email=secret%40example.com&x=1');
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id') as string;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z clock=${m.clock.now()} demo GET /users 200 \\d+(\\.\\d)?ms ${id} warnings=unknown_parameter$`));
    expect(lines[0]).not.toContain('secret');
    await m.call('POST', '/users', { body: { user_id: 'logged-1', email: 'body-secret@example.com' } });
    expect(lines[1]).toMatch(/ demo POST \/users 200 /);
    expect(lines.join('\n')).not.toContain('body-secret');
  });

  it('names the app of a control-plane request, and "-" for none; a refused Host is logged too', async () => {
    const { m, lines } = logged('text');
    await m.call('POST', '/__admin/reset?app=other', { token: null });
    await m.call('GET', '/__admin/health', { token: null });
    await m.call('GET', '/users', { token: 'nope' });
    await m.app.request('http://evil.test/admins', { headers: { authorization: 'Bearer demo-token' } });
    expect(lines.map((l) => l.split(' ').slice(2, 6).join(' '))).toEqual(['other POST /__admin/reset 200', '- GET /__admin/health 200', '- GET /users 401', 'demo GET /admins 421']);
  });

  it('as JSON under --log-format json, with the query when asked', async () => {
    const { m, lines } = logged('json', true);
    const res = await m.call('GET', '/users?per_page=1');
    expect(JSON.parse(lines[0] as string)).toEqual({
      event: 'request',
      time: expect.stringMatching(/Z$/),
      clock: m.clock.now(),
      app: 'demo',
      method: 'GET',
      path: '/users?per_page=1',
      status: 200,
      ms: expect.any(Number),
      request_id: res.headers.get('x-request-id'),
      warnings: [],
    });
  });

  it('a path with repeated slashes is one line, as sent', async () => {
    const { m, lines } = logged('text');
    expect((await m.call('GET', '//admins')).status).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/ demo GET \/\/admins 200 .* warnings=path_normalized$/);
  });
});

describe('--log-requests (the command)', () => {
  it('prints a line per request on stdout when asked, and none by default', async () => {
    for (const [args, expected] of [[['--log-requests'], 1], [[], 0]] as const) {
      const cli = runCli(['--port', '0', '--now', '1700000000', ...args], BUILT);
      try {
        const url = await listeningUrl(cli);
        expect((await fetch(`${url}/admins`, { headers: { authorization: 'Bearer demo-token' } })).status).toBe(200);
        cli.child.kill('SIGTERM');
        expect(await cli.exited).toBe(0);
        expect(cli.output().stdout.split('\n').filter((l) => / demo GET \/admins 200 /.test(l))).toHaveLength(expected);
      } finally {
        cli.child.kill('SIGKILL');
      }
    }
  }, 30_000);
});
