import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    // Vitest's default leaves one of the machine's two CPUs idle: both run files (the suite
    // spends much of its time waiting on sockets, processes and the browser).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'mock',
          include: ['test/**/*.test.ts'],
          exclude: ['test/bench/**', 'test/example/**', 'node_modules/**'],
          pool: 'threads',
          // Files of a worker share one module graph: each file used to import the app and compile
          // its validators again, which took more of the suite's time than the tests themselves.
          // Every test builds its own store and app, so no state crosses files.
          isolate: false,
          setupFiles: ['test/setup-level-key.ts'],
          testTimeout: 20_000,
        },
      },
      {
        // The README's in-process example, exactly as a user would set it up.
        test: {
          name: 'readme-example',
          include: ['test/example/*.test.ts'],
          globalSetup: ['test/example/global-setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
