// Bundles the server's entry (dist/src/index.js) with the modules and packages it loads into
// dist/cli/, which `npm start` and the package's bin run: a few files to read and compile instead
// of some 200 modules to resolve, stat, read and link one by one, which was most of a cold start.
// Run by `npm run build` after tsc: `node dist/src/build-cli.js`.
//
// Every bundled module still sees its own import.meta.url (where it sits in the unbundled build),
// so what it finds by it (the fixtures, the fixture cache, the precompiled validators, the
// console, package.json, packages loaded on demand through createRequire) is found as before.

import { build, type Plugin } from 'esbuild';
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const distSrc = dirname(fileURLToPath(import.meta.url));
export const CLI_DIR = fileURLToPath(new URL('../cli/', import.meta.url));

/** `import.meta.url` in a bundled file becomes the URL of the file it came from, found from the bundle's own. */
const ownUrls: Plugin = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const from = relative(CLI_DIR, args.path).split(sep).join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(from)}, import.meta.url).href`), loader: 'js' };
    });
  },
};

export async function buildCli(): Promise<void> {
  // Chunk names carry a hash of their content: a rebuild would otherwise leave the old ones beside.
  rmSync(CLI_DIR, { recursive: true, force: true });
  await build({
    entryPoints: { index: `${distSrc}/index.js` },
    outdir: CLI_DIR,
    bundle: true,
    // The document builder and the YAML writer load on the first docs request, as before: chunks.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // A CommonJS module in the bundle that requires a Node built-in needs a real `require`.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // Loaded on the first YAML request: Node's own import gives its named exports, where the
    // bundler's wrapping of this CommonJS build gave only a default one.
    external: ['yaml'],
    plugins: [ownUrls],
    legalComments: 'none',
    logLevel: 'warning',
  });
}

await buildCli();
