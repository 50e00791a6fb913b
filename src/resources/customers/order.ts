// Customers of each type in list order (the order of the customers map: seeded records first, then
// each new one as it was created), so a deep page of GET /users or /contacts reads a slice instead
// of walking the app. Derived from the customers map and trusted only while it matches it: the
// index records the map and the map's version it reflects. Each id has a rank (its place in the
// map's order; a seeded id's is its place in the seeded base, kept while it is archived, so it can
// come back to it). From then on the writes keep it, each in
// O(log n) (tombstone-list.ts): a new id is appended, a removal marks its entry dead, a seeded id
// coming back revives its entry, a type change does both. A transaction journals what it changed
// and a rolled-back write reverts it; only what replaces the map (a reset or restore) leaves the
// index behind, for the next list that needs it to rebuild.
//
// A rebuild does not walk the app: the untouched seeded base's lists and ranks are made once per
// base (by one walk of the base, shared by every app over it, their resets and restores), and an
// app's index starts from copies of those lists with only what the app changed laid over them.
// A reset or restore of a 100k-customer app then costs its first deep page array copies, not a walk.
//
// A scroll keeps the arrays it opened on (resources/scroll/rules.ts): appends and dead marks never move what it has
// seen, and whatever would shift entries works on copies.

import type { CowMap } from '../../engine/cow.js';
import { TombstoneList } from '../../engine/tombstone-list.js';
import type { Customer, CustomerType } from '../../engine/types.js';

interface Index {
  map: CowMap<Customer>;
  version: number;
  byType: Map<CustomerType, TombstoneList>;
  /** A seeded id's place in the map's order (present or not): its base place, shared with every app over the base. */
  baseRank: ReadonlyMap<string, number>;
  /** A new id's place: after every seeded id, in the order the ids were added. */
  rank: Map<string, number>;
  nextRank: number;
}

/** A seeded base's order untouched: made once per base, never changed, copied by each index built over it. */
interface Seeded {
  rank: ReadonlyMap<string, number>;
  byType: ReadonlyMap<CustomerType, TombstoneList>;
}

const SEEDED = new WeakMap<ReadonlyMap<string, Customer>, Seeded>();

function seededOf(base: ReadonlyMap<string, Customer>): Seeded {
  let seeded = SEEDED.get(base);
  if (seeded === undefined) {
    CustomerOrder.baseBuilds++;
    const rank = new Map<string, number>();
    const byType = new Map<CustomerType, TombstoneList>();
    for (const [id, c] of base) {
      const r = rank.size;
      rank.set(id, r);
      let list = byType.get(c.type);
      if (list === undefined) byType.set(c.type, (list = new TombstoneList(true)));
      list.push(id, r);
    }
    seeded = { rank, byType };
    SEEDED.set(base, seeded);
  }
  return seeded;
}

const rankOf = (index: Index, id: string): number | undefined => index.baseRank.get(id) ?? index.rank.get(id);

/** One change a transaction made, to be reverted if it is rolled back. */
interface Change {
  type: CustomerType;
  id: string;
  rank: number;
  /** added: the entry became live; removed: it died. */
  added: boolean;
  /** A new id whose rank was handed out by the change. */
  ranked: boolean;
}

interface Journal {
  /** The index as the transaction found it (undefined: none, or not current). */
  index: Index | undefined;
  changes: Change[];
  /** New ids removed meanwhile: their ranks go when the transaction stands and they are still gone. */
  forget: string[];
}

/** Arrays a scroll reads (see TombstoneList.hold). */
export interface HeldOrder {
  ids: readonly string[];
  dead?: readonly number[];
  /** Each id's rank: a seeded id's is its place in the seeded base (CowMap.getAt reads it there). */
  keys?: readonly (number | null)[];
}

export class CustomerOrder {
  private index: Index | undefined;
  private journal: Journal | null = null;
  /** Times an index was built, and times a seeded base was walked to make one: read by tests, which count them instead of timing them. */
  static builds = 0;
  static baseBuilds = 0;

  private current(map: CowMap<Customer>): Index | undefined {
    const index = this.index;
    return index !== undefined && index.map === map && index.version === map.version ? index : undefined;
  }

  private list(index: Index, type: CustomerType): TombstoneList {
    let t = index.byType.get(type);
    if (t === undefined) {
      // Keyed by rank: distinct integers, so a change finds its entry without a search.
      t = new TombstoneList(true);
      index.byType.set(type, t);
    }
    return t;
  }

  /** The ids of `type` from the `start`-th to before the `end`-th in list order, when known without a walk. */
  known(map: CowMap<Customer>, type: CustomerType, start = 0, end = Number.POSITIVE_INFINITY): string[] | undefined {
    const index = this.current(map);
    return index === undefined ? undefined : this.list(index, type).slice(start, end);
  }

  /** Like `known`, the index built (from the seeded base's lists and the app's changes) when not known. */
  ids(map: CowMap<Customer>, type: CustomerType, start = 0, end = Number.POSITIVE_INFINITY): string[] {
    return this.list(this.current(map) ?? this.build(map), type).slice(start, end);
  }

