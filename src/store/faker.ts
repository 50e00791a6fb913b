// One Faker per store, never the library's global instance. Only the English locale is loaded
// (the full package costs ~200 ms at start-up); the constructor is taken from the English instance
// because the locale entry point does not export it by name.

import type { Faker } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';

export type { Faker };

export function createFaker(seed: number, refTime: number): Faker {
  const FakerClass = english.constructor as typeof Faker;
  const faker = new FakerClass({ locale: english.rawDefinitions });
  faker.seed(seed);
  faker.setDefaultRefDate(new Date(refTime * 1000));
  return faker;
}
