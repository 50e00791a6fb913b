// Records sorted by one numeric member (customers by created_at, last_request_at, signed_up_at or
// updated_at; companies by last_request_at), for the `sort`/`order` of list requests without a
// sort per request. Derived: built by one walk the first time a list asks for it, then kept true
// by the writes (AppState tells it of every record stored or removed: a binary search and one
// splice), and forgotten whenever the state is replaced, to be built again by the next list that
// needs it. A transaction's changes are journaled and reverted when its write is undone (one splice
// per change, never a rebuild).

/** Ascending by key, nulls first, ties by id. */
function before(ka: number | null, ia: string, kb: number | null, ib: string): boolean {
  if (ka !== kb) return ka === null ? true : kb === null ? false : ka < kb;
  return ia < ib;
}

export class SortedIndex<T extends { id: string }> {
  private ids: string[] = [];
  private keys: (number | null)[] = [];
  private readonly keyOf = new Map<string, number | null>();

  /** Times an index was built by a walk: read by tests, which count rebuilds instead of timing them. */
  static builds = 0;

  constructor(
    private readonly key: (r: T) => number | null,
    /** Whether a record is listed at all (a company with no users is not). */
    private readonly include: (r: T) => boolean,
  ) {}

  build(records: Iterable<T>): this {
    SortedIndex.builds++;
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

  /** After a write: `record` is what `id` is now (undefined once removed). Returns the entry it replaced, if it changed. */
  update(id: string, record: T | undefined): Entry | undefined {
    const listed = record !== undefined && this.include(record);
    return this.put(id, listed, listed ? this.key(record) : null);
  }

  /** Lists `id` under `next` (or not at all); returns the entry it had when that changed. */
  put(id: string, listed: boolean, next: number | null): Entry | undefined {
    const has = this.keyOf.has(id);
    const old = this.keyOf.get(id) ?? null;
    if (has === listed && (!has || old === next)) return undefined;
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
    return { listed: has, key: old };
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

/** Whether an id was listed, and under which key. */
export interface Entry {
  listed: boolean;
  key: number | null;
}

/** What a transaction changed: each index's replaced entries, and the indexes it built. */
interface Journal {
  changes: { index: SortedIndex<{ id: string }>; id: string; was: Entry }[];
  built: string[];
}

/** The sorted indexes of one app, by name, built on first use. */
export class SortedIndexes {
  private byName = new Map<string, SortedIndex<{ id: string }>>();
  private journal: Journal | null = null;

  get<T extends { id: string }>(name: string, build: () => SortedIndex<T>): SortedIndex<T> {
    let index = this.byName.get(name);
    if (index === undefined) {
      index = build() as unknown as SortedIndex<{ id: string }>;
      this.byName.set(name, index);
      this.journal?.built.push(name);
    }
    return index as unknown as SortedIndex<T>;
  }

  /** Tells every index whose name starts with `prefix` what `id` is now. */
  update<T extends { id: string }>(prefix: string, id: string, record: T | undefined): void {
    for (const [name, index] of this.byName) {
      if (!name.startsWith(prefix)) continue;
      const was = index.update(id, record as { id: string } | undefined);
      if (was !== undefined) this.journal?.changes.push({ index, id, was });
    }
  }

  /** From here on, changes are journaled until `commit` keeps them or `rollback` reverts them. */
  begin(): void {
    this.journal = { changes: [], built: [] };
  }

  commit(): void {
    this.journal = null;
  }

  /** Reverts what happened since `begin`, newest first: an index built meanwhile saw undone writes, so it goes. */
  rollback(): void {
    const journal = this.journal;
    this.journal = null;
    if (journal === null) return;
    for (let i = journal.changes.length - 1; i >= 0; i--) {
      const { index, id, was } = journal.changes[i] as Journal['changes'][number];
      index.put(id, was.listed, was.key);
    }
    for (const name of journal.built) this.byName.delete(name);
  }

  /** Forgets every index (the state they describe was replaced); an open journal stays open, for what is built after. */
  clear(): void {
    if (this.byName.size > 0) this.byName = new Map();
  }
}
