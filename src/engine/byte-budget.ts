// Store-wide byte budgets for what clients can pile up without a record limit in bytes: pending bulk
// items and error feeds, data events (with their metadata), note bodies, conversation texts, customer
// and company data (engine/record-bytes.ts), and what snapshots pin. Counts alone do not bound memory
// (100,000 notes of 1 MiB bodies are 100 GiB), so each kind is measured on what is kept and held,
// over every app of the store (provisioned ones included), under one budget.
//
// Each app's usage is a tally in its own `tallies` map (less its seeded base's), so a rolled-back write, a reset, a restore
// and a snapshot carry it exactly with the records. The store-wide sum is cached per app and the
// cache is trusted only while it says "fits": a write that would not fit recounts every app's
// tally first (O(apps), at most ~1,000 reads), so a reset elsewhere frees the room for the next
// write that needs it, and the common write costs O(1).

import { apiError } from '../core/errors.js';
import type { AppState, Snapshot } from '../state/app-state.js';

/** What an app's state holds, each kind a tally in the state (a snapshot carries them). */
export type StateKind = 'bulk' | 'events' | 'notes' | 'conversations' | 'customers' | 'companies';
export type BudgetKind = StateKind | 'webhooks' | 'snapshots';

const STATE_KINDS: readonly StateKind[] = ['bulk', 'events', 'notes', 'conversations', 'customers', 'companies'];
const KINDS: readonly BudgetKind[] = [...STATE_KINDS, 'webhooks', 'snapshots'];

const MiB = 1024 * 1024;

export const DEFAULT_BYTE_BUDGETS: Readonly<Record<BudgetKind, number>> = {
  bulk: 64 * MiB,
  events: 128 * MiB,
  notes: 64 * MiB,
  conversations: 256 * MiB,
  customers: 256 * MiB,
  companies: 64 * MiB,
  webhooks: 256 * MiB,
  snapshots: 512 * MiB,
};

/** The kinds a record write charges where it saves the record (charge), and what their refusal says. */
export type RecordKind = 'conversations' | 'customers' | 'companies';
const REFUSAL: Record<RecordKind, [string, string]> = {
  conversations: ['conversation text (messages, parts, attachment URLs)', 'reset apps, or send shorter messages'],
  customers: ['customer data (custom attributes, texts and lists of users, leads and visitors)', 'reset apps, delete people, or send fewer or shorter custom attributes'],
  companies: ['company data (custom attributes, texts and lists)', 'reset apps, or send fewer or shorter custom attributes'],
};

/** Each kind's tally key, made once: built on every call, each read hashed a new string (a dozen a POST /events). */
const TALLY_KEYS = Object.fromEntries(STATE_KINDS.map((kind) => [kind, `bytes:${kind}`])) as Record<StateKind, string>;
const tallyKey = (kind: StateKind): string => TALLY_KEYS[kind];

/** The app's tally of its webhook feeds' bytes (resources/subscriptions/feeds.ts); its queue's is in the queue. */
export const FEED_BYTES_TALLY = 'bytes:webhook-feeds';

/** A state an app's usage is read from: the app's own, or one of its snapshots' (`heldBy`). */
interface HeldState {
  readonly data: Snapshot['data'];
  readonly deliveries: { readonly bytes: number };
}

const heldBy = (snapshot: Snapshot): HeldState => ({ data: snapshot.data, deliveries: snapshot.saved.deliveries });

/** What a state keeps of webhook state: its feeds and its queued deliveries. */
export const webhookBytes = (state: HeldState): number => (state.data.tallies.get(FEED_BYTES_TALLY) ?? 0) + state.deliveries.bytes;

/** The same past the app's seeded queue (the fixtures hold no feeds), never less than nothing. */
const webhooksPastBase = (app: AppState, state: HeldState): number => Math.max(0, webhookBytes(state) - app.seededQueueBytes);

/** An app's share of the webhooks budget. */
export const webhookShare = (app: AppState): number => webhooksPastBase(app, app);

/** A member's bytes if it is text or a number (most are: counted in place, not pushed and popped); else it goes on the stack, 0 now. */
function leafBytes(v: unknown, stack: unknown[]): number {
  if (typeof v === 'string') return 16 + 2 * v.length;
  if (typeof v === 'number') return 16;
  stack.push(v);
  return 0;
}

/** A JS heap estimate of a parsed JSON value as kept: headers, slots, and two bytes a character (an upper bound). */
export function keptBytes(value: unknown): number {
  let total = 0;
  // An explicit stack: a deeply nested value must not overflow the call stack.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') total += 16 + 2 * v.length;
    else if (typeof v === 'number') total += 16;
    else if (Array.isArray(v)) {
      total += 32 + 8 * v.length;
      for (const item of v) total += leafBytes(item, stack);
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const key of Object.keys(o)) total += 24 + 2 * key.length + leafBytes(o[key], stack);
      total += 32;
    } else total += 8;
  }
  return total;
}

/**
 * What `app` holds of `kind` beyond its seeded base (negative once it has given up seeded records):
 * the base is the fixtures' (bounded by them, and shared by every app provisioned from it), not a
 * client's, so only what the API added counts.
 */
