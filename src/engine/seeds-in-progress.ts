// Seeds that run in slices (POST /__admin/seed, a --watch reload). While one runs, other apps are
// served; requests to the app being seeded wait for it, so each sees the app wholly before or
// wholly after the seed, and a seed never lands on state that changed under it.

import { runStepsSliced, type Progress, type Steps } from './steps.js';

export interface SeedProgress extends Progress {
  app: string;
}

/** Called as a seed of `app` starts; the function it gives is told where that seed stands. */
export type SeedReporter = (app: string) => (p: Progress) => void;

interface Running {
  done: Promise<void>;
  progress: Progress | null;
}

/**
 * Where a seed stands before its first slice reports; not seen in practice, since the first slice
 * runs before the seed is listed.
 */
// Stryker disable next-line ObjectLiteral,StringLiteral: equivalent, never read (above)
const STARTING: Progress = { phase: 'starting', done: 0, total: 0 };

export class SeedsInProgress {
  private readonly running = new Map<string, Running>();
  /** The tokens of the documents being seeded, with their app: a new app's token waits for it too. */
  private readonly tokens = new Map<string, string>();

  /** Made at the start of each seed and told each of its pause places (the CLI prints some). */
  reporter: SeedReporter | undefined;

  /** Settles when the app's seed in progress is in place (or refused); undefined when none runs. */
  of(appId: string): Promise<void> | undefined {
    return this.running.get(appId)?.done;
  }

  /** The seed in progress of the app a document being seeded gives this token, if any. */
  ofToken(token: string): Promise<void> | undefined {
    const app = this.tokens.get(token);
    // Stryker disable next-line ConditionalExpression: the variant that survives, the test forced false, is equivalent: of() names no seed of an absent app either
    return app === undefined ? undefined : this.of(app);
  }

  /** Settles when every seed now in progress is; undefined when none runs. */
  all(): Promise<void> | undefined {
    if (this.running.size === 0) return undefined;
    return Promise.all([...this.running.values()].map((r) => r.done)).then(() => undefined);
  }

  /** Where each seed in progress stands, in the order they started. */
  list(): SeedProgress[] {
    return [...this.running].map(([app, r]) => ({ app, ...(r.progress ?? STARTING) }));
  }

  /** Runs the seed of `appId` in slices, after any seed of that app already running. */
  async run<T>(appId: string, tokens: readonly string[], steps: () => Steps<T>): Promise<T> {
    for (let before = this.running.get(appId); before; before = this.running.get(appId)) await before.done;
    for (const token of tokens) this.tokens.set(token, appId);
    // Stryker disable next-line ObjectLiteral: equivalent, both members are set before anything reads them (below)
    const entry: Running = { done: Promise.resolve(), progress: null };
    const report = this.reporter?.(appId);
    const result = runStepsSliced(steps(), (p) => {
      entry.progress = p;
      report?.(p);
    });
    entry.done = result.then(
      () => undefined,
      () => undefined,
    );
    this.running.set(appId, entry);
    try {
      return await result;
    } finally {
      this.running.delete(appId);
      for (const token of tokens) if (this.tokens.get(token) === appId) this.tokens.delete(token);
    }
  }
}
