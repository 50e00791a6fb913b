// The keys of a copy-on-write map in its iteration order (base order, then keys as they were
// added), kept for reading a slice without a walk, like resources/customers/order.ts does per customer type.
// Trusted only while it matches the map's version: adding a key appends to it; a removal, an undone
// write, a reset or a restore leaves it behind, and the next reader rebuilds it with one walk. The
// array is only ever appended to, so a reader may keep it and its length as a stable prefix.

import type { CowMap } from './cow.js';

interface Index<V> {
  map: CowMap<V>;
  version: number;
  ids: string[];
}

export class InsertionOrder<V> {
  private index: Index<V> | undefined;

  ids(map: CowMap<V>): readonly string[] {
    const index = this.index;
    if (index !== undefined && index.map === map && index.version === map.version) return index.ids;
    const ids = [...map.keys()];
    this.index = { map, version: map.version, ids };
    return ids;
  }

  /** After `map.set(key, …)`: `added` says whether the key is new, `before` is the map's version before the set. */
  saved(map: CowMap<V>, key: string, added: boolean, before: number): void {
    const index = this.index;
    if (index === undefined || index.map !== map || index.version !== before) return;
    // A base key coming back takes its base place: rebuild then.
    if (added && map.isBaseKey(key)) return;
    if (added) index.ids.push(key);
    index.version = map.version;
  }

  clear(): void {
    this.index = undefined;
  }
}