export const appBytes = (app: AppState, kind: StateKind): number => pastBase(app, app, kind);

/** A state's (the app's, or one of its snapshots') tally of `kind` less the app's seeded base's. */
const pastBase = (app: AppState, state: HeldState, kind: StateKind): number =>
  (state.data.tallies.get(tallyKey(kind)) ?? 0) - (app.base.data.tallies.get(tallyKey(kind)) ?? 0);

/**
 * What a snapshot (by default, one taken of the app now) pins beyond the seeded base: the sum of its
 * state's tallies, and its webhook feeds and queue, O(kinds). Data it shares with the live app is
 * counted again, so the figure bounds what snapshots keep alive even once the live app has let go of it.
 */
export function snapshotBytes(app: AppState, snapshot?: Snapshot): number {
  const state = snapshot === undefined ? app : heldBy(snapshot);
  let total = webhooksPastBase(app, state);
  for (const kind of STATE_KINDS) {
    total += Math.max(0, pastBase(app, state, kind));
  }
  return total;
}

/** An app's share of `kind`: its tally past the base, its webhook state, or the sum over its snapshots (at most 100). */
function counted(app: AppState, kind: BudgetKind): number {
  if (kind === 'webhooks') return webhookShare(app);
  if (kind !== 'snapshots') return Math.max(0, appBytes(app, kind));
  let total = 0;
  for (const snapshot of app.snapshots.values()) total += snapshotBytes(app, snapshot);
  return total;
}

/** Moves an app's (or a seeded base's) tally by `delta` bytes. */
export function addBytes(tallies: { get(key: string): number | undefined; set(key: string, value: number): unknown }, kind: StateKind, delta: number): void {
  if (delta === 0) return;
  const key = tallyKey(kind);
  tallies.set(key, (tallies.get(key) ?? 0) + delta);
}

/**
 * Moves an app's tally of `kind` by `delta` bytes, refusing growth past the budget with `403
 * resource_limit_exceeded`; called inside the write's transaction, so a refusal changes nothing.
 */
export function charge(app: AppState, kind: RecordKind, delta: number): void {
  const budgets = app.budgets;
  if (delta > 0 && budgets && !budgets.fits(app, kind, delta)) {
    const [what, remedy] = REFUSAL[kind];
    throw apiError('resource_limit_exceeded', `Every app together already keeps close to ${budgets.limits[kind]} bytes of ${what}, the most the mock keeps; ${remedy}.`);
  }
  addBytes(app.data.tallies, kind, delta);
}

export class ByteBudgets {
  readonly limits: Readonly<Record<BudgetKind, number>>;
  /** Each app's last counted share (one entry an app and kind, cleared by every recount). */
  private readonly cached = Object.fromEntries(KINDS.map((k) => [k, new Map<string, number>()])) as Record<BudgetKind, Map<string, number>>;
  private readonly sums = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<BudgetKind, number>;

  constructor(
    limits: Partial<Record<BudgetKind, number>> | undefined,
    private readonly apps: () => Iterable<AppState>,
  ) {
    this.limits = { ...DEFAULT_BYTE_BUDGETS, ...limits };
  }

  /** Bytes of `kind` held by every app, recounted now. */
  used(kind: BudgetKind): number {
    const cache = this.cached[kind];
    cache.clear();
    let sum = 0;
    for (const app of this.apps()) {
      const bytes = counted(app, kind);
      cache.set(app.id, bytes);
      sum += bytes;
    }
    this.sums[kind] = sum;
    return sum;
  }

  /** Bytes over the budget if `app` added `bytes` of `kind` now (recounted; 0: it fits). */
  excess(app: AppState, kind: BudgetKind, bytes: number): number {
    return this.fits(app, kind, bytes) ? 0 : this.sums[kind] + bytes - this.limits[kind];
  }

  /**
   * The app's shares counted again, after a rolled-back write: the write may have dropped state to
   * make room (its share cached low, so another app's estimate would pass the budget) or added.
   */
  recount(app: AppState): void {
    for (const kind of KINDS) {
      const cache = this.cached[kind];
      const was = cache.get(app.id);
      if (was === undefined) continue;
      const mine = counted(app, kind);
      this.sums[kind] += mine - was;
      cache.set(app.id, mine);
    }
  }

  /** Whether `app` may add `bytes` of `kind` now (recounting before it says no). */
  fits(app: AppState, kind: BudgetKind, bytes: number): boolean {
    const cache = this.cached[kind];
    const mine = counted(app, kind);
    const estimate = this.sums[kind] - (cache.get(app.id) ?? 0) + mine + bytes;
    // Counted as if the write stands: a rolled-back one calls recount, as what it dropped is back.
    const take = (): true => {
      this.sums[kind] = this.sums[kind] - (cache.get(app.id) ?? 0) + mine + bytes;
      cache.set(app.id, mine + bytes);
      return true;
    };
    if (estimate <= this.limits[kind]) return take();
    return this.used(kind) + bytes <= this.limits[kind] && take();
  }
}
