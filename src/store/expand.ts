// A fixture document as the store loads it: defaults filled in and the `generate` bulk appended.
// A pure function of the input, the seed and the first object-id counter, so its result for the
// default fixtures can be computed at build time (fixtures/expansion-cache.ts).

import type { Faker } from './faker.js';
import type { FixtureDocument, FixtureInput } from './fixture-doc.js';
import { generate } from './generate.js';
import { normalize } from './normalize.js';

export interface Expansion {
  doc: FixtureDocument;
  /** The next free object-id counter after the generated records. */
  counter: number;
}

export function expandFixture(input: FixtureInput, seed: number, faker: () => Faker, counter = 1): Expansion {
  const doc = normalize(input);
  const next = input.generate ? generate(doc, input.generate, faker(), seed, counter) : counter;
  return { doc, counter: next };
}
