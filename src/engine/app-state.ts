// One app's state: copy-on-write collections over a shared seeded base, plus the indexes that keep
// every lookup O(1) in the app's size. Records are replaced, never mutated, so the base stays shared.

import type { RequestWarnings, WarningCode } from '../core/warnings.js';
import { CowMap, UndoLog, type AnyCowMap, type MapKey } from './cow.js';
import { CowLog } from './cow-log.js';
import { machinePart, objectId, RequestIds } from '../core/ids.js';
import { apiError } from '../core/errors.js';
import { normalEmail, tagNameKey } from '../core/normal-text.js';
import { hashSeed, Random, type RandomState } from '../core/random.js';
import { CustomerOrder } from '../resources/customers/order.js';
import { DeliveryQueue } from '../resources/subscriptions/delivery-queue.js';
import { customAttribute, registerCompanyAttributes } from '../resources/data-attributes/rules.js';
import { InsertionOrder } from './insertion-order.js';
import { Journal } from '../admin/journal-log.js';
import { join, joined, leave, type JoinLog, type JoinMaps } from './join-log.js';
import { companyKeys, companyKeysChanged, conversationKeys, customerKeys, customerKeysChanged, syncHolder } from './memberships.js';
import { SortedIndexes } from './sorted-index.js';
import { ConversationIndexes } from '../resources/conversations/order.js';
import { assigneeKey, conversationTallyKeys } from '../resources/conversations/state.js';
import { charge, type ByteBudgets } from './byte-budget.js';
import { companyShare, conversationDelta, customerShare } from './record-bytes.js';
import type { ScrollSlot } from '../resources/scroll/rules.js';
import type { BulkJob } from '../resources/jobs/rules.js';
import type { Subscription, WebhookFeeds } from '../resources/subscriptions/rules.js';
import type { FeedRef } from '../resources/subscriptions/feeds.js';
import { DEFAULT_WEBHOOK_FEED_BYTES, DEFAULT_WEBHOOK_QUEUE_BYTES } from '../resources/subscriptions/bytes.js';
import type { ActivityLog } from '../resources/admins/activity-logs.js';
import { guardEventIds, type EventPerson, type EventSummary, type StoredEvent } from '../resources/events/log.js';
import type {
  Admin,
  AppConfig,
  Company,
  Conversation,
  Customer,
  CustomAttributes,
  CustomAttributeValue,
  DataAttribute,
  Job,
  Note,
  Segment,
  Tag,
  Team,
} from './types.js';

