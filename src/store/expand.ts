// A fixture document as the store loads it: defaults filled in and the `generate` bulk appended.
// A pure function of the input, the seed and the first object-id counter, so its result for the
// default fixtures can be computed at build time (fixtures/expansion-cache.ts).

import type { Faker } from './faker.js';
import type { FixtureDocument, FixtureInput } from './fixture-doc.js';
import { runSteps, type Steps } from '../core/steps.js';
import { generateSteps, type Taken } from './generate.js';
import { normalize } from './normalize.js';

export interface Expansion {
  doc: FixtureDocument;
  /** The next free object-id counter after the generated records. */
  counter: number;
}

/**
 * `taken`: identifiers of the app a merge lands in, which generated records must not reuse;
 * `partsCap`: the most parts generation may add (it stops with a FixtureError past it).
 */
export function expandFixture(input: FixtureInput, seed: number, faker: () => Faker, counter = 1, taken?: Taken, partsCap?: number): Expansion {
  return runSteps(expandSteps(input, seed, faker, counter, taken, partsCap));
}

/** `expandFixture`, pausing every few hundred generated records. */
export function* expandSteps(input: FixtureInput, seed: number, faker: () => Faker, counter = 1, taken?: Taken, partsCap?: number): Steps<Expansion> {
  const doc = yield* normalize(input);
  const next = input.generate ? yield* generateSteps(doc, input.generate, faker(), seed, counter, taken, partsCap) : counter;
  return { doc, counter: next };
}
