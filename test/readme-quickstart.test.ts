// The README's curl commands, run as written against the built server (`npm run build` first):
// the quick start's GET and POST, the 415 the README promises for a POST without its
// Content-Type, the journal query of Troubleshooting and the reset. Only the port is changed.

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT, listeningUrl, ROOT, spawnLogged, type Spawned } from './real.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DEFAULT_URL = 'http://127.0.0.1:4010';
const hasCurl = spawnSync('curl', ['--version']).status === 0;

/** The commands of the first sh block holding a curl, continuation lines joined. */
function quickStartCurls(): string[] {
  const block = /```sh\n((?:(?!```)[\s\S])*?curl[\s\S]*?)```/.exec(README)?.[1] ?? '';
  return block.replace(/\\\n\s*/g, '').split('\n').filter((line) => line.startsWith('curl '));
}

/** An inline `curl …` of the README that names the default address and contains `marker`. */
function inlineCurl(marker: string): string {
  const found = [...README.matchAll(/`(curl [^`]+)`/g)].map((m) => m[1]!).find((c) => c.includes(DEFAULT_URL) && c.includes(marker));
  expect(found, `README: an inline curl with ${marker}`).toBeDefined();
  return found!;
}

describe.skipIf(!hasCurl)("the README's curl commands", () => {
  let cli: Spawned;
  let url: string;
  const run = (command: string): unknown => JSON.parse(execFileSync('sh', ['-c', command.replaceAll(DEFAULT_URL, url)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));

  beforeAll(async () => {
    cli = spawnLogged(process.execPath, [...BUILT, '--port', '0', '--now', '1700000000']);
    url = await listeningUrl(cli);
  }, 30_000);
  afterAll(async () => {
    cli.child.kill('SIGTERM');
    await cli.exited;
  });

  it('quick start: the GET lists the admins, the POST with its Content-Type creates the user', () => {
    const [get, post, ...rest] = quickStartCurls();
    expect(rest).toEqual([]);
    expect(run(get!)).toMatchObject({ type: 'admin.list' });
    expect(run(post!)).toMatchObject({ type: 'user', user_id: 'new-1', email: 'new@example.com' });
  });

  it('the same POST without the Content-Type header is the 415 the README quotes', () => {
    const post = quickStartCurls()[1]!;
    const bare = post.replace(" -H 'Content-Type: application/json'", '');
    expect(bare).not.toBe(post);
    const body = run(bare) as { errors: { code: string; message: string }[] };
    expect(body.errors).toEqual([{ code: 'unsupported_media_type', message: 'Request bodies must be JSON (Content-Type: application/json), not "application/x-www-form-urlencoded".' }]);
    expect(README.replace(/\s+/g, ' ')).toContain(`"${body.errors[0]!.message}"`);
  });

  it("troubleshooting's journal query shows the requests, and the quick start's reset forgets the user", () => {
    const journal = run(inlineCurl('/__admin/requests')) as { requests: { method: string; path: string; status: number }[] };
    expect(journal.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /admins 200', 'POST /users 200', 'POST /users 415']);
    expect(run(inlineCurl('/__admin/reset'))).toEqual({ reset: ['demo', 'other'] });
    const after = run(`curl -s -H 'Authorization: Bearer demo-token' '${DEFAULT_URL}/users?user_id=new-1'`);
    expect(after).toMatchObject({ type: 'error.list', errors: [{ code: 'not_found', message: 'User Not Found' }] });
  });
});
