// What `npm run mutate` (StrykerJS) runs: the 'mock' project of vitest.config.ts, without the tests
// that start processes or listen on sockets. Those run the built or unmutated server in a child
// process, so they cannot kill a mutant; they only slow every run.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const mock = base.test?.projects?.find((p) => typeof p === 'object' && 'test' in p && p.test?.name === 'mock');
if (!mock || typeof mock !== 'object' || !('test' in mock) || !mock.test) throw new Error("vitest.config.ts has no 'mock' project");

export default defineConfig({
  test: {
    ...mock.test,
    name: 'mutate',
    // Instrumented code runs several times slower: the 1 MB adversarial inputs need the room.
    testTimeout: 120_000,
    exclude: [...(mock.test.exclude ?? []), 'test/server.test.ts', 'test/exposure.test.ts', 'test/browser/**', '.stryker-tmp/**'],
  },
});
