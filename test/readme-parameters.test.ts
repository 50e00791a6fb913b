// The reference's (docs/reference.md) table of query parameters per operation is the registry's:
// `npm run openapi` writes it.

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { queryParameterTable, withQueryParameterTable } from '../src/openapi.js';

const REFERENCE = new URL('../docs/reference.md', import.meta.url);

it('lists in the reference exactly the query parameters each API operation takes', () => {
  const reference = readFileSync(REFERENCE, 'utf8');
  expect(withQueryParameterTable(reference) === reference, 'docs/reference.md: regenerate the table with npm run openapi').toBe(true);
  // The table is there, and rewriting it with other routes changes the reference.
  expect(reference).toContain('\n  | `GET /users` | ');
  expect(withQueryParameterTable(reference, queryParameterTable([]))).not.toBe(reference);
});

it('writes the table wherever it stands in the reference, the end included, and nothing else', () => {
  const table = queryParameterTable();
  const rows = table.split('\n').map((line) => `  ${line}`).join('\n');
  const old = '  | operation | query parameters it takes |\n  |---|---|\n  | `GET /old` | none |';
  expect(withQueryParameterTable(`Intro\n${old}\n\nAfter\n`)).toBe(`Intro\n${rows}\n\nAfter\n`);
  expect(withQueryParameterTable(`Intro\n${old}`)).toBe(`Intro\n${rows}\n`);
  expect(() => withQueryParameterTable('Intro\r\n' + old.replaceAll('\n', '\r\n'))).toThrow('CR line ends');
  expect(() => withQueryParameterTable('no table here\n')).toThrow('no query parameter table');
});
