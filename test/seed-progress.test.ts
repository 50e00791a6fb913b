// A long seed says where it stands on the command line: a fixture seeded at start-up, and a POST
// /__admin/seed while the mock serves, each print "seeding" lines at most once a second.

import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedProgressPrinter } from '../src/seed-progress-log.js';
import { BUILT, listeningUrl, ROOT, runCli } from './real.js';

const root = mkdtempSync(join(tmpdir(), 'mock-seed-progress-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the progress printer', () => {
  it('prints a line once a second of a seed has passed, then at most one a second', () => {
    let now = 5000;
    const lines: string[] = [];
    const report = seedProgressPrinter('text', (l) => lines.push(l), () => now)('big');
    report({ phase: 'generating users', done: 500, total: 40000 });
    now = 5999;
    report({ phase: 'generating users', done: 1000, total: 40000 });
    expect(lines).toEqual([]);
    now = 6000;
    report({ phase: 'generating users', done: 12500, total: 40000 });
    now = 6500;
    report({ phase: 'indexing customers', done: 500, total: 40000 });
    now = 7000;
    report({ phase: 'indexing customers', done: 30000, total: 40000 });
    expect(lines).toEqual(['seeding "big": generating users 12,500 of 40,000', 'seeding "big": indexing customers 30,000 of 40,000']);
  });

  it('gives each seed its own second, and JSON lines with --log-format json', () => {
    let now = 0;
    const lines: string[] = [];
    const printer = seedProgressPrinter('json', (l) => lines.push(l), () => now);
    const first = printer('big');
    now = 1500;
    first({ phase: 'generating users', done: 500, total: 1000 });
    // A new seed started now: its first second has not passed.
    const second = printer('big');
    second({ phase: 'generating users', done: 500, total: 1000 });
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ event: 'seeding', app: 'big', phase: 'generating users', done: 500, total: 1000 }]);
  });
});

describe.skipIf(process.env.MUTATION_RUN === '1')('seeding progress on the command line', () => {
  it('prints where a big fixture stands at start-up, and where a big POST /__admin/seed stands', async () => {
    const dir = join(root, 'fixtures');
    cpSync(join(ROOT, 'fixtures'), dir, { recursive: true });
    // Big enough to take well over a second to generate and index.
    writeFileSync(join(dir, 'big.json'), JSON.stringify({ app: { id: 'big', tokens: ['big-token'] }, generate: { users: 40000 } }));
    const cli = runCli(['--port', '0', '--fixtures', dir], BUILT);
    try {
      const url = await listeningUrl(cli);
      const atStart = cli.output().stdout;
      const banner = atStart.indexOf('listening on');
      expect(atStart.slice(0, banner)).toMatch(/^seeding "big": (generating users|checking customers|indexing|indexing customers|counting customers) [\d,]+ of [\d,]+$/m);
      const seeded = await fetch(`${url}/__admin/seed`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ app: { id: 'big', tokens: ['big-token'] }, generate: { users: 40000, leads: 100 } }),
      });
      expect(seeded.status).toBe(200);
      const later = cli.output().stdout.slice(atStart.length);
      expect(later).toMatch(/^seeding "big": [a-z ]+ [\d,]+ of [\d,]+$/m);
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
    } finally {
      cli.child.kill('SIGKILL');
    }
  }, 90_000);
});