/** The collections of an app, as maps keyed by id (data attributes by name). */
export interface Collections<M extends 'base' | 'live'> {
  customers: Coll<M, Customer>;
  companies: Coll<M, Company>;
  tags: Coll<M, Tag>;
  segments: Coll<M, Segment>;
  admins: Coll<M, Admin>;
  teams: Coll<M, Team>;
  dataAttributes: Coll<M, DataAttribute>;
  conversations: Coll<M, Conversation>;
  /** user_id -> customer id */
  byUserId: Coll<M, string>;
  /** email as stored (core/normal-text.ts) -> customer ids (an email may be shared: lookup case 4 of POST /users) */
  byEmail: Coll<M, JoinLog>;
  /** email NUL customer id -> its place in byEmail's log (join-log.ts) */
  emailSeqs: Coll<M, number>;
  /** company_id -> company id */
  byCompanyId: Coll<M, string>;
  /** company id -> customer ids, in the order they joined (join-log.ts) */
  members: Coll<M, JoinLog>;
  /** company id NUL customer id -> its place in members' log */
  memberSeqs: Coll<M, number>;
  /** tagNameKey(name) -> tag id */
  tagByName: Coll<M, string>;
  /** Running counts behind GET /counts and list totals (keys from tallyKeys), so none walks the app. */
  tallies: Coll<M, number>;
  /** `<kind>:<t|s|n>:<id>` -> the records holding that tag, segment or company name (memberships.ts) */
  holders: Coll<M, JoinLog>;
  /** holder key NUL record id -> its place in holders' log */
  holderSeqs: Coll<M, number>;
  /** phone as stored -> customer ids (GET /contacts?phone=) */
  byPhone: Coll<M, JoinLog>;
  /** phone NUL customer id -> its place in byPhone's log */
  phoneSeqs: Coll<M, number>;
  /** Archived users (resources/users/archive.ts): out of `customers`, so no read sees them, until POST /users brings them back. */
  archived: Coll<M, Customer>;
  /** user_id -> archived user id */
  archivedByUserId: Coll<M, string>;
  /** email -> archived user ids, in the order they were archived */
  archivedEmails: Coll<M, JoinLog>;
  /** email NUL archived user id -> its place in archivedEmails' log */
  archivedEmailSeqs: Coll<M, number>;
  /** customer id -> the conversations whose customers name it, in the order it joined them */
  conversationsOf: Coll<M, JoinLog>;
  /** customer id NUL conversation id -> its place in conversationsOf's log */
  conversationSeqs: Coll<M, number>;
  /** Notes by id (resources/notes/rules.ts). */
  notes: Coll<M, Note>;
  /** customer id -> its notes' ids, oldest first (join-log.ts) */
  notesOf: Coll<M, JoinLog>;
  /** customer id NUL note id -> its place in notesOf's log */
  noteSeqs: Coll<M, number>;
  /** Custom company attributes by name (GET /data_attributes/company), registered on first write. */
  companyAttributes: Coll<M, DataAttribute>;
  /** Data events by their place in the app's log (resources/events/log.ts): the oldest go first past the cap. */
  events: Coll<M, StoredEvent, number>;
  /** customer id NUL event name NUL created_at -> the event's place: every event held but each person's newest (resources/events/rules.ts heldAlready) */
  eventKeys: Coll<M, number>;
  /** event id -> its place, for the held ids a stream can draw again (seeded ones, a restore with ids=fresh: resources/events/log.ts guardEventIds) */
  eventIds: Coll<M, number>;
  /** customer id -> the person's newest event and the ends of its summary list */
  eventPeople: Coll<M, EventPerson>;
  /** customer id NUL event name -> the running summary of that name */
  eventSummaries: Coll<M, EventSummary>;
  /** Bulk jobs by id (resources/jobs/rules.ts), their tasks inside. */
  bulkJobs: Coll<M, BulkJob>;
  /** creation order -> job id, so the oldest job is found at once */
  bulkOrder: Coll<M, string>;
  /** Webhook subscriptions by id (resources/subscriptions/rules.ts); not in fixtures yet, so a seed starts with none. */
  subscriptions: Coll<M, Subscription>;
  /** subscription id -> its sent and error feeds, each bounded (resources/subscriptions/rules.ts) */
  webhookFeeds: Coll<M, WebhookFeeds>;
  /** place -> a feed entry, in the order the app's feeds kept them, so the oldest goes first past their bytes (resources/subscriptions/feeds.ts) */
  feedLog: Coll<M, FeedRef>;
  /** Admin activity logs by their place in the app's log (resources/admins/activity-logs.ts): the oldest go first past the cap. */
  activityLogs: Coll<M, ActivityLog>;
}

type Coll<M, V, K extends MapKey = string> = M extends 'base' ? ReadonlyMap<K, V> : CowMap<V, K>;

export const COLLECTION_NAMES = [
  'customers',
  'companies',
  'tags',
  'segments',
  'admins',
  'teams',
  'dataAttributes',
  'conversations',
  'byUserId',
  'byEmail',
  'emailSeqs',
  'byCompanyId',
  'members',
  'memberSeqs',
  'tagByName',
  'tallies',
  'holders',
  'holderSeqs',
  'byPhone',
  'phoneSeqs',
  'archived',
  'archivedByUserId',
  'archivedEmails',
  'archivedEmailSeqs',
  'conversationsOf',
  'conversationSeqs',
  'notes',
  'notesOf',
  'noteSeqs',
  'companyAttributes',
  'events',
  'eventKeys',
  'eventIds',
  'eventPeople',
  'eventSummaries',
  'bulkJobs',
  'bulkOrder',
  'subscriptions',
  'webhookFeeds',
  'feedLog',
  'activityLogs',
] as const satisfies ReadonlyArray<keyof Collections<'base'>>;

/** The immutable seeded state of an app, shared by the app, its resets and provisioned copies. */
export interface AppBase {
  config: AppConfig;
  data: Collections<'base'>;
  jobs: readonly Job[];
  /** First value for the app's id counters, past everything the fixtures hold. */
  counters: { object: number; numeric: number; job: number };
  partsTotal: number;
  /** Custom attribute names the fixture declares (`data_attributes`): kept when no record holds them. */
  declaredAttributes: ReadonlySet<string>;
}

/**
 * Where every stream an app draws from stands: its id counters, its random stream (lead and visitor
 * user_ids, pseudonyms), its request ids and its fault draws. Taken with a snapshot and at the
 * seeded state, so a restore or a reset can rewind them and the same requests get the same bytes.
 */
export interface StreamPosition {
  counters: { readonly object: number; readonly numeric: number; readonly job: number };
  random: RandomState;
  requestIds: RandomState;
  faults: RandomState;
}

/** What a reset, a seed or a restore does with the app's streams: rewind them (default) or keep them running. */
export type IdsMode = 'rewind' | 'fresh';

