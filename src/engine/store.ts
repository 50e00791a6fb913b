// The store of apps: the only owner of state. Framework-free: it knows nothing of HTTP.

import { DEFAULT_API_VERSION, type ApiVersion } from '../core/versions.js';
import type { Clock } from '../core/clock.js';
import { apiError } from '../core/errors.js';
import { RequestIds } from '../core/ids.js';
import { hashSeed, type RandomState } from '../core/random.js';
import { AppState, DEFAULT_LIMITS, type AppBase, type AppLimits, type IdsMode, type StreamPosition } from './app-state.js';
import { buildBaseSteps, exportState } from '../fixtures/base.js';
import { createFaker, type Faker } from '../fixtures/faker.js';
import { FixtureError, type FixtureDocument, type FixtureInput } from '../fixtures/fixture-doc.js';
import { expandSteps, type Expansion } from '../fixtures/expand.js';
import { runSteps, type Steps } from './steps.js';
import { SeedsInProgress, type SeedReporter } from './seeds-in-progress.js';
import { checkGenerateCaps, checkMergedTotals, countParts, partsOverLimit, takenIdentifiers } from '../fixtures/generate.js';
import { Faults } from '../admin/fault-rules.js';
import { addBytes, appBytes, ByteBudgets, type BudgetKind, type StateKind } from './byte-budget.js';
import { recountRecords } from './record-bytes.js';
import { runDueJobs } from './jobs.js';
import { MAX_JOBS } from '../resources/jobs/shapes.js';
import { eventCount } from '../resources/events/log.js';
import { mergeEvents, mergeQueue } from '../fixtures/merge-logs.js';
import { ContractReport } from '../admin/contract-report.js';
import { Journal } from '../admin/journal-log.js';
import { JournalSpace } from '../admin/journal-space.js';
import { DEFAULT_RATE_LIMIT, REFERENCE_TIME } from '../fixtures/normalize.js';
import { takeOperation, type RateDecision } from './rate-limit.js';
import type { WebhookSink } from '../resources/subscriptions/rules.js';

export interface StoreOptions {
  seed: number;
  clock: Clock;
  /**
   * Validated fixture documents (fixtures/validate.ts), one per app, with the file each came from
   * and, when known, the document's expansion for this seed (computed at build time).
   */
  fixtures: readonly { file?: string; input: FixtureInput; expanded?: Expansion }[];
  /** Per-minute limit for apps whose fixture sets none; defaults to 500. */
  rateLimit?: number;
  /** API version of apps whose fixture names none (default core/versions.ts DEFAULT_API_VERSION). */
  apiVersion?: ApiVersion;
  /** Seconds between a write and its enrichment job (location, avatar, social profiles). */
  jobDelaySeconds?: number;
  /** Whether an unseen `test_` token provisions a fresh app (default true). */
  testApps?: boolean;
  /** Most provisioned apps kept at once; the least recently used go first (default 1000). */
  maxTestApps?: number;
  /** Provisioned apps idle this long on the store's clock are evicted (default 3600 s). */
  testAppIdleSeconds?: number;
  /** Journal entries kept per app (default 1000). */
  journalSize?: number;
  /** Bytes all journals together may hold (default 64 MiB); past it the oldest entries go. */
  journalBytes?: number;
  /** Most customers, companies, parts, notes and events an app may reach through API writes, and the bytes of webhook state it keeps. */
  limits?: Partial<AppLimits>;
  /** Bytes every app together may keep of each kind (pending bulk items, events, notes, conversations, customers, companies, webhook state, snapshots: engine/byte-budget.ts). */
  byteBudgets?: Partial<Record<BudgetKind, number>>;
  /** Refuse what the real API accepted but looks wrong, for apps whose fixture does not say (core/warnings.ts). */
  strict?: boolean;
  /** Warning codes no app shows (each app may mute more). */
  muteWarnings?: readonly string[];
  /** Told where the seeding of each fixture stands while the store is made (the CLI prints it). */
  seedReporter?: SeedReporter;
}

/** A token that provisions an app: `test_` and printable ASCII, as tokens are. */
const TEST_TOKEN = /^test_[!-~]{1,250}$/;

export type SeedMode = 'replace' | 'merge';

export interface SaveReport {
  dir: string;
  /** Apps written by this save (the unchanged ones are not rewritten). */
  saved: string[];
  unchanged: string[];
}

