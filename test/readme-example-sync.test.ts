// The README's vitest example is the code of test/example/, which the suite runs (the
// 'readme-example' project of vitest.config.ts): the same text but for the header comment and the
// import, which names the package there and src/lib.js here. So the example cannot rot.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './real.js';

// The guide's examples and the reference's (the webhooks example sits with the webhooks rules).
const README = `${readFileSync(join(ROOT, 'README.md'), 'utf8')}\n${readFileSync(join(ROOT, 'docs', 'reference.md'), 'utf8')}`;

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

it("the README's vitest.config.mts uses that global set-up, as the suite's project does", () => {
  expect(README).toContain("```ts\n// vitest.config.mts\nimport { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { globalSetup: ['./global-setup.ts'] } });\n```\n");
  expect(readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8')).toContain("globalSetup: ['test/example/global-setup.ts']");
});

it("the README's config loads without a warning in a project whose package.json has no \"type\": \"module\"", () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-vitest-recipe-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{"name":"a-cjs-project","version":"1.0.0"}');
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const config = /```ts\n\/\/ vitest\.config\.mts\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
    // The recipe's config without its global set-up, which needs the package installed.
    writeFileSync(join(dir, 'vitest.config.mts'), config.replace("globalSetup: ['./global-setup.ts']", ''));
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--passWithNoTests'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const out = `${run.stdout}${run.stderr}`;
    expect(run.status, out).toBe(0);
    expect(out).toContain('No test files found');
    expect(out).not.toContain('(!)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
