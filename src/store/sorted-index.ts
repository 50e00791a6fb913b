// Records sorted by one numeric member (customers by created_at, last_request_at, signed_up_at or
// updated_at; companies by last_request_at), for the `sort`/`order` of list requests without a
// sort per request. Derived: built by one walk the first time a list asks for it, then kept true
// by the writes (AppState tells it of every record stored or removed: a binary search and one
// splice), and forgotten whenever the state is replaced or a write is undone, to be built again
// by the next list that needs it.

/** Ascending by key, nulls first, ties by id. */
function before(ka: number | null, ia: string, kb: number | null, ib: string): boolean {
  if (ka !== kb) return ka === null ? true : kb === null ? false : ka < kb;
  return ia < ib;
}

export class SortedIndex<T extends { id: string }> {
  private ids: string[] = [];
  private keys: (number | null)[] = [];
  private readonly keyOf = new Map<string, number | null>();

  constructor(
    private readonly key: (r: T) => number | null,
    /** Whether a record is listed at all (a company with no users is not). */
    private readonly include: (r: T) => boolean,
  ) {}

  build(records: Iterable<T>): this {
    const rows: { id: string; key: number | null }[] = [];
    for (const r of records) if (this.include(r)) rows.push({ id: r.id, key: this.key(r) });
    rows.sort((a, b) => (before(a.key, a.id, b.key, b.id) ? -1 : before(b.key, b.id, a.key, a.id) ? 1 : 0));
    this.ids = rows.map((r) => r.id);
    this.keys = rows.map((r) => r.key);
    for (const r of rows) this.keyOf.set(r.id, r.key);
    return this;
  }

  get length(): number {
    return this.ids.length;
  }

  /** Where (key, id) is or would go. */
  private position(key: number | null, id: string): number {
    let lo = 0;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.keys[mid] as number | null, this.ids[mid] as string, key, id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** After a write: `record` is what `id` is now (undefined once removed). */
  update(id: string, record: T | undefined): void {
    const has = this.keyOf.has(id);
    const old = this.keyOf.get(id) ?? null;
    const listed = record !== undefined && this.include(record);
    const next = listed ? this.key(record) : null;
    if (has === listed && (!has || old === next)) return;
    if (has) {
      const at = this.position(old, id);
      this.ids.splice(at, 1);
      this.keys.splice(at, 1);
      this.keyOf.delete(id);
    }
    if (listed) {
      const at = this.position(next, id);
      this.ids.splice(at, 0, id);
      this.keys.splice(at, 0, next);
      this.keyOf.set(id, next);
    }
  }

  /** Ids from `start` to before `end`, ascending, or descending when `desc`. */
  slice(start: number, end: number, desc: boolean): string[] {
    if (!desc) return this.ids.slice(start, end);
    const n = this.ids.length;
    return this.ids.slice(Math.max(0, n - end), Math.max(0, n - start)).reverse();
  }

  /** How many entries have a key below `min` (nulls count as below anything). */
  countBelow(min: number): number {
    let lo = 0;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keys[mid] as number | null;
      if (k === null || k < min) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** The sorted indexes of one app, by name, built on first use. */
export class SortedIndexes {
  private byName = new Map<string, SortedIndex<{ id: string }>>();

  get<T extends { id: string }>(name: string, build: () => SortedIndex<T>): SortedIndex<T> {
    let index = this.byName.get(name);
    if (index === undefined) {
      index = build() as unknown as SortedIndex<{ id: string }>;
      this.byName.set(name, index);
    }
    return index as unknown as SortedIndex<T>;
  }

  /** Tells every index whose name starts with `prefix` what `id` is now. */
  update<T extends { id: string }>(prefix: string, id: string, record: T | undefined): void {
    for (const [name, index] of this.byName) if (name.startsWith(prefix)) index.update(id, record);
  }

  /** Forgets every index (the state they describe was replaced or rolled back). */
  clear(): void {
    if (this.byName.size > 0) this.byName = new Map();
  }
}
