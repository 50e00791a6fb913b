// The store of apps: the only owner of state, framework-free (it knows nothing of HTTP). Its apps and
// tokens are apps.ts's; this file seeds them from fixture documents: at start, by POST /__admin/seed
// (in slices, so other apps are served meanwhile), on a --watch reload and from a --data-dir save.

import type { AppState, AppBase, IdsMode, StreamPosition } from './app-state.js';
import { Apps, type SeedMode, type StoreOptions } from './apps.js';
import { buildBaseSteps, exportState } from '../fixtures/base.js';
import { createFaker, type Faker } from '../fixtures/faker.js';
import { FixtureError, type FixtureDocument, type FixtureInput } from '../fixtures/fixture-doc.js';
import { expandSteps, type Expansion } from '../fixtures/expand.js';
import { mergeDocuments } from '../fixtures/merge-documents.js';
import { runSteps, type Steps } from '../engine/steps.js';
import { checkGenerateCaps, checkMergedTotals, countParts, partsOverLimit, takenIdentifiers } from '../fixtures/generate.js';
import { addBytes, appBytes, type StateKind } from '../engine/byte-budget.js';
import { recountRecords } from '../engine/record-bytes.js';
import { MAX_JOBS } from '../resources/jobs/shapes.js';
import { runDueJobs } from '../resources/jobs/run.js';
import { eventCount } from '../resources/events/log.js';
import { REFERENCE_TIME } from '../fixtures/normalize.js';

export type { SaveReport, SeedMode, StoreOptions } from './apps.js';

export class Store extends Apps {
  private fakerInstance: Faker | undefined;

  /** Brings time-dependent state up to the clock before a request reads or writes the app (resources/jobs/run.ts). */
  touch(app: AppState): void {
    runDueJobs(app, this.now(), this);
  }

  constructor(options: StoreOptions) {
    super(options);
    options.fixtures.forEach(({ file, input, expanded }, i) => {
      try {
        // A second file of one app would replace the first's app and leave its tokens naming the new one.
        if (this.apps.has(input.app.id)) throw new FixtureError('app.id', `app "${input.app.id}" is the app of an earlier fixture too`);
        const base = runSteps(this.fixtureSteps(input, expanded), options.seedReporter?.(input.app.id));
        const app = this.install(base);
        // Provisioned test apps start from the default app: `demo` if there is one, else the first.
        if (!this.provisionBase || app.id === 'demo') {
          this.provisionBase = app.base;
          this.provisionFrom = app.id;
        }
      } catch (err) {
        if (err instanceof FixtureError) throw new FixtureError(err.path, err.problem, file ?? `fixture #${i + 1}`);
        throw err;
      }
    });
  }

  /** Made on first use: a store started from expanded fixtures may never need one. */
  get faker(): Faker {
    return (this.fakerInstance ??= createFaker(this.seed, REFERENCE_TIME));
  }

  exportApp(appId: string): FixtureDocument {
    return exportState(this.requireApp(appId));
  }

  /**
   * Loads a fixture document into its app (created when new). `replace` makes the document the
   * app's whole seeded state; `merge` lays its records over the app's current state, by id. Either
   * way the result becomes what a reset returns to, and the app's streams start again from it
   * (`ids: 'fresh'` keeps them running instead). Nothing changes unless the whole document is valid.
   * Generated identifiers skip those the document holds and, in a merge, those the app holds.
   */
  // Stryker disable next-line StringLiteral: equivalent, only 'fresh' is ever asked of `ids`
  seedApp(input: FixtureInput, mode: SeedMode, ids: IdsMode = 'rewind'): AppState {
    return runSteps(this.seedSteps(input, mode, ids, () => this.faker));
  }

  /**
   * `seedApp` in slices: other apps are served while a big document is generated and indexed.
   * Its own Faker, because requests served meanwhile draw from the store's.
   */
  // Stryker disable next-line StringLiteral: equivalent, only 'fresh' is ever asked of `ids`
  seedAppSliced(input: FixtureInput, mode: SeedMode, ids: IdsMode = 'rewind'): Promise<AppState> {
    let faker: Faker | undefined;
    return this.seeds.run(input.app.id, input.app.tokens, () => this.seedSteps(input, mode, ids, () => (faker ??= createFaker(this.seed, REFERENCE_TIME))));
  }

  private *fixtureSteps(input: FixtureInput, expanded: Expansion | undefined): Steps<AppBase> {
    const { doc, counter } = yield* this.expandSteps(input, 1, expanded, undefined, () => this.faker);
    return yield* this.prepareSteps(doc, counter);
  }