  /** The arrays of `type` as they stand, for a reader that keeps them (a scroll). */
  held(map: CowMap<Customer>, type: CustomerType): HeldOrder {
    return this.list(this.current(map) ?? this.build(map), type).hold();
  }

  /**
   * The seeded base's lists copied, then what the app changed laid over them: O(base) copying and
   * O(changes log changes) work, no walk. Seeded records of another type now are merged into their
   * lists in one pass each; records the app added come after every seeded one, in the order added.
   */
  private build(map: CowMap<Customer>): Index {
    CustomerOrder.builds++;
    const seeded = seededOf(map.seeded);
    const byType = new Map<CustomerType, TombstoneList>();
    for (const [type, list] of seeded.byType) byType.set(type, list.clone());
    const index: Index = { map, version: map.version, byType, baseRank: seeded.rank, rank: new Map(), nextRank: seeded.rank.size };
    const retyped = new Map<CustomerType, [number, string][]>();
    const added: Customer[] = [];
    for (const [id, c, inBase] of map.changes()) {
      if (!inBase) {
        if (c !== undefined) added.push(c);
        continue;
      }
      const r = seeded.rank.get(id) as number;
      const was = (map.seeded.get(id) as Customer).type;
      if (c?.type === was) continue;
      this.list(index, was).remove(r, id);
      if (c === undefined) continue;
      let entries = retyped.get(c.type);
      if (entries === undefined) retyped.set(c.type, (entries = []));
      entries.push([r, id]);
    }
    for (const [type, entries] of retyped) this.list(index, type).insertMany(entries);
    for (const c of added) {
      const r = index.nextRank++;
      index.rank.set(c.id, r);
      this.list(index, c.type).push(c.id, r);
    }
    this.index = index;
    return index;
  }

  /** After `map.set(next.id, next)`: `prev` is the record it replaced, `before` the map's version before the set. */
  saved(map: CowMap<Customer>, prev: Customer | undefined, next: Customer, before: number): void {
    const index = this.index;
    if (index === undefined || index.map !== map || index.version !== before) return;
    if (prev === undefined) {
      let r = rankOf(index, next.id);
      const ranked = r === undefined;
      if (r === undefined) {
        r = index.nextRank++;
        index.rank.set(next.id, r);
      }
      // A new id is last in the map's order; one that had a rank (seeded, or removed earlier in this
      // transaction, whose slot the map keeps) takes its place again.
      this.list(index, next.type).insert(next.id, r);
      this.journal?.changes.push({ type: next.type, id: next.id, rank: r, added: true, ranked });
    } else if (prev.type !== next.type) {
      const r = rankOf(index, next.id) as number;
      this.list(index, prev.type).remove(r, next.id);
      this.list(index, next.type).insert(next.id, r);
      this.journal?.changes.push({ type: prev.type, id: next.id, rank: r, added: false, ranked: false }, { type: next.type, id: next.id, rank: r, added: true, ranked: false });
    }
    index.version = map.version;
  }

  /** After `map.delete(prev.id)`: `before` is the map's version before the delete. */
  removed(map: CowMap<Customer>, prev: Customer, before: number): void {
    const index = this.index;
    if (index === undefined || index.map !== map || index.version !== before) return;
    const r = rankOf(index, prev.id) as number;
    this.list(index, prev.type).remove(r, prev.id);
    this.journal?.changes.push({ type: prev.type, id: prev.id, rank: r, added: false, ranked: false });
    // A new id that comes back later is a new entry of the map, last in its order; within the
    // transaction that removed it the map keeps its slot, so its rank goes only once that stands.
    if (!map.isBaseKey(prev.id)) {
      if (this.journal !== null) this.journal.forget.push(prev.id);
      else index.rank.delete(prev.id);
    }
    index.version = map.version;
  }

  /** From here on, changes are journaled until `commit` keeps them or `rollback` reverts them. */
  begin(map: CowMap<Customer>): void {
    // Stryker disable next-line ArrayDeclaration: equivalent, a stray change or forgotten id is of no type and no id: it touches no list a reader asks for and no rank
    this.journal = { index: this.current(map), changes: [], forget: [] };
  }

  commit(): void {
    const journal = this.journal;
    this.journal = null;
    const index = this.index;
    if (journal === null || index === undefined) return;
    for (const id of journal.forget) if (!index.map.has(id)) index.rank.delete(id);
  }

  /**
   * After the map's undo: reverts the journaled changes, newest first, so the index matches the map
   * as the transaction found it. An index built meanwhile saw undone writes, so it goes.
   */
  rollback(map: CowMap<Customer>): void {
    const journal = this.journal;
    this.journal = null;
    if (journal === null) return;
    const index = this.index;
    if (index === undefined || index !== journal.index) {
      this.index = undefined;
      return;
    }
    for (let i = journal.changes.length - 1; i >= 0; i--) {
      const change = journal.changes[i] as Change;
      const list = this.list(index, change.type);
      if (change.added) list.unpush(change.rank, change.id);
      else list.insert(change.id, change.rank);
      if (change.ranked) index.rank.delete(change.id);
    }
    index.version = map.version;
  }

  /** Forgets the index (the map it describes is being replaced). */
  clear(): void {
    this.index = undefined;
  }
}
