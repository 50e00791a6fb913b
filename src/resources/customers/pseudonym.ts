// Lead and visitor pseudonyms in the real API's style: "<Colour> <Animal> from <City>".

import { cityNames } from '../../core/cities.js';
import type { Random } from '../../core/random.js';
import type { Faker } from '../../fixtures/faker.js';

const capitalise = (s: string): string => s.replace(/(^|\s)\p{Ll}/gu, (m) => m.toUpperCase());

export function pseudonym(faker: Faker, random: Random): string {
  return `${capitalise(faker.color.human())} ${capitalise(faker.animal.type())} from ${random.pick(cityNames())}`;
}