export interface Snapshot {
  data: Collections<'live'>;
  jobs: readonly Job[];
  deliveries: DeliveryQueue;
  partsTotal: number;
  rate: RateWindow;
  streams: StreamPosition;
  scroll: ScrollSlot | null;
  created_at: number;
}

/** Most records an app may hold through API writes, so no client loop can exhaust memory. */
export interface AppLimits {
  customers: number;
  companies: number;
  /** Conversation parts over all of the app's conversations. */
  parts: number;
  /** Notes over all of the app's people (resources/notes/rules.ts). */
  notes: number;
  /** Tags an app may reach through API writes (each name up to 255 characters). */
  tags: number;
  /** Tags every app of the store together may hold (resources/tags/rules.ts). */
  allTags: number;
  /** Characters of urls, secrets, topics and event names an app's subscriptions may hold (resources/subscriptions/rules.ts). */
  subscriptionText: number;
  /** The same over every app of the store. */
  allSubscriptionText: number;
  /** Data events kept; past it the oldest go (resources/events/timeline.ts). */
  events: number;
  /** Bytes of queued webhook deliveries kept; past it the oldest queued go (resources/subscriptions/bytes.ts). */
  webhookQueueBytes: number;
  /** Bytes of webhook feed entries kept; past it the app's oldest entries go. */
  webhookFeedBytes: number;
}

export const DEFAULT_LIMITS: AppLimits = {
  customers: 200_000,
  companies: 50_000,
  parts: 500_000,
  notes: 100_000,
  tags: 10_000,
  // About 50 MiB at the longest names, however many test apps the store keeps.
  allTags: 100_000,
  subscriptionText: 128 * 1024,
  // About 32 MiB over every app.
  allSubscriptionText: 16 * 1024 * 1024,
  events: 100_000,
  webhookQueueBytes: DEFAULT_WEBHOOK_QUEUE_BYTES,
  webhookFeedBytes: DEFAULT_WEBHOOK_FEED_BYTES,
};

export interface RateWindow {
  start: number;
  used: number;
}

/**
 * Each live collection set's maps as a list, made with the set (liveOf and forkOf are the only makers,
 * and a set's members are never replaced): every write request hands all of them the undo log and
 * takes it back, and reading them by name is a lookup per name each time.
 */
const mapLists = new WeakMap<Collections<'live'>, readonly AnyCowMap[]>();

function liveSet(make: (name: (typeof COLLECTION_NAMES)[number]) => AnyCowMap): Collections<'live'> {
  const out: Partial<Record<keyof Collections<'base'>, AnyCowMap>> = {};
  const list: AnyCowMap[] = [];
  for (const name of COLLECTION_NAMES) list.push((out[name] = make(name)));
  const set = out as unknown as Collections<'live'>;
  mapLists.set(set, list);
  return set;
}

// The events are a log by place: their overlay is an array (engine/cow-log.ts), every other map's a Map.
const liveOf = (base: Collections<'base'>): Collections<'live'> =>
  liveSet((name) => (name === 'events' ? (CowLog.over(base.events) as AnyCowMap) : CowMap.from(base[name] as ReadonlyMap<string, unknown>)));

const forkOf = (live: Collections<'live'>): Collections<'live'> => liveSet((name) => (live[name] as AnyCowMap).fork());

const mapsOf = (data: Collections<'live'>): readonly AnyCowMap[] => mapLists.get(data) as readonly AnyCowMap[];

/** A fixture's queue without its webhook deliveries (those go to AppState.deliveries). */
const otherJobs = (jobs: readonly Job[]): Job[] => jobs.filter((j) => j.kind !== 'webhook');

/** What one transaction wrote: each (map, key) once, with its slot before (CowMap.prior). */
export type Changes = readonly [AnyCowMap, MapKey, unknown][];

export class AppState {
  readonly id: string;
  config: AppConfig;
  /**
   * The warnings of the request running on this app (set by the pipeline around its handler), so a
   * rule can report an accepted-but-suspicious input without knowing about HTTP; none outside one.
   */
  requestWarnings: RequestWarnings | undefined = undefined;

  /** Reports to the running request, if any (core/warnings.ts); under strict mode this throws its error. */
  warn(code: WarningCode, message: string, field?: string, error?: string): void {
    this.requestWarnings?.add(code, message, field, error);
  }

