// A copy-on-write map for a log kept by its places (the app's events): the places the app adds are
// consecutive integers past the seeded ones, so its overlay of them is an array indexed by place
// instead of a hash table. Under load, a POST /events read, wrote and evicted some nine entries of a
// 100,000-entry Map, each first touch a cache miss; the array's slots for the newest places sit
// together, and eviction walks the oldest in order.

import { CowMap, DELETED, type AnyCowMap, type Slot } from './cow.js';

/** Evicted places at the front of the array are dropped once this many lead it, and they are half of it. */
const DROP_AFTER = 1024;

/** One past the base's largest place, per base (every log over it shares it): places from there on are the app's. */
const BASE_ENDS = new WeakMap<ReadonlyMap<number, unknown>, number>();

function baseEnd(base: ReadonlyMap<number, unknown>): number {
  let end = BASE_ENDS.get(base);
  if (end === undefined) {
    end = 1;
    for (const place of base.keys()) end = Math.max(end, place + 1);
    BASE_ENDS.set(base, end);
  }
  return end;
}

/**
 * CowMap's contract (its model test runs against both), but for the order of entries: the base's,
 * then the app's own keys below the base's end in the order added, then the rest by place, which
 * for a log (places written in increasing order) is the order added too. Places below the base's
 * end go through CowMap's overlay, places from there on through `own`. A place's slot in `own` is undefined (never
 * written, or deleted for good), DELETED (deleted by a transaction still running) or its value. Places
 * are written in increasing order (a log's next place), so the array only grows at its end; a write
 * past the end fills the gap, and one before the start (no log does that) moves the array.
 */
export class CowLog<V> extends CowMap<V, number> {
  /** own[i] is place ownStart + i. */
  private own: (Slot<V> | undefined)[] = [];
  private ownStart = 0;
  /** Slots before this are all undefined (evicted for good): dropped once there are enough of them. */
  private head = 0;

  private constructor(
    base: ReadonlyMap<number, V>,
    overlay: Map<number, Slot<V>>,
    count: number,
    shadowed: Set<number>,
    /** Places from here on are never the base's. */
    private readonly ownFrom: number,
  ) {
    super(base, overlay, count, shadowed);
  }

  /** A log over a shared base of seeded places. */
  static over<V>(base: ReadonlyMap<number, V>): CowLog<V> {
    return new CowLog<V>(base, new Map(), base.size, new Set(), baseEnd(base));
  }

  /** Slots the array holds (from its head): read by tests, which check evicted places are given back. */
  get slotCount(): number {
    return this.own.length - this.head;
  }

  /** The slot of an own place, undefined outside the array. */
  private slot(place: number): Slot<V> | undefined {
    const i = place - this.ownStart;
    return i >= 0 && i < this.own.length ? this.own[i] : undefined;
  }

  /** The index of an own place, the array grown (or moved) to hold it. */
  private indexFor(place: number): number {
    if (this.own.length === 0) {
      this.ownStart = place;
      this.head = 0;
    } else if (place < this.ownStart) {
      this.own = [...new Array<undefined>(this.ownStart - place).fill(undefined), ...this.own];
      this.ownStart = place;
      this.head = 0;
    }
    const i = place - this.ownStart;
    while (this.own.length < i) this.own.push(undefined);
    // A place written again behind the head (a log never does that) is read again.
    if (i < this.head) this.head = i;
    return i;
  }

  override get(place: number): V | undefined {
    if (place < this.ownFrom) return super.get(place);
    const slot = this.slot(place);
    return slot === DELETED ? undefined : slot;
  }

  override getAt(place: number): V | undefined {
    return this.get(place);
  }

  override set(place: number, value: V): void {
    if (place < this.ownFrom) return super.set(place, value);
    const i = this.indexFor(place);
    const slot = this.own[i];
    this.undo?.record(this as AnyCowMap, place, slot, this.count);
    this.version++;
    if (slot === undefined || slot === DELETED) this.count++;
    this.own[i] = value;
  }

  override delete(place: number): boolean {
    if (place < this.ownFrom) return super.delete(place);
    const slot = this.slot(place);
    if (slot === undefined || slot === DELETED) return false;
    this.undo?.record(this as AnyCowMap, place, slot, this.count);
    this.version++;
    this.count--;
    const i = place - this.ownStart;
    // Marked until the transaction stands (purge), as CowMap marks its own keys: the array is only
    // shortened outside a transaction, so an undo always finds the slot it restores.
    if (this.undo) {
      this.own[i] = DELETED;
      this.undo.tombstone(this as AnyCowMap, place);
    } else {
      this.own[i] = undefined;
      this.dropEvicted();
    }
    return true;
  }

  override purge(place: number): void {
    if (place < this.ownFrom) return super.purge(place);
    if (this.slot(place) !== DELETED) return;
    this.own[place - this.ownStart] = undefined;
    this.dropEvicted();
  }

  override restoreSlot(place: number, before: unknown, count: number): void {
    if (place < this.ownFrom) return super.restoreSlot(place, before, count);
    this.version++;
    if (before !== undefined || this.slot(place) !== undefined) this.own[this.indexFor(place)] = before as Slot<V> | undefined;
    // An undone append leaves no empty slot at the end.
    while (this.own.length > this.head && this.own[this.own.length - 1] === undefined) this.own.pop();
    this.count = count;
  }

  /** Moves the head past evicted slots; drops them once they lead the array and are half of it (amortised O(1) a delete). */
  private dropEvicted(): void {
    while (this.head < this.own.length && this.own[this.head] === undefined) this.head++;
    if (this.head >= DROP_AFTER && 2 * this.head >= this.own.length) {
      this.own = this.own.slice(this.head);
      this.ownStart += this.head;
      this.head = 0;
    }
  }

  override *entries(): IterableIterator<[number, V]> {
    yield* super.entries();
    for (let i = this.head; i < this.own.length; i++) {
      const slot = this.own[i];
      if (slot !== undefined && slot !== DELETED) yield [this.ownStart + i, slot];
    }
  }

  override fork(): CowLog<V> {
    const copy = new CowLog<V>(this.base, new Map(this.overlay), this.count, new Set(this.shadowed), this.ownFrom);
    // A slot marked by a transaction still running here is a deletion in the copy, which has none
    // to purge it: kept marked, it would stop the copy's head there, and its array would never shrink.
    copy.own = this.own.slice(this.head).map((slot) => (slot === DELETED ? undefined : slot));
    copy.ownStart = this.ownStart + this.head;
    return copy;
  }

  override reset(): void {
    super.reset();
    this.own = [];
    this.ownStart = 0;
    this.head = 0;
  }
}
