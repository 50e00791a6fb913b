// Customers of each type in list order (the order of the customers map: seeded records first, then
// each new one as it was created), so a deep page of GET /users or /contacts reads a slice instead
// of walking the app. Derived from the customers map and trusted only while it matches it: the
// index records the map and the map's version it reflects. One walk builds every type's ids and a
// rank per id (its place in the map's order); from then on the writes keep it: a new id is
// appended, a removal or a type change finds the id by a binary search on its rank and splices it
// out of (and into) its type's ids, a memmove and no walk. Only what cannot be placed by rank (a
// seeded id coming back after the index was built without it) or what replaces the map (an undone
// write, a reset or restore) leaves the index behind, for the next list that needs it to rebuild.
//
// A scroll keeps the ids array it opened on (scroll.ts): an array handed to a scroll is `held`, and
// the first splice after that works on a copy, so the scroll's view only ever grows past its end.

import type { CowMap } from '../core/cow.js';
import type { Customer, CustomerType } from './types.js';

interface TypeIds {
  ids: string[];
  /** A scroll reads this array: splice a copy instead. */
  held: boolean;
}

interface Index {
  map: CowMap<Customer>;
  version: number;
  byType: Map<CustomerType, TypeIds>;
  /** Each id's place in the map's order, for the binary searches (ids removed from the base keep theirs). */
  rank: Map<string, number>;
  nextRank: number;
}

export class CustomerOrder {
  private index: Index | undefined;
  /** Times the index was built by a walk: read by tests, which count rebuilds instead of timing them. */
  static builds = 0;

  private current(map: CowMap<Customer>): Index | undefined {
    const index = this.index;
    return index !== undefined && index.map === map && index.version === map.version ? index : undefined;
  }

  private typeIds(index: Index, type: CustomerType): TypeIds {
    let t = index.byType.get(type);
    if (t === undefined) {
      t = { ids: [], held: false };
      index.byType.set(type, t);
    }
    return t;
  }

  /** The ids of `type` in list order, when known without a walk. */
  known(map: CowMap<Customer>, type: CustomerType): readonly string[] | undefined {
    const index = this.current(map);
    return index === undefined ? undefined : this.typeIds(index, type).ids;
  }

  /** The ids of `type` in list order, built by one walk of the map when not known. */
  ids(map: CowMap<Customer>, type: CustomerType): readonly string[] {
    return this.typeIds(this.current(map) ?? this.build(map), type).ids;
  }

  /** Like `ids`, for a reader that keeps the array (a scroll): later removals splice a copy. */
  held(map: CowMap<Customer>, type: CustomerType): readonly string[] {
    const t = this.typeIds(this.current(map) ?? this.build(map), type);
    t.held = true;
    return t.ids;
  }

  private build(map: CowMap<Customer>): Index {
    CustomerOrder.builds++;
    const index: Index = { map, version: map.version, byType: new Map(), rank: new Map(), nextRank: 0 };
    for (const [id, c] of map.entries()) {
      index.rank.set(id, index.nextRank++);
      this.typeIds(index, c.type).ids.push(id);
    }
    this.index = index;
    return index;
  }

  /** After `map.set(next.id, next)`: `prev` is the record it replaced, `before` the map's version before the set. */
  saved(map: CowMap<Customer>, prev: Customer | undefined, next: Customer, before: number): void {
    const index = this.index;
    if (index === undefined || index.map !== map || index.version !== before) return;
    if (prev === undefined) {
      if (!map.isBaseKey(next.id)) {
        index.rank.set(next.id, index.nextRank++);
        this.typeIds(index, next.type).ids.push(next.id);
      } else if (index.rank.has(next.id)) {
        // A seeded id coming back takes its seeded place.
        this.insert(index, next.type, next.id);
      } else return;
    } else if (prev.type !== next.type) {
      this.remove(index, prev.type, next.id);
      this.insert(index, next.type, next.id);
    }
    index.version = map.version;
  }

  /** After `map.delete(prev.id)`: `before` is the map's version before the delete. */
  removed(map: CowMap<Customer>, prev: Customer, before: number): void {
    const index = this.index;
    if (index === undefined || index.map !== map || index.version !== before) return;
    this.remove(index, prev.type, prev.id);
    // A new id that comes back is a new entry of the map, last in its order; a seeded one keeps its place.
    if (!map.isBaseKey(prev.id)) index.rank.delete(prev.id);
    index.version = map.version;
  }

  /** Where `id` is or would go in its type's ids: a binary search on the ranks. */
  private position(index: Index, ids: readonly string[], id: string): number {
    const rank = index.rank.get(id) as number;
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((index.rank.get(ids[mid] as string) as number) < rank) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The ids of `type`, safe to splice: a scroll's array is copied once first. */
  private writable(index: Index, type: CustomerType): string[] {
    const t = this.typeIds(index, type);
    if (t.held) {
      t.ids = t.ids.slice();
      t.held = false;
    }
    return t.ids;
  }

  private remove(index: Index, type: CustomerType, id: string): void {
    const ids = this.writable(index, type);
    ids.splice(this.position(index, ids, id), 1);
  }

  private insert(index: Index, type: CustomerType, id: string): void {
    const ids = this.writable(index, type);
    ids.splice(this.position(index, ids, id), 0, id);
  }

  /** Forgets the index (the map it describes is being replaced). */
  clear(): void {
    this.index = undefined;
  }
}