  data: Collections<'live'>;
  /** Enrichment and bulk tasks, in due order (engine/jobs.ts). */
  jobs: Job[];
  /** Webhook deliveries: a queue of their own, so the cap and the due check stay O(log n). */
  deliveries: DeliveryQueue;
  /** What the seeded queue keeps: the store-wide webhooks budget counts what the API added past it. */
  readonly seededQueueBytes: number;
  partsTotal: number;
  // Stryker disable next-line ObjectLiteral: equivalent, an empty window reads as one not yet started: takeOperation opens a new one at the first request and ui-apps counts 0 used, as for this one
  rate: RateWindow = { start: 0, used: 0 };
  /**
   * Each app's streams are its own, so parallel tests on other apps cannot change this app's ids.
   * A reset or restore rewinds them with the records (`start`, the snapshot's position), unless
   * asked for fresh ids, and then ids already handed out are never handed out again.
   */
  readonly counters: { object: number; numeric: number; job: number };
  readonly random: Random;
  private readonly requestIds: RequestIds;
  /** Draws of `fraction` and latency ranges of the faults that apply to this app's requests. */
  readonly faultRandom: Random;
  /** The streams' position at the seeded state: where a reset rewinds them. */
  private start: StreamPosition;
  private readonly machine: string;
  /** Outside the state too: a reset or restore does not forget what was asked. */
  readonly journal: Journal;
  readonly snapshots = new Map<string, Snapshot>();
  /** Customers of each type in list order, for paging without a walk (derived, rebuilt when stale). */
  readonly order = new CustomerOrder();
  /** Records sorted by a timestamp, for `sort`/`order` (derived, kept by the writes, rebuilt when forgotten). */
  readonly sorted = new SortedIndexes();
  /** Conversations sorted per assignee, customer and filter, for GET /conversations (derived, kept by the writes, rebuilt when forgotten). */
  readonly conversationLists = new ConversationIndexes();
  /** Companies in store order, for scrolling without a walk (derived, rebuilt when stale). */
  readonly companyOrder = new InsertionOrder<Company>();
  /** The app's one scroll (resources/scroll/rules.ts): state, so a reset clears it and a snapshot keeps it. */
  scroll: ScrollSlot | null = null;
  /** An undo log for the next transaction: one per write request was four arrays and a log of garbage. */
  private idleLog: UndoLog | null = null;
  /** Created on first use of a `test_` token; such apps are evicted when idle or too many. */
  provisioned = false;
  /** A fresh test app a control-plane GET shows without creating it (Store.previewApp): never kept. */
  preview = false;
  lastUsed = 0;

  constructor(
    readonly base: AppBase,
    seed: number,
    config: AppConfig = base.config,
    journal: Journal = new Journal(1000),
    readonly limits: AppLimits = DEFAULT_LIMITS,
    /** The store's byte budgets, which the record writes charge (none: unbudgeted). */
    readonly budgets?: ByteBudgets,
  ) {
    this.journal = journal;
    this.partsTotal = base.partsTotal;
    this.id = config.id;
    this.config = config;
    this.data = liveOf(base.data);
    this.jobs = otherJobs(base.jobs);
    this.deliveries = DeliveryQueue.of(base.jobs);
    this.seededQueueBytes = this.deliveries.bytes;
    this.counters = { ...base.counters };
    this.random = new Random(hashSeed(seed, config.id, 'runtime'));
    this.requestIds = new RequestIds(seed, config.id);
    this.faultRandom = new Random(hashSeed(seed, config.id, 'faults'));
    this.machine = machinePart(seed, config.id);
    this.start = this.streams();
  }

  nextRequestId(): string {
    return this.requestIds.next();
  }

  streams(): StreamPosition {
    return {
      counters: { ...this.counters },
      random: this.random.state(),
      requestIds: this.requestIds.random.state(),
      faults: this.faultRandom.state(),
    };
  }

  /** Puts every stream where `position` says, so the same requests draw the same ids again. */
  rewind(position: StreamPosition): void {
    Object.assign(this.counters, position.counters);
    this.random.rewind(position.random);
    this.requestIds.random.rewind(position.requestIds);
    this.faultRandom.rewind(position.faults);
  }

  /**
   * For a re-seed with fresh ids: counters only move up and streams run on from `other`, so ids it
   * handed out are never handed out again; this becomes the seeded position a reset rewinds to.
   */
  continueFrom(other: AppState): void {
    this.counters.object = Math.max(this.counters.object, other.counters.object);
    this.counters.numeric = Math.max(this.counters.numeric, other.counters.numeric);
    this.counters.job = Math.max(this.counters.job, other.counters.job);
    this.random.rewind(other.random.state());
    this.requestIds.random.rewind(other.requestIds.random.state());
    this.faultRandom.rewind(other.faultRandom.state());
    this.start = this.streams();
  }

  newObjectId(now: number, taken: (id: string) => boolean): string {
    return untaken(() => objectId(now, this.machine, this.counters.object++), taken);
  }

  newNumericId(taken: (id: string) => boolean): string {
    return untaken(() => String(this.counters.numeric++), taken);
  }

