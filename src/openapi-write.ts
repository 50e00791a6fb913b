// `npm run openapi`: writes the committed document, openapi/openapi.json, and the reference's
// endpoint index and table of query parameters (docs/reference.md), all from the route registry.

import { readFileSync, writeFileSync } from 'node:fs';
import { buildDocument, documentJson, withGeneratedTables } from './openapi.js';

const target = new URL('../openapi/openapi.json', import.meta.url);
const reference = new URL('../docs/reference.md', import.meta.url);
// Both made before either is written, so a reference a table cannot be placed in changes nothing.
const document = documentJson(buildDocument());
const referenceText = withGeneratedTables(readFileSync(reference, 'utf8'));
writeFileSync(target, document);
process.stdout.write(`wrote ${target.pathname}\n`);
writeFileSync(reference, referenceText);
process.stdout.write(`wrote the endpoint index and the query parameter table in ${reference.pathname}\n`);
