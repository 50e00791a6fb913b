// Deterministic random choices for tests that drive many random steps: a failure replays from its
// seed. The mock's own seeded stream (core/random.ts), not a second generator.
import { Random } from '../src/core/random.js';

/** Each call picks an integer in [0, n). */
export function generator(seed: number): (n: number) => number {
  const random = new Random(seed);
  return (n) => random.int(n);
}
