// What `npm run mutate` (StrykerJS) runs: the 'mock' project of vitest.config.ts, without the tests
// that start the built server in a child process (it runs unmutated code, so they cannot kill a
// mutant, and dist/ is not copied into Stryker's sandbox) and without test/hardening: its property tests assert
// invariants (no 5xx, nothing changed by a rejection), not values, and cost more per mutant than
// every other test together, so the score counts only the tests that pin behaviour.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const mock = base.test?.projects?.find((p) => typeof p === 'object' && 'test' in p && p.test?.name === 'mock');
if (!mock || typeof mock !== 'object' || !('test' in mock) || !mock.test) throw new Error("vitest.config.ts has no 'mock' project");

// MUTATE_TESTS="a.test.ts b.test.ts" (spaces or commas) narrows a run to those files: for code every request reaches
// (the journal, the fixture loader), where each surviving mutant would otherwise cost the whole
// suite. A narrowed score is a lower bound: a mutant only another file kills counts as survived.
const narrowed = process.env.MUTATE_TESTS?.split(/[\s,]+/).filter((f) => f !== '');

export default defineConfig({
  test: {
    ...mock.test,
    ...(narrowed?.length ? { include: narrowed } : {}),
    name: 'mutate',
    // Instrumented code runs several times slower: the 1 MB adversarial inputs need the room.
    testTimeout: 120_000,
    // One module graph for all test files: a mutant run imports the app once, not once per file.
    isolate: false,
    exclude: [
      ...(mock.test.exclude ?? []),
      ...['server', 'exposure', 'lifecycle', 'ready', 'package', 'readme-quickstart'].map((f) => `test/${f}.test.ts`),
      'test/browser/**',
      'test/hardening/**',
      '.stryker-tmp/**',
    ],
    // Files mixing in-process tests with real-process ones skip the latter (dist/ is not in the sandbox).
    env: { MUTATION_RUN: '1' },
  },
});
