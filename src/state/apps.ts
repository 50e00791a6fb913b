// The apps of a store and the tokens that name them: the apps the fixtures seed, the test apps an
// unseen `test_` token provisions over a shared base (least recently used and idle ones evicted), and
// what every request reaches through them (journals, faults, rate windows, byte budgets). Seeding
// from fixtures is store.ts's.

import { DEFAULT_API_VERSION, type AppApiVersion } from '../core/versions.js';
import type { Clock } from '../core/clock.js';
import { apiError } from '../core/errors.js';
import { RequestIds } from '../core/ids.js';
import { hashSeed, type RandomState } from '../core/random.js';
import { AppState, type AppBase, type IdsMode } from './app-state.js';
import { DEFAULT_LIMITS, type AppLimits } from './limits.js';
import type { FixtureInput } from '../fixtures/fixture-doc.js';
import type { Expansion } from '../fixtures/expand.js';
import { SeedsInProgress, type SeedReporter } from '../engine/seeds-in-progress.js';
import { Faults } from '../admin/fault-rules.js';
import { ByteBudgets, type BudgetKind } from '../engine/byte-budget.js';
import { ContractReport } from '../admin/contract-report.js';
import { Journal } from '../admin/journal-log.js';
import { JournalSpace } from '../admin/journal-space.js';
import { DEFAULT_RATE_LIMIT } from '../fixtures/normalize.js';
import { takeOperation, type RateDecision } from '../engine/rate-limit.js';
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
  apiVersion?: AppApiVersion;
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


export class Apps {
  readonly seed: number;
  readonly clock: Clock;
  readonly jobDelaySeconds: number;
  /** Takes due webhook deliveries (resources/subscriptions/delivery.ts installs it); none: due deliveries are dropped. */
  webhooks: WebhookSink | null = null;
  readonly defaultRateLimit: number;
  readonly defaultApiVersion: AppApiVersion;
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
  protected readonly apps = new Map<string, AppState>();
  protected readonly tokens = new Map<string, string>();
  /** Provisioned apps, least recently used first. */
  protected readonly provisioned = new Map<string, AppState>();
  protected provisionBase: AppBase | undefined;
  /** The app whose seed provisioned test apps start from. */
  protected provisionFrom: string | undefined;
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
    this.muted = new Set(options.muteWarnings);
    this.requestIds = new RequestIds(options.seed);
    this.requestIdsStart = this.requestIds.random.state();
    // App ids are [a-z0-9_-], so this scope is no app's.
    // Stryker disable next-line StringLiteral: equivalent, '' is no app id either: any such scope gives a stream of its own
    this.connectionIds = new RequestIds(options.seed, '#server');
    this.faults = new Faults(options.seed);
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

  protected newJournal(): Journal {
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
    let set = this.mutedByConfig.get(app.config);
    // Stryker disable next-line ConditionalExpression: equivalent, forced true it makes the same set again on every request (a cache)
    if (set === undefined) {
      const made = new Set(this.muted);
      app.config.mute_warnings?.forEach((code) => made.add(code));
      this.mutedByConfig.set(app.config, made);
      set = made;
    }
    return set;
  }

  protected drop(app: AppState): void {
    app.journal.clear();
    this.report.forgetApp(app.id);
    // Its faults go with it: a later app of that token starts clean, and faults stay bounded by the apps alive.
    this.faults.clear(app.id);
    this.provisioned.delete(app.id);
    this.apps.delete(app.id);
    // Each token names one app (a seed naming another's token is refused), so these are all its own.
    for (const token of app.config.tokens) this.tokens.delete(token);
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

  /** Seeds running in slices, which requests to their apps wait for. */
  readonly seeds = new SeedsInProgress();

  /** Set by the process when it runs with --data-dir: POST /__admin/save calls it. */
  saver: (() => Promise<SaveReport>) | undefined;

  protected requireApp(appId: string): AppState {
    const app = this.apps.get(appId);
    if (!app) throw apiError('not_found', `No app "${appId}"`, 'app');
    return app;
  }

  // Stryker disable next-line StringLiteral: equivalent, only 'fresh' is ever asked of `ids`
  protected install(base: AppBase, previous?: AppState, ids: IdsMode = 'rewind'): AppState {
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
