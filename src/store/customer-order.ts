// Customers of each type in list order (the order of the customers map: seeded records first, then
// each new one as it was created), so a deep page of GET /users or /contacts reads a slice instead
// of walking the app. Derived from the customers map and trusted only while it matches it: each
// index records the map and the map's version it reflects. Creating a customer appends to its
// type's index; anything else that could move a record between types or places (a type change, a
// removal, an undone write, a reset or restore, which replace the map) leaves the index behind, and
// the next list that needs it rebuilds it with one walk.

import type { CowMap } from '../core/cow.js';
import type { Customer, CustomerType } from './types.js';

interface Index {
  map: CowMap<Customer>;
  version: number;
  ids: string[];
}

export class CustomerOrder {
  private byType = new Map<CustomerType, Index>();

  /** The ids of `type` in list order, when known without a walk. */
  known(map: CowMap<Customer>, type: CustomerType): readonly string[] | undefined {
    const index = this.byType.get(type);
    return index !== undefined && index.map === map && index.version === map.version ? index.ids : undefined;
  }

  /** The ids of `type` in list order, built by one walk of the map when not known. */
  ids(map: CowMap<Customer>, type: CustomerType): readonly string[] {
    const known = this.known(map, type);
    if (known !== undefined) return known;
    const ids: string[] = [];
    for (const [id, c] of map.entries()) if (c.type === type) ids.push(id);
    this.byType.set(type, { map, version: map.version, ids });
    return ids;
  }

  /** After `map.set(next.id, next)`: `prev` is the record it replaced, `before` the map's version before the set. */
  saved(map: CowMap<Customer>, prev: Customer | undefined, next: Customer, before: number): void {
    for (const [type, index] of this.byType) {
      if (index.map !== map || index.version !== before) continue;
      if (prev === undefined) {
        // A new id goes last; a seeded id coming back takes its seeded place, so rebuild then.
        if (map.isBaseKey(next.id)) continue;
        if (type === next.type) index.ids.push(next.id);
      } else if (prev.type !== next.type) {
        continue;
      }
      index.version = map.version;
    }
  }

  /** Forgets every index (the map they describe is being replaced). */
  clear(): void {
    this.byType = new Map();
  }
}
