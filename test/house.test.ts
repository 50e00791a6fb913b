// The layout rules of docs/architecture.md, checked so they keep holding: no import cycle at run
// time, rules that never reach hono, an engine that knows no resource, and files and folders
// small enough to read. Each list of exceptions below is what is left to fix: a new entry fails,
// and so does an entry that no longer needs to be there, so the lists only shrink.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './real.js';

const MAX_LINES = 400;
const MAX_FILES = 20;
const SOURCE = /\.(ts|tsx|mjs)$/;

/** Files still over MAX_LINES, with the length they may not grow past. */
const LONG_FILES: Record<string, number> = {};

/** Folders still over MAX_FILES source files, with the count they may not grow past. */
const FULL_FOLDERS: Record<string, number> = {};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir))) {
    if (entry === 'node_modules') continue;
    const path = `${dir}/${entry}`;
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(entry)) out.push(path);
  }
  return out;
}

const lines = (path: string): number => readFileSync(join(ROOT, path), 'utf8').split('\n').length - 1;

describe('the house rules', () => {
  let graph: ICruiseResult;
  beforeAll(async () => {
    const result = await cruise(['src'], {
      baseDir: ROOT,
      tsPreCompilationDeps: true,
      tsConfig: { fileName: join(ROOT, 'tsconfig.json') },
      doNotFollow: { path: 'node_modules' },
      // Resolve packages through their exports maps, so a subpath import (hono/cors) is seen too.
      enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
      validate: true,
      ruleSet: {
        forbidden: [
          { name: 'no-runtime-cycle', severity: 'error', from: {}, to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } } },
          // A resource's routes, shapes, rules and views, the engine and the core work without the
          // framework: only the HTTP side (app.ts, server.ts, http/, the registry, the control
          // plane and the console's page) uses hono.
          { name: 'rules-never-reach-hono', severity: 'error', from: { path: '^src/(engine|core|fixtures|schemas|views|import|resources/[^/]+)/' }, to: { path: 'node_modules/hono', reachable: true } },
        ],
      },
    });
    graph = result.output as ICruiseResult;
  }, 60_000);

  it('has no import cycle at run time (type-only imports aside)', () => {
    const cycles = graph.summary.violations.filter((v) => v.rule.name === 'no-runtime-cycle').map((v) => `${v.from} -> ${v.to}`);
    expect(cycles).toEqual([]);
  });

  it('keeps hono out of the rules, the engine and the core', () => {
    const reached = graph.summary.violations.filter((v) => v.rule.name === 'rules-never-reach-hono').map((v) => v.from);
    expect(reached).toEqual([]);
    // The check sees hono where it is, subpath imports included: the app imports hono and hono/cors.
    const app = graph.modules.find((m) => m.source === 'src/app.ts');
    const hono = app?.dependencies.filter((d) => d.resolved.includes('node_modules/hono/')).map((d) => d.module) ?? [];
    expect(hono).toEqual(expect.arrayContaining(['hono', 'hono/cors']));
  });

  it('has an engine that reaches nothing beyond itself and the core at run time', () => {
    // What a resource keeps, it declares as data (collections, parts) in its room and state/: the engine imports none of it.
    const edges = graph.modules
      .filter((m) => m.source.startsWith('src/engine/'))
      .flatMap((m) =>
        m.dependencies
          .filter((d) => d.resolved.startsWith('src/') && !/^src\/(engine|core)\//.test(d.resolved) && !d.dependencyTypes.includes('type-only'))
          .map((d) => `${m.source} -> ${d.resolved}`),
      );
    expect(edges).toEqual([]);
    // The check sees the engine's own imports: the app core reaches the collections and the core's ids.
    const core = graph.modules.find((m) => m.source === 'src/engine/app-core.ts');
    expect(core?.dependencies.map((d) => d.resolved)).toEqual(expect.arrayContaining(['src/engine/collections.ts', 'src/core/ids.ts']));
  });

  it(`has no source file over ${MAX_LINES} lines beyond the listed ones, and those do not grow`, () => {
    const long = Object.fromEntries([...sourceFiles('src'), ...sourceFiles('ui')].map((f) => [f, lines(f)] as const).filter(([, n]) => n > MAX_LINES));
    expect(Object.keys(long).sort()).toEqual(Object.keys(LONG_FILES).sort());
    for (const [file, n] of Object.entries(long)) expect(n, file).toBeLessThanOrEqual(LONG_FILES[file] ?? MAX_LINES);
  });

  it(`has no folder of more than ${MAX_FILES} source files`, () => {
    const byFolder = new Map<string, number>();
    for (const f of [...sourceFiles('src'), ...sourceFiles('ui')]) {
      const dir = f.slice(0, f.lastIndexOf('/'));
      byFolder.set(dir, (byFolder.get(dir) ?? 0) + 1);
    }
    const full = Object.fromEntries([...byFolder].filter(([, n]) => n > MAX_FILES));
    expect(full).toEqual(FULL_FOLDERS);
  });

  it('keeps every test under test/, none beside the code', () => {
    expect([...sourceFiles('src'), ...sourceFiles('ui')].filter((f) => /\.test\.|\.spec\./.test(f))).toEqual([]);
  });
});
