// Run by `npm run build` after tsc: precompiles every schema the mock validates with into
// dist/src/schemas/validators.*.cjs (ajv standalone code), so start-up does not pay ajv's compile.

import { writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
// A CommonJS module whose module.exports is the function, with itself as .default.
import standalone from 'ajv/dist/standalone/index.js';
import { fixtureSchema } from './fixtures/schema.js';
import { ROUTES } from './resources/index.js';
import { paramsObject, type Schema } from './schemas/json-schema.js';
import { AJV_OPTIONS, COERCING_OPTIONS, PRECOMPILED_FILES, validatorKey } from './schemas/validate.js';

function write(file: string, options: typeof AJV_OPTIONS, schemas: readonly Schema[]): number {
  const ajv = new Ajv2020({ ...options, code: { source: true } });
  const exports: Record<string, string> = {};
  for (const schema of schemas) {
    const key = validatorKey(schema);
    if (exports[key]) continue;
    ajv.addSchema(schema, key);
    exports[key] = key;
  }
  writeFileSync(new URL(`./schemas/${file}`, import.meta.url), standalone.default(ajv, exports));
  return Object.keys(exports).length;
}

const plain = [fixtureSchema, ...ROUTES.flatMap((r) => [r.body, r.params && paramsObject(r.params)]).filter((s): s is Schema => s !== undefined)];
const coercing = ROUTES.map((r) => r.query).filter((s): s is Schema => s !== undefined);
const counts = [write(PRECOMPILED_FILES.plain, AJV_OPTIONS, plain), write(PRECOMPILED_FILES.coercing, COERCING_OPTIONS, coercing)];
process.stdout.write(`precompiled ${counts[0]} + ${counts[1]} validators\n`);
