// The reference's (docs/reference.md) table of query parameters per operation is the registry's: regenerate it with
// `npx tsx test/query-parameters.ts` when a route's query changes.

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { queryParameterTable } from './query-parameters.js';

it('lists in the reference exactly the query parameters each API operation takes', () => {
  const readme = readFileSync(new URL('../docs/reference.md', import.meta.url), 'utf8');
  const indented = queryParameterTable()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
  expect(readme.includes(`${indented}\n`), 'docs/reference.md: regenerate the table with npx tsx test/query-parameters.ts').toBe(true);
});