  /**
   * Runs a write as one unit: if it throws, every collection, index and queued job is as it was
   * before, so a rejected request changes nothing however far it got. Id counters are not wound
   * back (what a rejected request drew is part of the request sequence, so replays stay identical).
   */
  transaction<T>(write: () => T, observe?: (changes: Changes) => void): T {
    // The last transaction's log, emptied by its commit or undo (kept only if it was); a nested one makes its own.
    const log = this.idleLog ?? new UndoLog();
    this.idleLog = null;
    const data = this.data;
    const jobCounter = this.counters.job;
    const partsTotal = this.partsTotal;
    const maps = mapsOf(data);
    // Indexed, not for-of: these two loops over some forty maps are on every write request, and
    // their iterators were the largest allocation of a POST /events outside its records.
    for (let i = 0; i < maps.length; i++) (maps[i] as AnyCowMap).undo = log;
    this.sorted.begin();
    this.conversationLists.begin();
    this.order.begin(data.customers);
    this.deliveries.begin();
    let changes: Changes | undefined;
    let result: T;
    try {
      result = write();
      // What the request changed, read before the log forgets it; handed over once the request stands.
      changes = observe && [...log.touched()];
      // The request stands: the overlays drop what it deleted, the derived indexes keep its changes.
      log.commit();
      this.sorted.commit();
      this.conversationLists.commit();
      this.order.commit();
      this.deliveries.commit();
    } catch (err) {
      // The derived indexes followed the writes being undone: revert their journaled changes.
      this.sorted.rollback();
      this.conversationLists.rollback();
      log.undo();
      this.order.rollback(data.customers);
      this.partsTotal = partsTotal;
      if (this.counters.job !== jobCounter) this.jobs = this.jobs.filter((j) => j.id < jobCounter);
      this.deliveries.rollback();
      this.budgets?.recount(this);
      throw err;
    } finally {
      for (let i = 0; i < maps.length; i++) (maps[i] as AnyCowMap).undo = null;
      if (log.empty) this.idleLog = log;
    }
    // Outside the unit: the request stands whatever the observer does.
    observe?.(changes as Changes);
    return result;
  }

  /** Back to the seeded state, streams rewound unless `ids` is `fresh`; O(what the app changed). */
  reset(ids: IdsMode): void {
    this.order.clear();
    this.sorted.clear();
    this.conversationLists.clear();
    this.companyOrder.clear();
    this.scroll = null;
    this.data = liveOf(this.base.data);
    this.jobs = otherJobs(this.base.jobs);
    this.deliveries = DeliveryQueue.of(this.base.jobs);
    this.partsTotal = this.base.partsTotal;
    // Stryker disable next-line ObjectLiteral: equivalent, as the field's initial window above
    this.rate = { start: 0, used: 0 };
    if (ids === 'rewind') this.rewind(this.start);
  }

  snapshot(now: number): Snapshot {
    return {
      data: forkOf(this.data),
      jobs: [...this.jobs],
      deliveries: this.deliveries.clone(),
      partsTotal: this.partsTotal,
      rate: { ...this.rate },
      streams: this.streams(),
      scroll: this.scroll,
      created_at: now,
    };
  }

  /** Exactly the snapshot's state, rate-limit window included; streams rewound unless `ids` is `fresh`. */
  restore(snapshot: Snapshot, ids: IdsMode): void {
    this.order.clear();
    this.sorted.clear();
    this.conversationLists.clear();
    this.companyOrder.clear();
    this.scroll = snapshot.scroll;
    this.data = forkOf(snapshot.data);
    this.jobs = [...snapshot.jobs];
    this.deliveries = snapshot.deliveries.clone();
    this.partsTotal = snapshot.partsTotal;
    this.rate = { ...snapshot.rate };
    if (ids === 'rewind') this.rewind(snapshot.streams);
    // The streams run on from where they are, which may be before the ids of the events restored.
    else guardEventIds(this.data);
  }

  /**
   * Takes a saved state (--data-dir) as the current one, with the streams where they stood when it
   * was saved, so ids handed out before the restart are not handed out again. `asSeeded` makes it
   * the state a reset returns to as well (an app the fixtures do not hold); otherwise a reset still
   * returns to the fixtures.
   */
  adopt(saved: AppBase, streams: StreamPosition, asSeeded: boolean): void {
    this.order.clear();
    this.sorted.clear();
    this.conversationLists.clear();
    this.companyOrder.clear();
    this.scroll = null;
    this.data = liveOf(saved.data);
    this.jobs = otherJobs(saved.jobs);
    this.deliveries = DeliveryQueue.of(saved.jobs);
    this.partsTotal = saved.partsTotal;
    this.rewind(streams);
    if (asSeeded) this.start = this.streams();
  }

