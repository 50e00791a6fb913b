// --watch on the real command: an edited fixture file puts its app back to the new seed (and drops
// the test apps provisioned from the old one); a broken edit keeps the last good state and says
// what is wrong.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT, listeningUrl, ROOT, runCli, waitFor } from './real.js';

const root = mkdtempSync(join(tmpdir(), 'mock-watch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(process.env.MUTATION_RUN === '1')('--watch', () => {
  it('reloads an edited fixture, and keeps the last good state when the edit is broken', async () => {
    const dir = join(root, 'fixtures');
    cpSync(join(ROOT, 'fixtures'), dir, { recursive: true });
    const cli = runCli(['--port', '0', '--now', '1767312000', '--fixtures', dir, '--watch'], BUILT);
    try {
      const url = await listeningUrl(cli);
      // The watching line is written after the banner, so it may reach the pipe a moment later.
      await waitFor(() => (cli.output().stdout.includes(`  watching:   ${dir}`) ? true : undefined));
      const get = async (path: string, token = 'demo-token') => (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<any>;
      const adminName = async () => (await get('/admins/814860')).name as string;
      expect(await adminName()).toBe('Ciaran Lee');
      // State the reload throws away: a write to the app, and a test app from the old seed.
      expect((await fetch(`${url}/users`, { method: 'POST', headers: { authorization: 'Bearer demo-token', 'content-type': 'application/json' }, body: '{"user_id":"before-reload"}' })).status).toBe(200);
      expect((await fetch(`${url}/users`, { method: 'POST', headers: { authorization: 'Bearer test_watch', 'content-type': 'application/json' }, body: '{"user_id":"in-test-app"}' })).status).toBe(200);

      const file = join(dir, 'demo.json');
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      doc.admins[0].name = 'Ciara Renamed';
      writeFileSync(file, JSON.stringify(doc, null, 2));
      await waitFor(async () => ((await adminName()) === 'Ciara Renamed' ? true : undefined));
      expect(cli.output().stdout).toMatch(/fixtures: .*demo\.json changed: app "demo" is back to its new seed \(1 test app\(s\) of the old seed dropped\)\n/);
      expect((await fetch(`${url}/users?user_id=before-reload`, { headers: { authorization: 'Bearer demo-token' } })).status).toBe(404);
      expect((await fetch(`${url}/users?user_id=in-test-app`, { headers: { authorization: 'Bearer test_watch' } })).status).toBe(404);

      doc.customers[0].email = 5;
      writeFileSync(file, JSON.stringify(doc, null, 2));
      await waitFor(() => (cli.output().stderr.includes('(the app keeps its last good state)') ? true : undefined));
      expect(cli.output().stderr).toMatch(/messaging-api-mock: fixtures: .*demo\.json: customers\[0\]\.email: .* \(the app keeps its last good state\)\n/);
      expect(await adminName()).toBe('Ciara Renamed');
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
    } finally {
      cli.child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('--watch where the file system gives no change events', () => {
  it('finds the change by polling modification times', async () => {
    const { createStore } = await import('../src/setup.js');
    const { watchFixtures, POLL_MS } = await import('../src/fixture-watch.js');
    const dir = join(root, 'polled');
    cpSync(join(ROOT, 'fixtures'), dir, { recursive: true });
    const store = createStore({ fixturesDir: dir });
    const said: string[] = [];
    const watching = watchFixtures(dir, store, (line) => said.push(line), (line) => said.push(line), { events: false });
    try {
      const file = join(dir, 'other.json');
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      doc.admins[0].name = 'Polled Name';
      writeFileSync(file, JSON.stringify(doc));
      await waitFor(() => (said.length > 0 ? true : undefined), POLL_MS * 5);
      expect(said).toEqual([expect.stringMatching(/^fixtures: .*other\.json changed: app "other" is back to its new seed$/)]);
      expect(store.app('other')?.data.admins.get(doc.admins[0].id)?.name).toBe('Polled Name');
    } finally {
      watching.close();
    }
  }, 30_000);
});
