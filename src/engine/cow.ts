// Copy-on-write map: a shared, never-mutated base (the seeded fixtures) under a private overlay of
// this app's writes. Resetting drops the overlay and a snapshot copies only the overlay, so both
// cost what the app changed, not what the fixtures hold.

/** An overlay slot's mark for a key deleted while the base (or, during a transaction, the overlay) holds it. */
export const DELETED: unique symbol = Symbol('deleted');
export type Slot<V> = V | typeof DELETED;

/**
 * A map's keys: text, or a number for a log kept by its places (events), which the engine hashes
 * and compares without a string to make, hash and read on every access.
 */
export type MapKey = string | number;

/** Any map, whatever it holds and however it is keyed (the undo log's and the app's list of them). */
export type AnyCowMap = CowMap<unknown, MapKey>;

/**
 * Steps a cleared log keeps room for, for the next transaction; a bigger one's arrays go to the
 * collector. A write request records a few steps (a POST /users 4 to 7, a POST /events 8 to 11, some
 * 16 when it evicts); the room kept is six arrays of this many slots, 6 KiB an app at most (6 MiB
 * over 1,000 provisioned apps).
 */
export const KEPT_STEPS = 128;

/**
 * Records what writes replaced, so a failed request can be undone: the overlay slot and the size
 * as they were before each write. Undoing in reverse order restores every map exactly. Steps are
 * kept as flat data rather than closures: every API write records several. The arrays keep their
 * length from one transaction to the next (a count says how many steps are this one's), cleared of
 * what they pointed at: emptied to length 0, they gave back their storage and every write request
 * grew them again, the largest allocation of a POST /events outside its records.
 */
export class UndoLog {
  private readonly maps: (AnyCowMap | undefined)[] = [];
  private readonly keys: (MapKey | undefined)[] = [];
  private readonly slots: unknown[] = [];
  private readonly counts: number[] = [];
  private steps = 0;
  /** Keys of the overlay deleted during the transaction, with their maps: kept in place until it ends (see CowMap.delete). */
  private readonly deadMaps: (AnyCowMap | undefined)[] = [];
  private readonly deadKeys: (MapKey | undefined)[] = [];
  private dead = 0;

  record(map: AnyCowMap, key: MapKey, slot: unknown, count: number): void {
    const i = this.steps++;
    this.maps[i] = map;
    this.keys[i] = key;
    this.slots[i] = slot;
    this.counts[i] = count;
  }

  /**
   * Whether the log holds nothing: only such a log is kept for the app's next transaction
   * (AppCore.idleLog, engine/app-core.ts). A delete records its step before its tombstone, so no steps means no
   * tombstones either.
   */
  get empty(): boolean {
    return this.steps === 0;
  }

  /** Each (map, key) the transaction wrote, once, with its slot before the first write (CowMap.prior reads it). */
  *touched(): IterableIterator<[AnyCowMap, MapKey, unknown]> {
    const seen = new Map<AnyCowMap, Set<MapKey>>();
    for (let i = 0; i < this.steps; i++) {
      const map = this.maps[i] as AnyCowMap;
      const key = this.keys[i] as MapKey;
      let keys = seen.get(map);
      if (!keys) seen.set(map, (keys = new Set()));
      if (keys.has(key)) continue;
      keys.add(key);
      yield [map, key, this.slots[i]];
    }
  }

  tombstone(map: AnyCowMap, key: MapKey): void {
    const i = this.dead++;
    this.deadMaps[i] = map;
    this.deadKeys[i] = key;
  }

  undo(): void {
    for (let i = this.steps - 1; i >= 0; i--) {
      (this.maps[i] as AnyCowMap).restoreSlot(this.keys[i] as MapKey, this.slots[i], this.counts[i] as number);
    }
    this.clear();
  }

  /** The transaction stands: what it deleted from the overlays goes for good. */
  commit(): void {
    for (let i = 0; i < this.dead; i++) (this.deadMaps[i] as AnyCowMap).purge(this.deadKeys[i] as MapKey);
    this.clear();
  }