export class Store {
  readonly seed: number;
  readonly clock: Clock;
  private fakerInstance: Faker | undefined;
  readonly jobDelaySeconds: number;
  /** Takes due webhook deliveries (resources/subscriptions/delivery.ts installs it); none: due deliveries are dropped. */
  webhooks: WebhookSink | null = null;
  readonly defaultRateLimit: number;
  readonly defaultApiVersion: ApiVersion;
  readonly faults: Faults;
  /** Strict mode of apps whose fixture does not set one. */
  readonly strict: boolean;
  private readonly muted: ReadonlySet<string>;
  private readonly mutedByConfig = new WeakMap<object, ReadonlySet<string>>();
  /** What the run's requests called and got (admin/contract-report.ts); kept across resets. */
  readonly report = new ContractReport();
  /** Requests that named no app (401s). */
  readonly anonymousJournal: Journal;
  private readonly requestIds: RequestIds;
  private readonly requestIdsStart: RandomState;
  private readonly connectionIds: RequestIds;
  private readonly apps = new Map<string, AppState>();
  private readonly tokens = new Map<string, string>();
  /** Provisioned apps, least recently used first. */
  private readonly provisioned = new Map<string, AppState>();
  private provisionBase: AppBase | undefined;
  /** The app whose seed provisioned test apps start from. */
  private provisionFrom: string | undefined;
  private readonly testApps: { enabled: boolean; max: number; idleSeconds: number };
  readonly journalSize: number;
  readonly limits: AppLimits;
  readonly budgets: ByteBudgets;
  private journalSeq = 1;
  /** Shared by every journal of the store, so their entries together stay within one budget. */
  private readonly journalSpace: JournalSpace;

