// Building a store from a fixture directory: shared by the CLI, the in-process API and the tests.

import { Clock } from './core/clock.js';
import { DEFAULT_FIXTURES_DIR, loadFixtureDir } from './fixtures/files.js';
import { Store } from './store/store.js';

export interface StoreSetup {
  seed?: number;
  /** A fixture directory; defaults to the project's own fixtures/. */
  fixturesDir?: string;
  clock?: Clock;
  rateLimit?: number;
  jobDelaySeconds?: number;
}

export function createStore(setup: StoreSetup = {}): Store {
  const fixtures = loadFixtureDir(setup.fixturesDir ?? DEFAULT_FIXTURES_DIR);
  return new Store({
    seed: setup.seed ?? 1,
    clock: setup.clock ?? new Clock(),
    fixtures,
    ...(setup.rateLimit === undefined ? {} : { rateLimit: setup.rateLimit }),
    ...(setup.jobDelaySeconds === undefined ? {} : { jobDelaySeconds: setup.jobDelaySeconds }),
  });
}
