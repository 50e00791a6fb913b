// The reference's (docs/reference.md) endpoint index and table of query parameters per operation
// are the registry's: `npm run openapi` writes them.

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { endpointTable, queryParameterTable, withEndpointTable, withQueryParameterTable } from '../src/openapi.js';
import { ROUTES } from '../src/resources/index.js';

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

it('indexes in the reference every API operation as the registry declares it', () => {
  const reference = readFileSync(REFERENCE, 'utf8');
  expect(withEndpointTable(reference) === reference, 'docs/reference.md: regenerate the endpoint index with npm run openapi').toBe(true);
  expect(reference).toContain('\n| `GET /users/{id}` | Fetch a user by id | all | 200 | `not_found` |\n');
  expect(reference).toContain('\n| `POST /customers/search` | Search users and leads (Intercom-Version: Unstable) | Unstable on | 200 |');
  // The errors every operation can answer are not repeated on each row; an operation the API never had shows the 404 it answers.
  expect(reference).toContain('\n| `GET /users` | List users, or find them by user_id or email | all | 200 | `bad_request`, `not_found`, `conflict` |\n');
  expect(reference).toMatch(/\n\| `DELETE \/companies\/\{id\}` \| [^|]+ \| all \| 404 \|/);
  const table = endpointTable();
  expect(table.split('\n')).toHaveLength(2 + ROUTES.filter((r) => r.scope === 'app').length);
  expect(withEndpointTable(reference, endpointTable([]))).not.toBe(reference);
  expect(() => withEndpointTable('no table here\n')).toThrow('no endpoint table');
});