  constructor(options: StoreOptions) {
    this.seed = options.seed;
    this.clock = options.clock;
    this.jobDelaySeconds = options.jobDelaySeconds ?? 2;
    this.defaultRateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
    this.defaultApiVersion = options.apiVersion ?? DEFAULT_API_VERSION;
    this.strict = options.strict ?? false;
    this.muted = new Set(options.muteWarnings ?? []);
    this.requestIds = new RequestIds(options.seed);
    this.requestIdsStart = this.requestIds.random.state();
    // App ids are [a-z0-9_-], so this scope is no app's.
    // Stryker disable next-line StringLiteral: equivalent, '' is no app id either: any such scope gives a stream of its own
    this.connectionIds = new RequestIds(options.seed, '#server');
    this.faults = new Faults(options.seed, (appId) => this.apps.get(appId)?.faultRandom);
    this.journalSize = options.journalSize ?? 1000;
    this.journalSpace = new JournalSpace(options.journalBytes);
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.budgets = new ByteBudgets(options.byteBudgets, () => this.apps.values());
    this.anonymousJournal = this.newJournal();
    this.testApps = {
      enabled: options.testApps ?? true,
      max: options.maxTestApps ?? 1000,
      idleSeconds: options.testAppIdleSeconds ?? 3600,
    };
    options.fixtures.forEach(({ file, input, expanded }, i) => {
      try {
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

  /**
   * A request to an app takes its id from the app's stream (rewound with the app); one that
   * reaches no app, and the control plane, from the store's (rewound by a reset of every app).
   */
  nextRequestId(app?: AppState): string {
    return app ? app.nextRequestId() : this.requestIds.next();
  }

  /**
   * Ids of the answers the server writes itself (a 408 to a connection that never spoke, a 431, a
   * CONNECT): they come when sockets time out, not in request order, so they draw from a stream of
   * their own and never move the ids every other request sees.
   */
  nextConnectionRequestId(): string {
    return this.connectionIds.next();
  }

  now(): number {
    return this.clock.now();
  }

  appIds(): string[] {
    return [...this.apps.keys()];
  }

  app(id: string): AppState | undefined {
    return this.apps.get(id);
  }

  private newJournal(): Journal {
    return new Journal(this.journalSize, this.journalSpace);
  }

  /** Bytes and entries the journals hold now, against the budget. */
  journalUsage(): { bytes: number; max: number; entries: number; arena: number } {
    return { bytes: this.journalSpace.used, max: this.journalSpace.max, entries: this.journalSpace.entries, arena: this.journalSpace.arenaHeld };
  }

  nextJournalSeq(): number {
    return this.journalSeq++;
  }

  /** The app of a token; an unseen `test_` token provisions a fresh app seeded from the default fixtures. */
  appForToken(token: string): AppState | undefined {
    const id = this.tokens.get(token);
    if (id !== undefined) {
      const app = this.apps.get(id);
      // Stryker disable next-line OptionalChaining: equivalent, a token names a live app: a drop takes the app's tokens, and an install reuses the id
      if (app?.provisioned) this.markUsed(app);
      return app;
    }
    if (!this.testApps.enabled || !this.provisionBase || !TEST_TOKEN.test(token)) return undefined;
    return this.provision(token, this.provisionBase);
  }

  /**
   * What a control-plane GET shows for a token without changing anything: the app it names, or for
   * an unseen `test_` token a fresh app as it would be provisioned, neither kept nor counted.
   */
  peekApp(token: string): AppState | undefined {
    const id = this.tokens.get(token);
    if (id !== undefined) return this.apps.get(id);
    if (!this.testApps.enabled || !this.provisionBase || !TEST_TOKEN.test(token)) return undefined;
    const app = this.newTestApp(token, this.provisionBase);
    app.preview = true;
    // As it would be provisioned: a write naming the token makes exactly this app.
    app.provisioned = true;
    return app;
  }

  /** The id of the app a token names, if any: a read that provisions nothing and marks nothing used. */
  appIdOfToken(token: string): string | undefined {
    return this.tokens.get(token);
  }

  provisionedCount(): number {
    return this.provisioned.size;
  }

  private markUsed(app: AppState): void {
    app.lastUsed = this.now();
    this.provisioned.delete(app.id);
    this.provisioned.set(app.id, app);
  }

  /** O(1) in the fixtures' size: the new app's collections are overlays on the shared base. */
  private provision(token: string, base: AppBase): AppState {
    this.evict();
    const app = this.newTestApp(token, base);
    const { id } = app;
    app.provisioned = true;
    this.apps.set(id, app);
    this.tokens.set(token, id);
    this.markUsed(app);
    return app;
  }

  private newTestApp(token: string, base: AppBase): AppState {
    let id = /^[a-z0-9_-]{1,64}$/.test(token) ? token : `test_${hashHex(token)}`;
    while (this.apps.has(id)) id = `test_${hashHex(id)}`;
    const config = { id, name: `Test app for ${token.slice(0, 80)}`, tokens: [token], rate_limit_per_minute: this.defaultRateLimit, api_version: this.defaultApiVersion };
    return new AppState(base, this.seed, config, this.newJournal(), this.limits, this.budgets);
  }

  /** Drops provisioned apps idle past the limit, then the least recently used over the count. */
  private evict(): void {
    const now = this.now();
    for (const app of this.provisioned.values()) {
      const idle = now - app.lastUsed > this.testApps.idleSeconds;
      const over = this.provisioned.size >= this.testApps.max;
      if (!idle && !over) break;
      // Being seeded: the seed lands on it (ids=fresh continues its streams).
      if (this.seeds.of(app.id)) continue;
      this.drop(app);
    }
  }

  /** The warning codes an app does not show: the process's and its own. */
  mutedWarnings(app: AppState): ReadonlySet<string> {
    const own = app.config.mute_warnings;
    if (own === undefined || own.length === 0) return this.muted;
    let set = this.mutedByConfig.get(app.config);
    if (!set) {
      set = new Set([...this.muted, ...own]);
      this.mutedByConfig.set(app.config, set);
    }
    return set;
  }

  private drop(app: AppState): void {
    app.journal.clear();
    this.report.forgetApp(app.id);
    // Its faults go with it: a later app of that token starts clean, and faults stay bounded by the apps alive.
    this.faults.clear(app.id);
    this.provisioned.delete(app.id);
    this.apps.delete(app.id);
    for (const token of app.config.tokens) if (this.tokens.get(token) === app.id) this.tokens.delete(token);
  }

  /** Brings time-dependent state up to the clock before a request reads or writes the app. */
  touch(app: AppState): void {
    runDueJobs(app, this.now(), this);
  }

  takeOperation(app: AppState): RateDecision {
    return takeOperation(app.rate, this.now(), app.config.rate_limit_per_minute);
  }

  /** Apps back to their seeded state; `rewind` also puts their streams (and, for all apps, the store's) back. */
  reset(appId?: string, ids: IdsMode = 'rewind'): string[] {
    const targets = appId === undefined ? [...this.apps.values()] : [this.requireApp(appId)];
    for (const app of targets) app.reset(ids);
    if (appId === undefined && ids === 'rewind') this.requestIds.random.rewind(this.requestIdsStart);
    return targets.map((a) => a.id);
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
  seedApp(input: FixtureInput, mode: SeedMode, ids: IdsMode = 'rewind'): AppState {
    return runSteps(this.seedSteps(input, mode, ids, () => this.faker));
  }

  /** Seeds running in slices, which requests to their apps wait for. */
  readonly seeds = new SeedsInProgress();

  /**
   * `seedApp` in slices: other apps are served while a big document is generated and indexed.
   * Its own Faker, because requests served meanwhile draw from the store's.
   */
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
    const saved = this.prepare(doc, counter, true);
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

  /** Set by the process when it runs with --data-dir: POST /__admin/save calls it. */
  saver: (() => Promise<SaveReport>) | undefined;

  private requireApp(appId: string): AppState {
    const app = this.apps.get(appId);
    if (!app) throw apiError('not_found', `No app "${appId}"`, 'app');
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
    if (expanded && countParts(doc.conversations) - countParts(input.conversations ?? []) > this.limits.parts) {
      throw partsOverLimit('generate.conversations', this.limits.parts);
    }
    if (input.app.rate_limit_per_minute === undefined) doc.app.rate_limit_per_minute = this.defaultRateLimit;
    if (input.app.api_version === undefined) doc.app.api_version = this.defaultApiVersion;
    return { doc, counter: next };
  }

  private prepare(doc: FixtureDocument, counter: number, keepOrder = false): AppBase {
    return runSteps(this.prepareSteps(doc, counter, keepOrder));
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

  private install(base: AppBase, previous?: AppState, ids: IdsMode = 'rewind'): AppState {
    if (previous) this.drop(previous);
    const app = new AppState(base, this.seed, base.config, this.newJournal(), this.limits, this.budgets);
    // Fresh ids: what was handed out before the seed stays taken, and a reset comes back here.
    if (previous && ids === 'fresh') app.continueFrom(previous);
    this.apps.set(app.id, app);
    for (const token of base.config.tokens) this.tokens.set(token, app.id);
    return app;
  }
}

const hashHex = (s: string): string => hashSeed(s).toString(16).padStart(8, '0');

function mergeById<T extends { id: string }>(current: readonly T[], incoming: readonly T[]): T[] {
  const out = new Map(current.map((x) => [x.id, x]));
  for (const x of incoming) out.set(x.id, x);
  return [...out.values()];
}

function withoutIds<T extends { id: string }>(items: readonly T[], leaving: readonly { id: string }[]): T[] {
  if (leaving.length === 0) return [...items];
  const gone = new Set(leaving.map((x) => x.id));
  return items.filter((x) => !gone.has(x.id));
}

/** Incoming records replace current ones with the same id; app settings change only where given. */
function mergeDocuments(current: FixtureDocument, incoming: FixtureDocument, input: FixtureInput): FixtureDocument {
  const attributes = new Map(current.data_attributes.map((a) => [a.name, a]));
  for (const a of incoming.data_attributes) attributes.set(a.name, a);
  const app = { ...current.app, ...input.app };
  // Owners of tokens the merged app no longer has go with them.
  if (app.token_owners) {
    const tokens = new Set(app.tokens);
    app.token_owners = Object.fromEntries(Object.entries(app.token_owners).filter(([token]) => tokens.has(token)));
  }
  return {
    app,
    admins: mergeById(current.admins, incoming.admins),
    teams: mergeById(current.teams, incoming.teams),
    segments: mergeById(current.segments, incoming.segments),
    tags: mergeById(current.tags, incoming.tags),
    data_attributes: [...attributes.values()],
    companies: mergeById(current.companies, incoming.companies),
    // A record named in one list of the incoming document leaves the other list of the current one.
    customers: mergeById(withoutIds(current.customers, incoming.archived_customers), incoming.customers),
    conversations: mergeById(current.conversations, incoming.conversations),
    jobs: mergeQueue(current.jobs, incoming.jobs),
    archived_customers: mergeById(withoutIds(current.archived_customers, incoming.customers), incoming.archived_customers),
    user_delete_requests: input.user_delete_requests ?? current.user_delete_requests,
    former_customers: [...new Set([...current.former_customers, ...incoming.former_customers])],
    notes: mergeById(current.notes, incoming.notes),
    company_data_attributes: [...new Map([...current.company_data_attributes, ...incoming.company_data_attributes].map((a) => [a.name, a])).values()],
    ...mergeEvents(current, incoming),
    bulk_jobs: mergeById(current.bulk_jobs, incoming.bulk_jobs),
    subscriptions: mergeById(current.subscriptions ?? [], incoming.subscriptions ?? []),
    activity_logs: mergeById(current.activity_logs ?? [], incoming.activity_logs ?? []),
  };
}