  /** Nothing recorded, and nothing the steps pointed at (maps of a state since restored, values replaced) kept alive. */
  private clear(): void {
    release([this.maps, this.keys, this.slots], this.steps);
    release([this.deadMaps, this.deadKeys], this.dead);
    // The sizes are numbers, which keep nothing alive: only their storage goes past the room kept.
    if (this.steps > KEPT_STEPS) this.counts.length = 0;
    this.steps = this.dead = 0;
  }
}

/** The first `used` slots of each array cleared; past the room kept, the arrays emptied, their storage with them. */
function release(arrays: unknown[][], used: number): void {
  for (const array of arrays) {
    if (used > KEPT_STEPS) array.length = 0;
    else array.fill(undefined, 0, used);
  }
}

/** A base's keys and values in its order: built on first use, once per base (every map over it shares them). */
const IN_ORDER = new WeakMap<ReadonlyMap<MapKey, unknown>, { keys: MapKey[]; values: unknown[] }>();

function baseInOrder(base: ReadonlyMap<MapKey, unknown>): { keys: MapKey[]; values: unknown[] } {
  let ordered = IN_ORDER.get(base);
  if (ordered === undefined) {
    ordered = { keys: [], values: [] };
    for (const [key, value] of base) {
      ordered.keys.push(key);
      ordered.values.push(value);
    }
    IN_ORDER.set(base, ordered);
  }
  return ordered;
}

export class CowMap<V, K extends MapKey = string> {
  /** While set, every write records how to take itself back. */
  undo: UndoLog | null = null;
  /** Counts every change (undone ones too), so data derived from the map can tell it is current. */
  version = 0;

  protected constructor(
    protected readonly base: ReadonlyMap<K, V>,
    protected overlay: Map<K, Slot<V>>,
    protected count: number,
    /**
     * The base's keys that the overlay holds (replaced or deleted): a write that finds its key in
     * the overlay learns from this set, which holds only what the app changed, whether the base
     * holds it, instead of a lookup in a base of 100,000 keys that nothing else brought into the
     * cache (about a microsecond each, on every archive). Keys the app adds never enter it, so
     * creating records costs nothing more.
     */
    protected shadowed: Set<K>,
  ) {}

  /** The overlay slot `before` (undefined: none) and the size as they were; for UndoLog only. */
  restoreSlot(key: K, before: unknown, count: number): void {
    this.version++;
    if (before === undefined) {
      this.overlay.delete(key);
      this.shadowed.delete(key);
    } else this.overlay.set(key, before as Slot<V>);
    this.count = count;
  }

  /** The value a key had given its overlay slot before a write (UndoLog.touched). */
  prior(key: K, slot: unknown): V | undefined {
    if (slot === DELETED) return undefined;
    return slot === undefined ? this.base.get(key) : (slot as V);
  }

  static from<V, K extends MapKey = string>(base: ReadonlyMap<K, V>): CowMap<V, K> {
    return new CowMap<V, K>(base, new Map(), base.size, new Set());
  }

  static empty<V, K extends MapKey = string>(): CowMap<V, K> {
    return CowMap.from<V, K>(new Map());
  }

  /** Whether the key is one of the shared base's (its place in `entries` is the base's). */
  isBaseKey(key: K): boolean {
    return this.base.has(key);
  }

  get size(): number {
    return this.count;
  }

  /** How many base keys the overlay holds: read by tests, which check none is kept past its slot. */
  get shadowedCount(): number {
    return this.shadowed.size;
  }

  /** The shared base's keys in its order, present here or not (for indexes that rank them once). */
  baseKeys(): IterableIterator<K> {
    return this.base.keys();
  }

  /** The shared base itself: what data derived from the untouched base is kept by (never written). */
  get seeded(): ReadonlyMap<K, V> {
    return this.base;
  }

