// The README's vitest example is the code of test/example/, which the suite runs (the
// 'readme-example' project of vitest.config.ts): the same text but for the header comment and the
// import, which names the package there and src/lib.js here. So the example cannot rot.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './real.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

it.each([
  ['global-setup.ts', 'global-setup.ts'],
  ['users.test.ts', 'users.example.test.ts'],
  ['webhooks.test.ts', 'webhooks.example.test.ts'],
])("the README's %s is test/example/%s", (shown, file) => {
  const code = readFileSync(join(ROOT, 'test', 'example', file), 'utf8')
    .replace(/^(\/\/.*\n)+\n/, '')
    .replaceAll("'../../src/lib.js'", "'messaging-api-mock'");
  expect(README).toContain(`\`\`\`ts\n// ${shown}\n${code}\`\`\`\n`);
});

it("the README's vitest.config.ts uses that global set-up, as the suite's project does", () => {
  expect(README).toContain("```ts\n// vitest.config.ts\nimport { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { globalSetup: ['./global-setup.ts'] } });\n```\n");
  expect(readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8')).toContain("globalSetup: ['test/example/global-setup.ts']");
});
