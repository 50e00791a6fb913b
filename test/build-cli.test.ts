// The bundle `npm start` runs (src/build-cli.ts): a rebuild keeps the files of the build before it,
// so a server started from that build still finds the chunk it loads on its first docs request.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './real.js';

type BuildCli = typeof import('../src/build-cli.js');
const built = (): Promise<BuildCli> => import(join(ROOT, 'dist/src/build-cli.js')) as Promise<BuildCli>;

describe('the bundled entry\'s build', () => {
  it('keeps this build\'s files and the last one\'s, and removes older ones', async () => {
    const { keptFiles } = await built();
    const present = ['index.js', 'chunk-NEW.js', 'chunk-LAST.js', 'chunk-OLDER.js', 'notes.txt', '.outputs.json'];
    expect(keptFiles(present, ['index.js', 'chunk-LAST.js'], ['index.js', 'chunk-NEW.js'])).toEqual({
      keep: ['index.js', 'chunk-NEW.js', 'chunk-LAST.js', '.outputs.json'],
      remove: ['chunk-OLDER.js', 'notes.txt'],
    });
  });

  it('a rebuild leaves the chunks the last build named, the one after removes them', { timeout: 60_000 }, async () => {
    const { buildCli } = await built();
    const dir = mkdtempSync(join(tmpdir(), 'mock-cli-build-'));
    try {
      const first = await buildCli(dir);
      expect(first).toContain('index.js');
      // The code the entries share, and the bundler's helpers all three entries use.
      expect(first.filter((f) => /^chunk-\w+\.js$/.test(f))).toHaveLength(2);
      expect(first.filter((f) => /^openapi-\w+\.js$/.test(f))).toHaveLength(1);
      // --tls's certificate maker, loaded only when it has to make one.
      expect(first.filter((f) => /^local-ca-\w+\.js$/.test(f))).toHaveLength(1);
      // As if the last build had named other chunks (a source changed since): they stay one build more.
      writeFileSync(join(dir, '.outputs.json'), JSON.stringify(['index.js', 'openapi-LAST.js']));
      writeFileSync(join(dir, 'openapi-LAST.js'), '');
      writeFileSync(join(dir, 'chunk-OLDER.js'), '');
      const second = await buildCli(dir);
      expect(second).toEqual(first);
      expect(readdirSync(dir).sort()).toEqual([...first, '.outputs.json', 'openapi-LAST.js'].sort());
      expect(JSON.parse(readFileSync(join(dir, '.outputs.json'), 'utf8'))).toEqual(first);
      await buildCli(dir);
      expect(existsSync(join(dir, 'openapi-LAST.js'))).toBe(false);
      expect(readdirSync(dir).sort()).toEqual([...first, '.outputs.json'].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
