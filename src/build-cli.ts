// Bundles the server's entry (dist/src/index.js) with the modules and packages it loads into
// dist/cli/, which `npm start` and the package's bin run: at start Node reads the entry and one
// shared chunk instead of resolving, reading and linking some 200 modules one by one, which was
// most of a cold start. Run by `npm run build` after tsc: `node dist/src/build-cli.js`.
//
// Every bundled module still sees its own import.meta.url (where it sits in the unbundled build),
// so what it finds by it (the fixtures, the fixture cache, the precompiled validators, the
// console, package.json, packages loaded on demand through createRequire) is found as before: the
// bundle needs dist/src/ beside it, as the package ships it.

import { build, type Plugin } from 'esbuild';
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const distSrc = dirname(fileURLToPath(import.meta.url));
export const CLI_DIR = fileURLToPath(new URL('../cli/', import.meta.url));
/** The files of the last build, so the next one keeps them (see keptFiles). */
const MANIFEST = '.outputs.json';

/** `import.meta.url` in a file bundled into `outdir` becomes the URL of the file it came from, found from the bundle's own. */
const ownUrls = (outdir: string): Plugin => ({
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const from = relative(outdir, args.path).split(sep).join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(from)}, import.meta.url).href`), loader: 'js' };
    });
  },
});

/**
 * Which files of the output directory stay: this build's and the one before's. Chunk names carry a
 * hash of their content, and a server started before a rebuild loads its docs chunk on the first
 * docs request: deleting the chunks it was built with would make that request fail. Older
 * generations go, so rebuilds do not pile up files.
 */
export function keptFiles(present: readonly string[], previous: readonly string[], current: readonly string[]): { keep: string[]; remove: string[] } {
  const keep = new Set([...previous, ...current, MANIFEST]);
  return { keep: present.filter((f) => keep.has(f)), remove: present.filter((f) => !keep.has(f)) };
}

export async function buildCli(outdir = CLI_DIR): Promise<string[]> {
  const result = await build({
    entryPoints: { index: `${distSrc}/index.js` },
    outdir,
    bundle: true,
    // The document builder (with openapi3-ts) is a chunk loaded on the first docs request, as before.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // A CommonJS module in the bundle that requires a Node built-in needs a real `require`.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // Node's own import of this CommonJS package gives its named exports, where the bundler's
    // wrapping gave only a default one; it loads with the document builder either way.
    external: ['yaml'],
    plugins: [ownUrls(outdir)],
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const current = Object.keys(result.metafile.outputs).map((f) => basename(f));
  const manifest = join(outdir, MANIFEST);
  const previous = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as string[]) : [];
  for (const file of keptFiles(readdirSync(outdir), previous, current).remove) rmSync(join(outdir, file), { force: true });
  writeFileSync(manifest, JSON.stringify(current));
  return current;
}

// Run as a script (npm run build), not imported (the tests build into a directory of their own).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) await buildCli();
