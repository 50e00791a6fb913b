// Records sorted by one numeric member (customers by created_at, last_request_at, signed_up_at or
// updated_at; companies by last_request_at), for the `sort`/`order` of list requests without a
// sort per request. Derived: built the first time a list asks for it, then kept true by the writes
// (AppState tells it of every record stored or removed: O(log n) for a removal, plus the entries
// after a record placed before the end, few for a key written now), and forgotten whenever the
// state is replaced. A list over one collection's records is built from a template made once per
// seeded base (`SortedIndexes.over`), so the first list after a reset or a restore copies the
// template and lays the app's changes over it instead of sorting the app again (`fromBase`: the
// same for a list whose membership reads more than its records, over the ids changed since the
// seed). A transaction's changes are journaled and reverted when its write is undone (one change
// each, never a rebuild).

import type { CowMap } from './cow.js';
import { before, TombstoneList } from './tombstone-list.js';

/** A base entry the index no longer lists (an index made `over` a template). */
const GONE = Symbol('gone');

export class SortedIndex<T extends { id: string }> {
  /** Entries by (key, id); a removal marks its entry dead, in O(log n) (tombstone-list.ts). */
  private list = new TombstoneList();
  /** Each listed id's key; over a template, what changed since it (GONE: no longer listed). */
  private readonly keyOf = new Map<string, number | null | typeof GONE>();
  /** The template's keys, shared and never written (an index made `over` one). */
  private baseKeyOf: ReadonlyMap<string, number | null | typeof GONE> | undefined;

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
    this.list.replace(
      rows.map((r) => r.id),
      rows.map((r) => r.key),
    );
    for (const r of rows) this.keyOf.set(r.id, r.key);
    return this;
  }

  /**
   * A copy of `template` (an index built over a seeded base, never written) with `changes` (the
   * app's records changed since that base: CowMap.changes) laid over it: O(n) array copying plus
   * O(k log k) for k changes, no sort and no read of an unchanged record.
   */
  static over<T extends { id: string }>(template: SortedIndex<T>, changes: Iterable<readonly [string, T | undefined, boolean]>): SortedIndex<T> {
    const index = new SortedIndex<T>(template.key, template.include).copy(template);
    const adds: [number | null, string][] = [];
    for (const [id, record] of changes) {
      const listed = record !== undefined && template.include(record);
      const next = listed ? template.key(record) : null;
      const was = template.entryOf(id);
      if (was !== GONE) {
        // Stryker disable next-line ConditionalExpression: equivalent when forced false, an entry removed and put back under its key is where it was
        if (listed && was === next) continue;
        index.list.remove(was, id);
        index.keyOf.set(id, GONE);
      }
      if (!listed) continue;
      adds.push([next, id]);
      index.keyOf.set(id, next);
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, inserting no entries copies the list as it is
    if (adds.length > 0) index.list.insertMany(adds);
    return index;
  }

  /** This index, not built, made a copy of `template` (built, and never written): O(n) array copying. */
  copy(template: SortedIndex<T>): this {
    this.list = template.list.clone();
    this.baseKeyOf = template.keyOf;
    return this;
  }

  /** Whether `id` is listed, and under which key. */
  private entryOf(id: string): number | null | typeof GONE {
    // Not `??`: a listed id's key may be null.
    const own = this.keyOf.get(id);
    if (own !== undefined) return own;
    const base = this.baseKeyOf?.get(id);
    return base === undefined ? GONE : base;
  }

  get length(): number {
    return this.list.live;
  }

  /** After a write: `record` is what `id` is now (undefined once removed). Returns the entry it replaced, if it changed. */
  update(id: string, record: T | undefined): Entry | undefined {
    const listed = record !== undefined && this.include(record);
    return this.put(id, listed, listed ? this.key(record) : null);
  }

  /** Lists `id` under `next` (or not at all); returns the entry it had when that changed. */
  put(id: string, listed: boolean, next: number | null): Entry | undefined {
    const entry = this.entryOf(id);
    const has = entry !== GONE;
    const old = has ? entry : null;
    if (has === listed && (!has || old === next)) return undefined;
    // Stryker disable next-line ConditionalExpression: equivalent when forced true, removing an entry the list does not hold does nothing
    if (has) this.list.remove(old, id);
    if (listed) this.list.insert(id, next);
    // Over a template, an id the template lists is marked gone; any other is simply forgotten.
    // Stryker disable next-line ConditionalExpression: equivalent when forced true, an own id marked gone reads as one never listed
    const shadowsTemplate = this.baseKeyOf?.has(id) === true;
    if (listed) this.keyOf.set(id, next);
    else if (shadowsTemplate) this.keyOf.set(id, GONE);
    else this.keyOf.delete(id);
    return { listed: has, key: old };
  }

  /** Ids from `start` to before `end`, ascending, or descending when `desc`. */
  slice(start: number, end: number, desc: boolean): string[] {
    if (!desc) return this.list.slice(start, end);
    const n = this.list.live;
    return this.list.slice(Math.max(0, n - end), Math.max(0, n - start)).reverse();
  }

  /** How many entries have a key below `min` (nulls count as below anything). */
  countBelow(min: number): number {
    // The first position at or after (min, ''): every entry before it has a key below min or null.
    return this.list.liveBefore(this.list.find(min, ''));
  }
}

