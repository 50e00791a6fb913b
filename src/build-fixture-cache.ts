// Run by `npm run build` after tsc: expands every default fixture for the default seed into
// dist/fixture-cache/ (see fixtures/expansion-cache.ts), so a default start skips faker, the
// bulk generation and the fixture validation.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SEED } from './core/random.js';
import { EXPANSION_CACHE_DIR, expansionKey } from './fixtures/expansion-cache.js';
import { DEFAULT_FIXTURES_DIR } from './fixtures/files.js';
import { parseFixture } from './fixtures/validate.js';
import { expandFixture } from './fixtures/expand.js';
import { createFaker } from './fixtures/faker.js';
import { REFERENCE_TIME } from './fixtures/normalize.js';

if (EXPANSION_CACHE_DIR === undefined) throw new Error('run the built script (node dist/src/build-fixture-cache.js)');
rmSync(EXPANSION_CACHE_DIR, { recursive: true, force: true });
mkdirSync(EXPANSION_CACHE_DIR, { recursive: true });
const names = readdirSync(DEFAULT_FIXTURES_DIR).filter((n) => n.endsWith('.json'));
for (const name of names) {
  const text = readFileSync(join(DEFAULT_FIXTURES_DIR, name), 'utf8');
  const expansion = expandFixture(parseFixture(JSON.parse(text)), DEFAULT_SEED, () => createFaker(DEFAULT_SEED, REFERENCE_TIME));
  writeFileSync(join(EXPANSION_CACHE_DIR, `${expansionKey(text, DEFAULT_SEED)}.json`), JSON.stringify(expansion));
}
process.stdout.write(`expanded ${names.length} default fixtures for seed ${DEFAULT_SEED}\n`);