  private checkRoom(kind: keyof AppLimits, count: number, what: string): void {
    if (count > this.limits[kind]) {
      throw apiError('resource_limit_exceeded', `This app already holds the most ${what} the mock allows (${this.limits[kind]}); reset it or raise the limit.`);
    }
  }

  // --- writes that keep the indexes true -------------------------------------------------------

  saveCustomer(next: Customer): void {
    const { customers, byUserId } = this.data;
    const prev = customers.get(next.id);
    // Archived users are kept too, so they count towards the limit.
    if (!prev) this.checkRoom('customers', customers.size + this.data.archived.size + 1, 'customers (users, leads, visitors and archived users)');
    // Before anything moves: a refusal leaves the indexes as they were even outside a transaction.
    charge(this, 'customers', customerShare(this, next) - (prev ? customerShare(this, prev) : 0));
    // Most writes change attributes only; the indexes are touched only where identity changed.
    if (prev?.user_id !== next.user_id) {
      if (prev?.user_id && byUserId.get(prev.user_id) === next.id) byUserId.delete(prev.user_id);
      if (next.user_id) byUserId.set(next.user_id, next.id);
    }
    const prevEmail = prev?.email ?? null;
    const nextEmail = next.email ?? null;
    if (prevEmail !== nextEmail) {
      if (prevEmail) leave(this.emailMaps(), prevEmail, next.id);
      if (nextEmail) join(this.emailMaps(), nextEmail, next.id);
    }
    if (customerKeysChanged(prev, next)) syncHolder(this.holderMaps(), next.id, prev ? customerKeys(prev) : [], customerKeys(next));
    const prevPhone = prev?.phone ?? null;
    const nextPhone = next.phone ?? null;
    if (prevPhone !== nextPhone) {
      if (prevPhone) leave(this.phoneMaps(), prevPhone, next.id);
      if (nextPhone) join(this.phoneMaps(), nextPhone, next.id);
    }
    if (!prev || !sameTallies(prev, next)) {
      adjustTallies(this.data.tallies, prev ? customerTallyKeys(prev) : [], customerTallyKeys(next));
      if (prev?.custom_attributes !== next.custom_attributes) this.syncAttributeNames(prev?.custom_attributes ?? {}, next.custom_attributes, next.updated_at);
    }
    if (prev?.companies !== next.companies) this.syncCompanies(next.id, prev?.companies ?? [], next.companies);
    else if (prev && (prev.type === 'visitor') !== (next.type === 'visitor')) {
      // Same companies, but a visitor is none of their people: becoming (or ceasing to be) one moves
      // each company's user count, and with it the company's place in the company list.
      for (const companyId of next.companies) this.sortCompany(companyId, undefined, this.data.companies.get(companyId));
    }
    const version = customers.version;
    customers.set(next.id, next);
    this.order.saved(customers, prev, next, version);
    this.sortCustomer(next.id, prev, next);
  }

  /**
   * `bytesStay`: the record moves to the archive, where its bytes stay counted, so its share is
   * neither measured nor given back (two look-ups in the seeded base and four measurings saved).
   */
  removeCustomer(id: string, bytesStay = false): void {
    const prev = this.data.customers.get(id);
    if (!prev) return;
    if (prev.user_id && this.data.byUserId.get(prev.user_id) === id) this.data.byUserId.delete(prev.user_id);
    if (prev.email) leave(this.emailMaps(), prev.email, id);
    syncHolder(this.holderMaps(), id, customerKeys(prev), []);
    if (prev.phone) leave(this.phoneMaps(), prev.phone, id);
    adjustTallies(this.data.tallies, customerTallyKeys(prev), []);
    this.syncAttributeNames(prev.custom_attributes, {}, 0);
    if (!bytesStay) charge(this, 'customers', -customerShare(this, prev));
    this.syncCompanies(id, prev.companies, []);
    const version = this.data.customers.version;
    this.data.customers.delete(id);
    this.order.removed(this.data.customers, prev, version);
    this.sortCustomer(id, prev, undefined);
  }

  /**
   * The registry follows the records: a name a customer now holds that it lacks is registered
   * (a user back from the archive brings its names back), and a name no customer holds any more
   * goes unless the fixture declared it. So the registry, and its unpaged list, is bounded by the
   * customers' own data, which the byte budget bounds.
   */
  private syncAttributeNames(before: CustomAttributes, after: CustomAttributes, at: number): void {
    const registry = this.data.dataAttributes;
    for (const name of Object.keys(after)) {
      if (!registry.has(name)) registry.set(name, customAttribute(name, after[name] as CustomAttributeValue, at));
    }
    for (const name of Object.keys(before)) {
      if (Object.hasOwn(after, name) || this.base.declaredAttributes.has(name)) continue;
      if ((this.data.tallies.get(attributeKey(name)) ?? 0) === 0) registry.delete(name);
    }
  }

