// The README's vitest example, run as part of the suite: one mock for the whole run.

import type { TestProject } from 'vitest/node';
import { startMockServer, type MockServer } from '../../src/lib.js';

let mock: MockServer;

export async function setup(project: TestProject) {
  mock = await startMockServer({ port: 0, seed: 42 });
  project.provide('mockUrl', mock.url);
}

export async function teardown() {
  await mock.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}
