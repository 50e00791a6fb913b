// What the CLI prints while a big seed runs (at start-up, POST /__admin/seed, a --watch reload):
// where it stands, at most one line a second, so a seed that is quick prints nothing.

import type { Progress } from './engine/steps.js';

/** The least time between two progress lines of one seed. */
export const PROGRESS_EVERY_MS = 1000;

/** A reporter per seed: `printer(app)` is told each pause place of that app's seed. */
export function seedProgressPrinter(format: 'text' | 'json', write: (line: string) => void, now: () => number = () => performance.now()): (app: string) => (p: Progress) => void {
  return (app) => {
    let last = now();
    return (p) => {
      const t = now();
      if (t - last < PROGRESS_EVERY_MS) return;
      last = t;
      if (format === 'json') write(JSON.stringify({ event: 'seeding', app, phase: p.phase, done: p.done, total: p.total }));
      else write(`seeding "${app}": ${p.phase} ${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')}`);
    };
  };
}