  /**
   * Tells the sorted indexes a customer changed: its type's whole list and the lists of each tag
   * and segment it held or holds (only while some tag's or segment's list has an index).
   */
  private sortCustomer(id: string, prev: Customer | undefined, next: Customer | undefined): void {
    const type = (next ?? prev)?.type as Customer['type'];
    this.sorted.update(`customer:${type}`, id, next);
    if (prev !== undefined && next !== undefined && prev.type !== next.type) this.sorted.update(`customer:${prev.type}`, id, next);
    if (!this.sorted.hasLabelled) return;
    for (const group of labelGroups(prev, next, (c) => `customer:${c.type}`)) this.sorted.update(group, id, next);
  }

  /** The same for a company: the whole company list, and the lists of its tags and segments. */
  private sortCompany(id: string, prev: Company | undefined, next: Company | undefined): void {
    this.sorted.update('company', id, next);
    if (!this.sorted.hasLabelled) return;
    for (const group of labelGroups(prev, next, () => 'company')) this.sorted.update(group, id, next);
  }

  /** Company membership, after the tallies: a company's place in the sorted lists depends on its user count. */
  private syncCompanies(customerId: string, before: readonly string[], after: readonly string[]): void {
    for (const companyId of syncMembership(this.memberMaps(), customerId, before, after)) {
      this.sortCompany(companyId, undefined, this.data.companies.get(companyId));
    }
  }

  saveCompany(next: Company): void {
    const prev = this.data.companies.get(next.id);
    if (!prev) this.checkRoom('companies', this.data.companies.size + 1, 'companies');
    charge(this, 'companies', companyShare(this, next) - (prev ? companyShare(this, prev) : 0));
    if (prev && prev.company_id !== next.company_id) this.data.byCompanyId.delete(prev.company_id);
    this.data.byCompanyId.set(next.company_id, next.id);
    adjustTallies(this.data.tallies, prev ? companyTallyKeys(prev) : [], companyTallyKeys(next));
    if (companyKeysChanged(prev, next)) syncHolder(this.holderMaps(), next.id, prev ? companyKeys(prev) : [], companyKeys(next));
    if (prev?.custom_attributes !== next.custom_attributes) registerCompanyAttributes(this.data.companyAttributes, next.custom_attributes, next.updated_at);
    const version = this.data.companies.version;
    this.data.companies.set(next.id, next);
    this.companyOrder.saved(this.data.companies, next.id, !prev, version);
    this.sortCompany(next.id, prev, next);
  }

  saveConversation(next: Conversation): void {
    const prev = this.data.conversations.get(next.id);
    const added = next.parts.length - (prev?.parts.length ?? 0);
    if (added > 0) this.checkRoom('parts', this.partsTotal + added, 'conversation parts');
    charge(this, 'conversations', conversationDelta(prev, next));
    this.partsTotal += added;
    if (prev?.tags !== next.tags || assigneeKey(prev.assignee) !== assigneeKey(next.assignee)) {
      syncHolder(this.holderMaps(), next.id, prev ? conversationKeys(prev) : [], conversationKeys(next));
    }
    adjustTallies(this.data.tallies, prev ? conversationTallyKeys(prev) : [], conversationTallyKeys(next));
    if (prev?.customers !== next.customers) {
      const maps = this.conversationMaps();
      const was = new Set(prev?.customers ?? []);
      const is = new Set(next.customers);
      for (const id of was) if (!is.has(id)) leave(maps, id, next.id);
      for (const id of is) if (!was.has(id)) join(maps, id, next.id);
    }
    this.data.conversations.set(next.id, next);
    this.conversationLists.saved(prev, next);
  }

  saveTag(next: Tag): void {
    const prev = this.data.tags.get(next.id);
    if (!prev) this.checkRoom('tags', this.data.tags.size + 1, 'tags');
    if (prev && tagNameKey(prev.name) !== tagNameKey(next.name)) {
      this.data.tagByName.delete(tagNameKey(prev.name));
    }
    this.data.tagByName.set(tagNameKey(next.name), next.id);
    this.data.tags.set(next.id, next);
  }

  // --- lookups ----------------------------------------------------------------------------------

  customerByUserId(userId: string): Customer | undefined {
    const id = this.data.byUserId.get(userId);
    return id === undefined ? undefined : this.data.customers.get(id);
  }

  customersByEmail(email: string): Customer[] {
    const key = normalEmail(email);
    const customers = this.data.customers;
    return joined(this.emailMaps(), key, (id) => {
      const c = customers.get(id);
      return c?.email === key ? c : undefined;
    });
  }

