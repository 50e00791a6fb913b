// `npm run openapi`: writes the committed document, openapi/openapi.json.

import { writeFileSync } from 'node:fs';
import { buildDocument, documentJson } from './openapi.js';

const target = new URL('../openapi/openapi.json', import.meta.url);
writeFileSync(target, documentJson(buildDocument()));
process.stdout.write(`wrote ${target.pathname}\n`);
