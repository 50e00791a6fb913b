// One Faker per store, never the library's global instance. Only the English locale is loaded
// (the full package costs ~200 ms at start-up), and only when a store first needs it: the default
// fixtures start from their build-time expansion (fixtures/expansion-cache.ts), so a plain start
// never loads faker (~20 ms). The load is synchronous (require of an ES module, Node >= 20.19)
// because the store's API is. The constructor is taken from the English instance because the
// locale entry point does not export it by name.

import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';

export type { Faker };

const requireHere = createRequire(import.meta.url);

export function createFaker(seed: number, refTime: number): Faker {
  const { faker: english } = requireHere('@faker-js/faker/locale/en') as typeof import('@faker-js/faker/locale/en');
  const FakerClass = english.constructor as typeof Faker;
  const faker = new FakerClass({ locale: english.rawDefinitions });
  faker.seed(seed);
  faker.setDefaultRefDate(new Date(refTime * 1000));
  return faker;
}
