// Bundles the live console (ui/main.tsx and ui/console.css) with esbuild into static files the mock
// serves at /__admin/ui: `node ui/build.mjs [outdir]` (npm run build writes dist/console).

import { build } from 'esbuild';
import process from 'node:process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function buildConsole(outdir = join(here, '..', 'dist', 'console')) {
  await build({
    entryPoints: { console: join(here, 'main.tsx') },
    outdir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  await build({ entryPoints: { console: join(here, 'console.css') }, outdir, bundle: true, minify: true, logLevel: 'warning' });
  return outdir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildConsole(process.argv[2] ? resolve(process.argv[2]) : undefined);
}
