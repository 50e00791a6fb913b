// `npm run openapi`: writes the committed document, openapi/openapi.json, and the reference's
// table of query parameters (docs/reference.md), both from the route registry.

import { readFileSync, writeFileSync } from 'node:fs';
import { buildDocument, documentJson, withQueryParameterTable } from './openapi.js';

const target = new URL('../openapi/openapi.json', import.meta.url);
const reference = new URL('../docs/reference.md', import.meta.url);
// Both made before either is written, so a reference the table cannot be placed in changes nothing.
const document = documentJson(buildDocument());
const referenceText = withQueryParameterTable(readFileSync(reference, 'utf8'));
writeFileSync(target, document);
process.stdout.write(`wrote ${target.pathname}\n`);
writeFileSync(reference, referenceText);
process.stdout.write(`wrote the query parameter table in ${reference.pathname}\n`);
