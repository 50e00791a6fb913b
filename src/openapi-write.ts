// `npm run openapi`: writes the committed document, openapi/openapi.json, and the reference's
// table of query parameters (docs/reference.md), both from the route registry.

import { readFileSync, writeFileSync } from 'node:fs';
import { buildDocument, documentJson, withQueryParameterTable } from './openapi.js';

const target = new URL('../openapi/openapi.json', import.meta.url);
writeFileSync(target, documentJson(buildDocument()));
process.stdout.write(`wrote ${target.pathname}\n`);

const reference = new URL('../docs/reference.md', import.meta.url);
writeFileSync(reference, withQueryParameterTable(readFileSync(reference, 'utf8')));
process.stdout.write(`wrote the query parameter table in ${reference.pathname}\n`);