  emailMaps(): JoinMaps {
    return { logs: this.data.byEmail, seqs: this.data.emailSeqs };
  }

  phoneMaps(): JoinMaps {
    return { logs: this.data.byPhone, seqs: this.data.phoneSeqs };
  }

  conversationMaps(): JoinMaps {
    return { logs: this.data.conversationsOf, seqs: this.data.conversationSeqs };
  }

  memberMaps(): JoinMaps {
    return { logs: this.data.members, seqs: this.data.memberSeqs };
  }

  holderMaps(): JoinMaps {
    return { logs: this.data.holders, seqs: this.data.holderSeqs };
  }

  companyByCompanyId(companyId: string): Company | undefined {
    const id = this.data.byCompanyId.get(companyId);
    return id === undefined ? undefined : this.data.companies.get(id);
  }

  tagByName(name: string): Tag | undefined {
    const id = this.data.tagByName.get(tagNameKey(name));
    return id === undefined ? undefined : this.data.tags.get(id);
  }

  tally(key: string): number {
    return this.data.tallies.get(key) ?? 0;
  }

}

/**
 * What a record counts towards: its type; a user's or lead's tags and segments; a user's or lead's companies
 * (a company's "users" are its users and leads); a company's tags and segments.
 */
/** A customer attribute name's tally: how many customers hold it, so the registry can let go of names none does. */
const attributeKey = (name: string): string => `attr:${name}`;

export function customerTallyKeys(c: Customer): string[] {
  const keys = [`type:${c.type}`];
  for (const name of Object.keys(c.custom_attributes)) keys.push(attributeKey(name));
  // GET /counts?type=user counts users and leads ("Count Object includes count for users and leads").
  if (c.type !== 'visitor') {
    for (const t of c.tags) keys.push(`user-tag:${t}`);
    for (const s of c.segments) keys.push(`user-segment:${s}`);
  }
  if (c.type !== 'visitor') for (const co of c.companies) keys.push(`people:${co}`);
  return keys;
}

export function companyTallyKeys(c: Company): string[] {
  return [...c.tags.map((t) => `company-tag:${t}`), ...c.segments.map((s) => `company-segment:${s}`)];
}

/** Whether two versions of a record count towards the same tallies (lists are replaced, never mutated). */
function sameTallies(a: Customer, b: Customer): boolean {
  return a.type === b.type && a.tags === b.tags && a.segments === b.segments && a.companies === b.companies && a.custom_attributes === b.custom_attributes;
}

/** Applies only the net change, so a write that keeps a record's tags touches no tally. */
function adjustTallies(tallies: CowMap<number>, before: readonly string[], after: readonly string[]): void {
  const delta = new Map<string, number>();
  for (const k of before) delta.set(k, (delta.get(k) ?? 0) - 1);
  for (const k of after) delta.set(k, (delta.get(k) ?? 0) + 1);
  for (const [k, d] of delta) {
    if (d === 0) continue;
    const n = (tallies.get(k) ?? 0) + d;
    if (n === 0) tallies.delete(k);
    else tallies.set(k, n);
  }
}

/**
 * The tag and segment groups of the sorted indexes a record was in or is in (`<kind>:t:<id>`), each
 * once; a customer that changed type names its groups under both types.
 */
function labelGroups<R extends { tags: readonly string[]; segments: readonly string[] }>(prev: R | undefined, next: R | undefined, kind: (r: R) => string): Iterable<string> {
  const groups = new Set<string>();
  for (const r of prev === next ? [next] : [prev, next]) {
    if (r === undefined) continue;
    const k = kind(r);
    for (const t of r.tags) groups.add(`${k}:t:${t}`);
    for (const sg of r.segments) groups.add(`${k}:s:${sg}`);
  }
  return groups;
}

/**
 * The first id `draw` gives that `taken` does not hold: a seed may hold ids a rewound stream draws
 * again (the fixtures' own, or an export seeded back), and those are skipped, never handed out twice.
 */
function untaken(draw: () => string, taken: (id: string) => boolean): string {
  let id = draw();
  while (taken(id)) id = draw();
  return id;
}

/** Returns the companies joined or left. */
function syncMembership(members: JoinMaps, customerId: string, before: readonly string[], after: readonly string[]): string[] {
  // Sets, not a scan of one list per item of the other: a customer may belong to thousands.
  const was = new Set(before);
  const is = new Set(after);
  const changed: string[] = [];
  for (const companyId of was) {
    if (is.has(companyId)) continue;
    leave(members, companyId, customerId);
    changed.push(companyId);
  }
  for (const companyId of is) {
    if (was.has(companyId)) continue;
    join(members, companyId, customerId);
    changed.push(companyId);
  }
  return changed;
}
