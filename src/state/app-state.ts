// One app of this API: the engine's app (engine/app-core.ts) over the collections the rooms declare
// (collections.ts), with the state it keeps beside them as parts (app-parts.ts). Records are replaced,
// never mutated, so the seeded base stays shared by the app, its resets and provisioned copies.

import type { RequestWarnings, WarningCode } from '../core/warnings.js';
import { AppCore, type CoreBase, type CoreSnapshot } from '../engine/app-core.js';
import { CustomerOrder } from '../resources/customers/order.js';
import { DeliveryQueue } from '../resources/subscriptions/delivery-queue.js';
import { InsertionOrder } from '../engine/insertion-order.js';
import { Journal } from '../admin/journal-log.js';
import { SortedIndexes } from '../engine/sorted-index.js';
import { ConversationIndexes } from '../resources/conversations/order.js';
import type { ByteBudgets } from '../engine/byte-budget.js';
import type { ScrollSlot } from '../resources/scroll/rules.js';
import { guardEventIds } from '../resources/events/log.js';
import { COLLECTIONS } from './collections.js';
import { COMPANY_LIST } from '../resources/companies/collections.js';
import { appParts, otherJobs, type AppParts } from './app-parts.js';
import { DEFAULT_LIMITS, type AppLimits } from './limits.js';
import type { AppConfig, Company, Job } from '../engine/types.js';

export type { Changes, IdsMode, RateWindow, StreamPosition } from '../engine/app-core.js';
export type { Collections } from './collections.js';
export { COLLECTION_NAMES } from './collections.js';

/** The immutable seeded state of an app, shared by the app, its resets and provisioned copies. */
export interface AppBase extends CoreBase<typeof COLLECTIONS> {
  jobs: readonly Job[];
  partsTotal: number;
  /** Custom attribute names the fixture declares (`data_attributes`): kept when no record holds them. */
  declaredAttributes: ReadonlySet<string>;
}

export type Snapshot = CoreSnapshot<typeof COLLECTIONS, AppParts>;

export class AppState extends AppCore<typeof COLLECTIONS, AppBase, AppParts> {
  /**
   * The warnings of the request running on this app (set by the pipeline around its handler), so a
   * rule can report an accepted-but-suspicious input without knowing about HTTP; none outside one.
   */
  requestWarnings: RequestWarnings | undefined = undefined;

  /** Reports to the running request, if any (core/warnings.ts); under strict mode this throws its error. */
  warn(code: WarningCode, message: string, field?: string, error?: string): void {
    this.requestWarnings?.add(code, message, field, error);
  }

  /** Enrichment and bulk tasks, in due order (resources/jobs/run.ts). */
  jobs: Job[];
  /** Webhook deliveries: a queue of their own, so the cap and the due check stay O(log n). */
  deliveries: DeliveryQueue;
  /** What the seeded queue keeps: the store-wide webhooks budget counts what the API added past it. */
  readonly seededQueueBytes: number;
  partsTotal: number;
  /** Outside the state too: a reset or restore does not forget what was asked. */
  readonly journal: Journal;
  readonly snapshots = new Map<string, Snapshot>();
  /** Customers of each type in list order, for paging without a walk (derived, rebuilt when stale). */
  readonly order = new CustomerOrder();
  /** Records sorted by a timestamp, for `sort`/`order` (derived, kept by the writes, rebuilt when forgotten). */
  readonly sorted = new SortedIndexes([COMPANY_LIST]);
  /** Conversations sorted per assignee, customer and filter, for GET /conversations (derived, kept by the writes, rebuilt when forgotten). */
  readonly conversationLists = new ConversationIndexes();
  /** Companies in store order, for scrolling without a walk (derived, rebuilt when stale). */
  readonly companyOrder = new InsertionOrder<Company>();
  /** The app's one scroll (resources/scroll/rules.ts): state, so a reset clears it and a snapshot keeps it. */
  scroll: ScrollSlot | null = null;
  /** Created on first use of a `test_` token; such apps are evicted when idle or too many. */
  provisioned = false;
  /** A fresh test app a control-plane GET shows without creating it (Store.previewApp): never kept. */
  preview = false;
  lastUsed = 0;
  protected readonly parts: AppParts = appParts(this);

  constructor(
    base: AppBase,
    seed: number,
    config: AppConfig = base.config,
    journal: Journal = new Journal(1000),
    readonly limits: AppLimits = DEFAULT_LIMITS,
    /** The store's byte budgets, which the record writes charge (none: unbudgeted). */
    readonly budgets?: ByteBudgets,
  ) {
    super(COLLECTIONS, base, seed, config);
    this.journal = journal;
    this.partsTotal = base.partsTotal;
    this.jobs = otherJobs(base.jobs);
    this.deliveries = DeliveryQueue.of(base.jobs);
    this.seededQueueBytes = this.deliveries.bytes;
    // The state starts as the base: lists made from it copy its templates (SortedIndexes.fromBase).
    this.sorted.seeded(base);
    this.conversationLists.seeded(base);
  }

  // The streams run on from where they are, which may be before the ids of the events restored.
  protected override streamsKept(): void {
    guardEventIds(this.data);
  }
}
