// What every app of the engine is, whatever its resources: declared collections over a shared seeded
// base, the streams its ids and random draws come from, and the four moves that change its whole
// state: a transaction, a reset to the seed, a snapshot and its restore. State beside the collections
// (derived indexes, queues, counters) takes part as a `Part`, declared once by the app's class, so no
// resource rule ever joins a begin, commit or rollback itself.

import { UndoLog, type AnyCowMap, type MapKey } from './cow.js';
import { forkOf, liveOf, mapsOf, type BaseOf, type Declarations, type LiveOf } from './collections.js';
import { machinePart, objectId, RequestIds } from '../core/ids.js';
import { hashSeed, Random, type RandomState } from '../core/random.js';
import type { AppConfig } from './types.js';

/**
 * State an app keeps beside its collections. A transaction brackets it (`begin`, then `commit` when
 * the request stands or `rollback` after the collections were undone); a reset or an adopted save
 * `seed`s it from a base; a snapshot keeps what `save` gives and a restore hands that back. A derived
 * index saves nothing and forgets itself on either: its next reader rebuilds or re-derives it.
 */
export interface Part<B, S = unknown> {
  seed(base: B): void;
  save(): S;
  restore(saved: S): void;
  begin?(): void;
  commit?(): void;
  rollback?(): void;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any part, whatever it saves
export type Parts<B> = Record<string, Part<B, any>>;
export type SavedOf<P> = { readonly [N in keyof P]: P[N] extends Part<never, infer S> ? S : never };

/** The seeded state the engine needs of any app: shared by the app, its resets and provisioned copies. */
export interface CoreBase<D extends Declarations> {
  config: AppConfig;
  data: BaseOf<D>;
  /** First value for the app's id counters, past everything the seed holds. */
  counters: { object: number; numeric: number; job: number };
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

export interface RateWindow {
  start: number;
  used: number;
}

export interface CoreSnapshot<D extends Declarations, P> {
  data: LiveOf<D>;
  saved: SavedOf<P>;
  rate: RateWindow;
  streams: StreamPosition;
  created_at: number;
}

/** What one transaction wrote: each (map, key) once, with its slot before (CowMap.prior). */
export type Changes = readonly [AnyCowMap, MapKey, unknown][];

export abstract class AppCore<D extends Declarations, B extends CoreBase<D>, P extends Parts<B>> {
  readonly id: string;
  config: AppConfig;
  data: LiveOf<D>;
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
  /** An undo log for the next transaction: one per write request was four arrays and a log of garbage. */
  private idleLog: UndoLog | null = null;
  private inTransaction = false;
  /** The app's parts, in the order a transaction brackets them (set once by the app's class). */
  protected abstract readonly parts: P;
  private partList: readonly Part<B>[] | undefined;

  constructor(
    readonly declared: D,
    readonly base: B,
    seed: number,
    config: AppConfig,
  ) {
    this.id = config.id;
    this.config = config;
    this.data = liveOf(declared, base.data);
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
  continueFrom(other: AppCore<D, B, P>): void {
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
   * Runs a write as one unit: if it throws, every collection and part is as it was before, so a
   * rejected request changes nothing however far it got. Id counters are not wound back (what a
   * rejected request drew is part of the request sequence, so replays stay identical).
   * Units do not nest: the maps hold one undo log and each part one journal, so a unit begun inside
   * another throws (a programming error; no request runs one inside another) and the outer one,
   * if it lets the error through, takes everything back.
   */
  transaction<T>(write: () => T, observe?: (changes: Changes) => void): T {
    if (this.inTransaction) throw new Error('a transaction cannot begin inside another');
    this.inTransaction = true;
    // The last transaction's log, emptied by its commit or undo (kept only if it was).
    const log = this.idleLog ?? new UndoLog();
    this.idleLog = null;
    const maps = mapsOf(this.data);
    const parts = (this.partList ??= Object.values(this.parts));
    // Indexed, not for-of: these loops over some forty maps are on every write request, and their
    // iterators were the largest allocation of a POST /events outside its records.
    for (let i = 0; i < maps.length; i++) (maps[i] as AnyCowMap).undo = log;
    for (let i = 0; i < parts.length; i++) (parts[i] as Part<B>).begin?.();
    let changes: Changes | undefined;
    let result: T;
    try {
      result = write();
      // What the request changed, read before the log forgets it; handed over once the request stands.
      changes = observe && [...log.touched()];
      // The request stands: the overlays drop what it deleted, the parts keep its changes.
      log.commit();
      for (let i = 0; i < parts.length; i++) (parts[i] as Part<B>).commit?.();
    } catch (err) {
      log.undo();
      for (let i = 0; i < parts.length; i++) (parts[i] as Part<B>).rollback?.();
      throw err;
    } finally {
      for (let i = 0; i < maps.length; i++) (maps[i] as AnyCowMap).undo = null;
      // Stryker disable next-line ConditionalExpression: equivalent in answers, a commit or an undo empties the log (kept: the next write allocates none)
      if (log.empty) this.idleLog = log;
      this.inTransaction = false;
    }
    // Outside the unit: the request stands whatever the observer does.
    observe?.(changes as Changes);
    return result;
  }

  /** Back to the seeded state, streams rewound unless `ids` is `fresh`; O(what the app changed). */
  reset(ids: IdsMode): void {
    this.seedFrom(this.base);
    // Stryker disable next-line ObjectLiteral: equivalent, as the field's initial window above
    this.rate = { start: 0, used: 0 };
    if (ids === 'rewind') this.rewind(this.start);
  }

  snapshot(now: number): CoreSnapshot<D, P> {
    const saved: Record<string, unknown> = {};
    for (const [name, part] of Object.entries(this.parts)) saved[name] = part.save();
    return { data: forkOf(this.declared, this.data), saved: saved as SavedOf<P>, rate: { ...this.rate }, streams: this.streams(), created_at: now };
  }

  /** Exactly the snapshot's state, rate-limit window included; streams rewound unless `ids` is `fresh`. */
  restore(snapshot: CoreSnapshot<D, P>, ids: IdsMode): void {
    for (const [name, part] of Object.entries(this.parts)) part.restore(snapshot.saved[name]);
    this.data = forkOf(this.declared, snapshot.data);
    this.rate = { ...snapshot.rate };
    if (ids === 'rewind') this.rewind(snapshot.streams);
    else this.streamsKept();
  }

  /**
   * Takes a saved state (--data-dir) as the current one, with the streams where they stood when it
   * was saved, so ids handed out before the restart are not handed out again. `asSeeded` makes it
   * the state a reset returns to as well (an app the fixtures do not hold); otherwise a reset still
   * returns to the fixtures.
   */
  adopt(saved: B, streams: StreamPosition, asSeeded: boolean): void {
    this.seedFrom(saved);
    this.rewind(streams);
    if (asSeeded) this.start = this.streams();
  }

  /** After a restore that kept the streams running: they may stand before ids the restored state holds. */
  protected streamsKept(): void {}

  private seedFrom(base: B): void {
    for (const part of Object.values(this.parts)) part.seed(base);
    this.data = liveOf(this.declared, base.data);
  }
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