/** Whether an id was listed, and under which key. */
export interface Entry {
  listed: boolean;
  key: number | null;
}

/** Templates by seeded base (CowMap.seeded, or the base a seed named), then by group and key: kept while the base is. */
const TEMPLATES = new WeakMap<object, Map<string, SortedIndex<{ id: string }>>>();

function templatesOf(base: object): Map<string, SortedIndex<{ id: string }>> {
  let templates = TEMPLATES.get(base);
  if (templates === undefined) {
    templates = new Map();
    TEMPLATES.set(base, templates);
  }
  return templates;
}

/** A base and, for each followed group, the ids changed since the state was that base. */
export interface SeedChanges {
  readonly base: object;
  readonly changed: ReadonlyMap<string, ReadonlySet<string>>;
}

/** How `SortedIndexes.fromBase` makes a list: over the seeded base, for the app, and a record as it is now. */
export interface FromBase<T extends { id: string }> {
  /** An index built over the seeded base's records, reading only the base (its template). */
  seeded(): SortedIndex<T>;
  /** An index, not built, whose include and key read the app as it is. */
  make(): SortedIndex<T>;
  /** The app's records the list may hold (a build after a restore). */
  records(): Iterable<T>;
  /** A record as the app holds it now, or undefined when gone. */
  current(id: string): T | undefined;
}

/** What a transaction changed: each index's replaced entries, and the indexes it built. */
interface Journal {
  changes: { index: SortedIndex<{ id: string }>; id: string; was: Entry }[];
  built: { group: string; key: string }[];
}

/**
 * The sorted indexes of one app, built on first use: by group (the records a list holds: a type's
 * whole list, `customer:user`, or the holders of one tag or segment, `customer:user:t:17`) and sort
 * key. A write tells only the groups the record was or is in, so it costs O(the record's tags and
 * segments), whatever indexes other labels have.
 */
export class SortedIndexes {
  private groups = new Map<string, Map<string, SortedIndex<{ id: string }>>>();
  /** Groups of a tag or segment: while none, a write looks at no label. */
  private labelled = 0;
  private journal: Journal | null = null;
  /** The seeded base the state stands on since the last seed (none after a restore). */
  private base: object | undefined;
  /** For each followed group, the ids told of a change since that seed (at most the app's records of the group). */
  private readonly changed = new Map<string, Set<string>>();

  /** `followed`: the groups `fromBase` serves, whose changes since a seed are kept. */
  // Stryker disable next-line ArrayDeclaration: equivalent, no group is named "Stryker was here"
  constructor(private readonly followed: readonly string[] = []) {}

  get<T extends { id: string }>(group: string, key: string, build: () => SortedIndex<T>): SortedIndex<T> {
    let byKey = this.groups.get(group);
    if (byKey === undefined) {
      byKey = new Map();
      this.groups.set(group, byKey);
      if (isLabelled(group)) this.labelled++;
    }
    let index = byKey.get(key);
    if (index === undefined) {
      index = build() as unknown as SortedIndex<{ id: string }>;
      byKey.set(key, index);
      this.journal?.built.push({ group, key });
    }
    return index as unknown as SortedIndex<T>;
  }