  private *seedSteps(input: FixtureInput, mode: SeedMode, ids: IdsMode, faker: () => Faker): Steps<AppState> {
    const existing = this.apps.get(input.app.id);
    const into = mode === 'merge' ? existing : undefined;
    // Fresh ids: the generated records of a replace must not take ids the app handed out before.
    const start = into ? into.counters.object : ids === 'fresh' && existing ? existing.counters.object : 1;
    const { doc, counter } = yield* this.expandSteps(input, start, undefined, into, faker);
    const merged = into ? mergeDocuments(exportState(into), doc, input) : doc;
    if (into) checkMergedTotals(merged, input.generate, this.limits);
    const base = yield* this.prepareSteps(merged, counter);
    return this.install(base, this.apps.get(input.app.id), ids);
  }

  /**
   * --watch: a fixture file changed. Its app goes back to the new seed, as `seedApp` replace does
   * (its journal and snapshots of the old seed go with the old state); when provisioned test apps
   * start from it, they go too, and the next use of a test token provisions from the new seed.
   * Answers how many provisioned apps went.
   */
  async reloadFixture(input: FixtureInput): Promise<{ app: AppState; dropped: number }> {
    // Stryker disable next-line StringLiteral: equivalent, every mode but 'merge' replaces
    const app = await this.seedAppSliced(input, 'replace');
    if (app.id !== this.provisionFrom) return { app, dropped: 0 };
    this.provisionBase = app.base;
    const gone = [...this.provisioned.values()];
    for (const old of gone) this.drop(old);
    return { app, dropped: gone.length };
  }

  /**
   * A state saved by --data-dir becomes the app's current state. An app of the fixtures keeps them
   * as what a reset returns to; an app they do not hold is created with the saved state as its
   * seeded one. Provisioned test apps are never saved, so never loaded.
   */
  loadSaved(input: FixtureInput, streams: StreamPosition): AppState {
    const { doc, counter } = this.expand(input, 1);
    // A save lists customers in the order the app held them: under a frozen or set-back clock that
    // is not created_at's, and a restart must not reorder the lists.
    const saved = runSteps(this.prepareSteps(doc, counter, true));
    const existing = this.apps.get(input.app.id);
    if (existing) {
      existing.adopt(saved, streams, false);
      // Measured against the fixtures' versions, as the API's writes measure them.
      for (const [kind, bytes] of Object.entries(recountRecords(existing)) as [StateKind, number][]) addBytes(existing.data.tallies, kind, bytes - appBytes(existing, kind));
      return existing;
    }
    const app = this.install(saved);
    app.adopt(saved, streams, true);
    return app;
  }

  /** Defaults filled and the `generate` bulk appended (within the record limits), ids counted from `counter`. */
  private expand(input: FixtureInput, counter = 1, expanded?: Expansion): Expansion {
    return runSteps(this.expandSteps(input, counter, expanded, undefined, () => this.faker));
  }

  private *expandSteps(input: FixtureInput, counter: number, expanded: Expansion | undefined, into: AppState | undefined, faker: () => Faker): Steps<Expansion> {
    if (input.generate) checkGenerateCaps(input.generate, this.limits);
    const taken = into ? takenIdentifiers(into) : undefined;
    const { doc, counter: next } = expanded ?? (yield* expandSteps(input, this.seed, faker, counter, taken, this.limits.parts));
    // A build-time expansion was made without the limit: hold it to the same rule.
    // Stryker disable next-line ArrayDeclaration: equivalent, a text in place of a conversation counts no parts, as none does
    if (expanded && countParts(doc.conversations) - countParts(input.conversations ?? []) > this.limits.parts) {
      throw partsOverLimit('generate.conversations', this.limits.parts);
    }
    if (input.app.rate_limit_per_minute === undefined) doc.app.rate_limit_per_minute = this.defaultRateLimit;
    if (input.app.api_version === undefined) doc.app.api_version = this.defaultApiVersion;
    return { doc, counter: next };
  }

  private checkTokens(doc: FixtureDocument): void {
    for (const token of doc.app.tokens) {
      const owner = this.tokens.get(token);
      if (owner !== undefined && owner !== doc.app.id) {
        throw new FixtureError('app.tokens', `token "${token}" already belongs to app "${owner}"`);
      }
    }
  }

  private *prepareSteps(doc: FixtureDocument, counter: number, keepOrder = false): Steps<AppBase> {
    this.checkTokens(doc);
    // Seeded state is held to the caps API writes keep, so the next write evicts one event, not a backlog.
    if (doc.bulk_jobs.length > MAX_JOBS) throw new FixtureError('bulk_jobs', `the app would hold ${doc.bulk_jobs.length} bulk jobs: at most ${MAX_JOBS}, the app's job limit`);
    const base = yield* buildBaseSteps(doc, counter, keepOrder);
    // Again: a seed in slices may have met another that took a token meanwhile.
    this.checkTokens(doc);
    const events = eventCount(base.data);
    if (events > this.limits.events) {
      throw new FixtureError('events', `the app would hold ${events} events (places in its log): at most ${this.limits.events}, the app's events limit (limits.events)`);
    }
    return base;
  }
}
