// Building a store from a fixture directory: shared by the CLI, the in-process API and the tests.

import { Clock } from './core/clock.js';
import { DEFAULT_FIXTURES_DIR, loadFixtureDir } from './fixtures/files.js';
import type { AppLimits } from './store/app-state.js';
import { Store } from './store/store.js';

export interface StoreSetup {
  seed?: number;
  /** A fixture directory; defaults to the project's own fixtures/. */
  fixturesDir?: string;
  clock?: Clock;
  rateLimit?: number;
  jobDelaySeconds?: number;
  testApps?: boolean;
  maxTestApps?: number;
  testAppIdleSeconds?: number;
  journalSize?: number;
  limits?: Partial<AppLimits>;
}

export function createStore(setup: StoreSetup = {}): Store {
  const { fixturesDir, seed, clock, ...rest } = setup;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return new Store({ ...defined, seed: seed ?? 1, clock: clock ?? new Clock(), fixtures: loadFixtureDir(fixturesDir ?? DEFAULT_FIXTURES_DIR) });
}
