// Builds the single executable (Node's single executable applications) into dist/binary/: one
// CommonJS bundle of the server and every package it loads, the files it reads beside its code as
// embedded assets (shipped.ts), and this Node binary around them, plus a SHA-256 file. Runs after
// `npm run build` (it bundles dist/src/): `npm run build:binary`. It makes an executable for the
// platform it runs on (linux-x64 here); docs/distribution.md says how to make one elsewhere.

import { build, type Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MANIFEST_KEY, SHIPPED_ROOT } from './shipped.js';

const distSrc = dirname(fileURLToPath(import.meta.url));
const ROOT = join(distSrc, '..', '..');
export const BINARY_DIR = join(ROOT, 'dist', 'binary');
export const BINARY_NAME = `messaging-api-mock-${process.platform}-${process.arch}`;
/** The fuse Node's binary carries for an injected application (Node's documentation). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * What a module loads through createRequire (found on disk when the package runs) is bundled into
 * the executable: each rewrite turns such a call into a plain require the bundler follows. A
 * pattern that is no longer in its file fails the build rather than the executable.
 */
const REWRITES: Record<string, [string, string][]> = {
  'fixtures/faker.js': [["requireHere('@faker-js/faker/locale/en')", "require('@faker-js/faker/locale/en')"]],
  'schemas/validate.js': [
    ['requireHere(`./${file}`)', "({ 'validators.plain.cjs': () => require('./validators.plain.cjs'), 'validators.coercing.cjs': () => require('./validators.coercing.cjs') })[file]()"],
    ["requireHere('ajv/dist/2020.js')", "require('ajv/dist/2020.js')"],
  ],
};

/** Every module's import.meta.url is where it sits in the project, under SHIPPED_ROOT. */
const embedded: Plugin = {
  name: 'embedded',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
      let text = await readFile(args.path, 'utf8');
      const own = relative(distSrc, args.path).split(sep).join('/');
      for (const [from, to] of REWRITES[own] ?? []) {
        if (!text.includes(from)) throw new Error(`build-binary: ${own} no longer holds ${from}`);
        text = text.replace(from, to);
      }
      if (!text.includes('import.meta.url') && !REWRITES[own]) return undefined;
      const url = `file://${SHIPPED_ROOT}${relative(ROOT, args.path).split(sep).join('/')}`;
      return { contents: text.replaceAll('import.meta.url', JSON.stringify(url)), loader: 'js' };
    });
  },
};

/** The files the executable carries, by directory under the project root (shipped.ts reads them). */
function assets(): { manifest: Record<string, string[]>; files: Record<string, string> } {
  const uiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const dirs: Record<string, [string, (name: string) => boolean]> = {
    fixtures: [join(ROOT, 'fixtures'), (n) => n.endsWith('.json')],
    'dist/fixture-cache': [join(ROOT, 'dist', 'fixture-cache'), (n) => n.endsWith('.json')],
    'dist/console': [join(ROOT, 'dist', 'console'), () => true],
    'swagger-ui': [uiDir, (n) => ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'].includes(n)],
  };
  const manifest: Record<string, string[]> = { '': ['package.json'] };
  const files: Record<string, string> = {};
  for (const [key, [dir, wanted]] of Object.entries(dirs)) {
    manifest[key] = readdirSync(dir).filter((n) => wanted(n) && statSync(join(dir, n)).isFile()).sort();
    for (const name of manifest[key]) files[`${key}/${name}`] = join(dir, name);
  }
  return { manifest, files };
}

export interface BinaryReport {
  path: string;
  bytes: number;
  sha256: string;
  ms: number;
}

export async function buildBinary(outDir = BINARY_DIR): Promise<BinaryReport> {
  const started = performance.now();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const main = join(outDir, 'main.cjs');
  await build({
    entryPoints: [join(distSrc, 'index.js')],
    outfile: main,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    plugins: [embedded],
    legalComments: 'none',
    logLevel: 'error',
  });
  const { manifest, files } = assets();
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const packageFile = join(outDir, 'package.json');
  writeFileSync(packageFile, JSON.stringify({ name: pkg.name, version: pkg.version }));
  const manifestFile = join(outDir, MANIFEST_KEY);
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const blob = join(outDir, 'sea-prep.blob');
  const config = join(outDir, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      main,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      assets: { ...files, 'package.json': packageFile, [MANIFEST_KEY]: manifestFile },
    }),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  const binary = join(outDir, BINARY_NAME);
  copyFileSync(realpathSync(process.execPath), binary);
  chmodSync(binary, 0o755);
  const { inject } = createRequire(import.meta.url)('postject') as { inject: (file: string, name: string, data: Buffer, options: { sentinelFuse: string }) => Promise<void> };
  await inject(binary, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE });
  for (const made of [main, blob, config, packageFile, manifestFile]) rmSync(made);
  const sha256 = createHash('sha256').update(readFileSync(binary)).digest('hex');
  writeFileSync(`${binary}.sha256`, `${sha256}  ${BINARY_NAME}\n`);
  return { path: binary, bytes: statSync(binary).size, sha256, ms: performance.now() - started };
}

// Run as a script (npm run build:binary), not imported (the test builds into a directory of its own).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const report = await buildBinary();
  process.stdout.write(`built ${relative(process.cwd(), report.path)}: ${(report.bytes / 1024 / 1024).toFixed(1)} MiB, sha256 ${report.sha256} (${(report.ms / 1000).toFixed(1)} s)\n`);
}