  /**
   * What the app changed, O(that): each key the overlay holds, its value now (undefined: deleted)
   * and whether the base holds it; keys the app added come in the order it added them. A map's
   * only: a CowLog keeps its own places apart, and nothing asks a log for them.
   */
  *changes(): IterableIterator<[K, V | undefined, boolean]> {
    for (const [key, slot] of this.overlay) yield [key, slot === DELETED ? undefined : slot, this.shadowed.has(key)];
  }

  get(key: K): V | undefined {
    const slot = this.overlay.get(key);
    if (slot === DELETED) return undefined;
    return slot ?? this.base.get(key);
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /**
   * `get(key)` for a key that, if it is a base key, is the `at`-th of the base's order (an order
   * index's rank): an unchanged base record is read from an array in the base's order instead of
   * the base's hash table. A page of consecutive records then reads consecutive slots, where 100
   * hash lookups in a 100,000-key base each miss the cache and the TLB (about 3 µs each on this
   * VM, most of a scroll page's gap against a 100-record app).
   */
  getAt(key: K, at: number): V | undefined {
    const slot = this.overlay.get(key);
    if (slot === DELETED) return undefined;
    if (slot !== undefined) return slot;
    const ordered = baseInOrder(this.base);
    return ordered.keys[at] === key ? (ordered.values[at] as V) : this.base.get(key);
  }

  set(key: K, value: V): void {
    // One overlay read serves the undo record and the size; the base is read only when it decides.
    const slot = this.overlay.get(key);
    this.undo?.record(this as AnyCowMap, key, slot, this.count);
    this.version++;
    if (slot === undefined) {
      if (this.base.has(key)) this.shadowed.add(key);
      else this.count++;
    } else if (slot === DELETED) this.count++;
    this.overlay.set(key, value);
  }

  delete(key: K): boolean {
    const slot = this.overlay.get(key);
    if (slot === DELETED || (slot === undefined && !this.base.has(key))) return false;
    const inBase = slot === undefined || this.shadowed.has(key);
    this.undo?.record(this as AnyCowMap, key, slot, this.count);
    this.version++;
    this.count--;
    // During a transaction a deleted key of the overlay stays where it is, marked deleted, so an
    // undo puts it back in its place: a Map re-inserts a removed key at the end, and the order of
    // entries (an export's order) would change although the request was refused.
    if (inBase) {
      this.overlay.set(key, DELETED);
      this.shadowed.add(key);
    } else if (this.undo) {
      this.overlay.set(key, DELETED);
      this.undo.tombstone(this as AnyCowMap, key);
    } else this.overlay.delete(key);
    return true;
  }

  /** Drops the mark of an own key deleted in a transaction that stands (only those are tombstoned), unless it was set again. */
  purge(key: K): void {
    if (this.overlay.get(key) === DELETED) this.overlay.delete(key);
  }

  /** Base order first (with this app's replacements), then entries the app added, in order. */
  *entries(): IterableIterator<[K, V]> {
    const overlay = this.overlay;
    // A fast path for an app that wrote nothing: the general path yields the same entries.
    const clean = overlay.size === 0;
    for (const [key, value] of this.base) {
      if (clean) {
        yield [key, value];
        continue;
      }
      const slot = overlay.get(key);
      if (slot === DELETED) continue;
      yield [key, slot ?? value];
    }
    if (clean) return;
    for (const [key, slot] of overlay) {
      // A key of the app's own is marked DELETED while the transaction that deleted it runs.
      if (slot !== DELETED && !this.shadowed.has(key)) yield [key, slot];
    }
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  *keys(): IterableIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  /** An independent map over the same base: O(size of the overlay). */
  fork(): CowMap<V, K> {
    return new CowMap<V, K>(this.base, new Map(this.overlay), this.count, new Set(this.shadowed));
  }

  /** Back to the base: O(1) in the base's size. Not while a transaction runs (`undo` set): a reset is not recorded. */
  reset(): void {
    this.version++;
    this.overlay = new Map();
    this.shadowed = new Set();
    this.count = this.base.size;
  }

  /** A map whose base is this map's current content, for building a new shared base. */
  materialize(): Map<K, V> {
    return new Map(this.entries());
  }
}