  /**
   * Like `get`, for a list of one collection's records: the index is `SortedIndex.over` a template
   * built once per seeded base (by `make` over `seeded`, the base's records the list may hold) with
   * the map's changes laid over it. Only for lists whose `include` and key read the record alone.
   */
  over<T extends { id: string }>(group: string, key: string, map: CowMap<T>, make: () => SortedIndex<T>, seeded: () => Iterable<T>): SortedIndex<T> {
    return this.get(group, key, () => {
      const templates = templatesOf(map.seeded);
      const name = `${group} ${key}`;
      let template = templates.get(name) as SortedIndex<T> | undefined;
      if (template === undefined) {
        template = make().build(seeded());
        // A tag's or segment's that the base has no holders of is not kept (it costs nothing to
        // make again): so templates stay within the base's own lists, whatever labels apps create.
        if (template.length > 0 || !isLabelled(group)) templates.set(name, template as unknown as SortedIndex<{ id: string }>);
      }
      return SortedIndex.over(template, map.changes());
    });
  }

  /**
   * Like `over`, for a followed group (told of every change, no shortcut skipping it) whose list
   * may read more than its records (a company's user count): the template is `list.seeded()`, an
   * index built over the seeded base alone, made once per base; the app's own index
   * (`list.make()`) copies it and takes, as `list.current` reads them now, the records told changed
   * since the seed (a snapshot keeps them: `saveChanges`). With no base (a state restored from one
   * that had none) it is `list.make()` built over `list.records()`.
   */
  fromBase<T extends { id: string }>(group: string, key: string, list: FromBase<T>): SortedIndex<T> {
    return this.get(group, key, () => {
      const base = this.base;
      const changed = this.changed.get(group);
      if (base === undefined || changed === undefined) return list.make().build(list.records());
      const templates = templatesOf(base);
      const name = `${group} ${key}`;
      let template = templates.get(name) as SortedIndex<T> | undefined;
      if (template === undefined) {
        template = list.seeded();
        templates.set(name, template as unknown as SortedIndex<{ id: string }>);
      }
      const index = list.make().copy(template);
      for (const id of changed) index.update(id, list.current(id));
      return index;
    });
  }

  /** Whether any group of a tag or segment has an index. */
  get hasLabelled(): boolean {
    return this.labelled > 0;
  }

  /** Tells every index of `group` what `id` is now. */
  update<T extends { id: string }>(group: string, id: string, record: T | undefined): void {
    // Whether or not it has an index yet: another key of the group may be made from the template later.
    this.changed.get(group)?.add(id);
    const byKey = this.groups.get(group);
    if (byKey === undefined) return;
    for (const index of byKey.values()) {
      const was = index.update(id, record as { id: string } | undefined);
      if (was !== undefined) this.journal?.changes.push({ index, id, was });
    }
  }

  /** Forgets the indexes of a tag's or segment's lists (it is being deleted: its holders would leave one by one). */
  dropLabel(label: 't' | 's', id: string): void {
    for (const kind of ['customer:user', 'customer:contact', 'customer:visitor', 'company']) {
      if (this.groups.delete(`${kind}:${label}:${id}`)) this.labelled--;
    }
  }

  /** From here on, changes are journaled until `commit` keeps them or `rollback` reverts them. */
  begin(): void {
    // Stryker disable next-line ArrayDeclaration: equivalent for `built`, undoing a build of no group does nothing
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
    for (const { group, key } of journal.built) this.groups.get(group)?.delete(key);
  }

  /** What a snapshot keeps (copies): the base its state stands on and the ids changed since, so a restore's lists are copies too. */
  saveChanges(): SeedChanges | undefined {
    if (this.base === undefined) return undefined;
    return { base: this.base, changed: new Map([...this.changed].map(([group, ids]) => [group, new Set(ids)])) };
  }

  /** Forgets every index, the state now being what `saved` describes (none: sorted again). */
  restoreChanges(saved: SeedChanges | undefined): void {
    this.clear();
    if (saved === undefined) return;
    this.base = saved.base;
    for (const [group, ids] of saved.changed) this.changed.set(group, new Set(ids));
  }

  /** Forgets every index, the state now being `base` as seeded: `fromBase` lists copy its templates. */
  seeded(base: object): void {
    this.clear();
    this.base = base;
    for (const group of this.followed) this.changed.set(group, new Set());
  }

  /** Forgets every index (the state they describe was replaced); an open journal stays open, for what is built after. */
  clear(): void {
    this.base = undefined;
    this.changed.clear();
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, a new empty map for an empty one
    if (this.groups.size > 0) this.groups = new Map();
    this.labelled = 0;
  }
}

/** `customer:user:t:17`, `company:s:4`: a group of one tag's or segment's holders. */
const isLabelled = (group: string): boolean => /:[ts]:/.test(group);
