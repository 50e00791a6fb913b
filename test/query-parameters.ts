// The reference's (docs/reference.md) table of the query parameters each API operation takes, made from the route
// registry (the same definitions that validate requests), so it cannot drift: a test compares it
// with docs/reference.md. `npx tsx test/query-parameters.ts` prints it.

import { pathToFileURL } from 'node:url';
import { ROUTES } from '../src/resources/index.js';

export function queryParameterTable(): string {
  const rows = ROUTES.filter((r) => r.scope === 'app').map((r) => {
    const names = Object.keys(r.query?.properties ?? {});
    const required = new Set(r.query?.required ?? []);
    const shown = names.map((n) => `\`${n}\`${required.has(n) ? ' (required)' : ''}`).join(', ');
    return `| \`${r.method} ${r.path}\` | ${shown || 'none'} |`;
  });
  return ['| operation | query parameters it takes |', '|---|---|', ...rows].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${queryParameterTable()}\n`);
}
