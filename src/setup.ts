// Building a store from a fixture directory: shared by the CLI, the in-process API and the tests.

import { Clock } from './core/clock.js';
import { DEFAULT_SEED } from './core/random.js';
import { DEFAULT_FIXTURES_DIR, loadFixtureDir } from './fixtures/files.js';
import { Store, type StoreOptions } from './state/store.js';

/** The store's options, with the fixtures read from a directory and every member optional. */
export interface StoreSetup extends Partial<Omit<StoreOptions, 'fixtures'>> {
  /** A fixture directory; defaults to the project's own fixtures/. */
  fixturesDir?: string | undefined;
}

export function createStore(setup: StoreSetup = {}): Store {
  const { fixturesDir, seed, clock, ...rest } = setup;
  // An option given as undefined (an unset CLI flag) falls back to the store's default.
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  const storeSeed = seed ?? DEFAULT_SEED;
  return new Store({ ...defined, seed: storeSeed, clock: clock ?? new Clock(), fixtures: loadFixtureDir(fixturesDir ?? DEFAULT_FIXTURES_DIR, storeSeed) });
}
