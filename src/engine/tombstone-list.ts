// An ordered list of ids where removal marks an entry dead instead of moving the rest of the array:
// entries are ordered by (key, id), keys ascending with nulls first; a binary search finds an entry
// (dead entries keep their place), and a Fenwick tree counts the dead entries by position, so
// removing, bringing an entry back and finding the k-th live entry all cost O(log n), and a page of
// n live entries O(n log m) wherever the dead lie. Appending is a push; an entry placed before the
// end moves only the entries after it (an index by updated_at places a record written now among the
// last), and whatever shifts is never what a reader holds: then the arrays are copied once, without
// dead entries. Once dead entries outnumber live ones the list is compacted into new arrays, so it
// stays within twice its live entries (or 32) and every removal is O(log n) amortised.
//
// A reader may keep the arrays (`hold`: a scroll reads them for minutes): appends and dead marks
// change nothing it has seen, and anything that would shift entries works on copies from then on.

/** Lists shorter than this are not compacted: copying them saves nothing. */
const COMPACT_FROM = 32;

/** Entries `find` read: counted by tests, which pin work instead of timing it. */
export const findWork = { read: 0 };

export class TombstoneList {
  /** Ids in key order, dead entries included. */
  ids: string[] = [];
  keys: (number | null)[] = [];
  /** 1 where the entry at that position is dead. */
  dead: number[] = [];
  deadCount = 0;
  /** Dead entries per Fenwick node, over positions [0, cap); positions past it have none. */
  private tree = new Int32Array(1);
  private cap = 0;
  /** A reader keeps these arrays: shift entries only in copies. */
  private held = false;

  get length(): number {
    return this.ids.length;
  }

  get live(): number {
    return this.ids.length - this.deadCount;
  }

  /** The arrays as they are, for a reader that keeps them: later changes never move what it sees. */
  hold(): { ids: readonly string[]; dead: readonly number[]; keys: readonly (number | null)[] } {
    this.held = true;
    return { ids: this.ids, dead: this.dead, keys: this.keys };
  }

  push(id: string, key: number | null): void {
    this.ids.push(id);
    this.keys.push(key);
    this.dead.push(0);
  }

  /**
   * `rankKeys`: every key is a distinct integer (the order index's ranks), so an entry keyed k sits
   * at most k - first places in, and at least that less the integers between the first and last keys
   * that no entry holds: a list of ranks without gaps is searched at one place, not log2 of it.
   */
  constructor(private readonly rankKeys = false) {}

  /** The first position at or after (key, id). */
  find(key: number | null, id: string): number {
    let lo = 0;
    let hi = this.keys.length;
    if (this.rankKeys && hi > 0 && key !== null) {
      const first = this.keys[0] as number;
      const missing = (this.keys[hi - 1] as number) - first + 1 - hi;
      hi = Math.max(0, Math.min(hi, key - first + 1));
      lo = Math.min(hi, Math.max(0, key - first - missing));
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      findWork.read++;
      if (before(this.keys[mid] as number | null, this.ids[mid] as string, key, id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private at(pos: number, key: number | null, id: string): boolean {
    // Past either end the arrays read undefined, which is no id.
    return this.ids[pos] === id && this.keys[pos] === key;
  }

  /** Marks the live entry (key, id) dead; false when there is none. */
  remove(key: number | null, id: string): boolean {
    const pos = this.find(key, id);
    if (!this.at(pos, key, id) || this.dead[pos] !== 0) return false;
    this.mark(pos, 1);
    if (this.deadCount > this.live && this.ids.length >= COMPACT_FROM) this.compact();
    return true;
  }

  /** Makes (key, id) live: revives its dead entry when it is still here, else places a new one. */
  insert(id: string, key: number | null): void {
    const pos = this.find(key, id);
    if (this.at(pos, key, id)) {
      if (this.dead[pos] === 1) this.mark(pos, -1);
      return;
    }
    if (pos === this.ids.length) {
      this.push(id, key);
      return;
    }
    if (!this.held) {
      // Only the entries after it move; a dead one among them takes its mark along (the tree first
      // spans the longer list, built from the marks as they stand).
      if (this.deadCount > 0 && this.cap < this.ids.length + 1) this.grow(this.ids.length + 1);
      this.ids.splice(pos, 0, id);
      this.keys.splice(pos, 0, key);
      this.dead.splice(pos, 0, 0);
      // As long as the splice: the marks after it move one place on.
      for (let i = pos + 1; i < this.ids.length; i++) {
        if (this.dead[i] !== 1) continue;
        this.fenwick(i - 1, -1);
        this.fenwick(i, 1);
      }
      return;
    }
    // A reader holds these arrays: copy the live entries once (the copy is no reader's), then place it there.
    this.compact();
    this.insert(id, key);
  }

  /** Takes back the last entry when it is (key, id) (undoing a push), else marks it dead. */
  unpush(key: number | null, id: string): void {
    const last = this.ids.length - 1;
    if (!this.held && this.at(last, key, id) && this.dead[last] === 0) {
      this.ids.pop();
      this.keys.pop();
      this.dead.pop();
      return;
    }
    this.remove(key, id);
  }

  /** How many live entries come before position `pos`. */
  liveBefore(pos: number): number {
    let dead = 0;
    for (let i = Math.min(pos, this.cap); i > 0; i -= i & -i) dead += this.tree[i] as number;
    return pos - dead;
  }

  /** The live entries from the `start`-th to before the `end`-th. */
  slice(start: number, end: number): string[] {
    const stop = Math.min(end, this.live);
    if (this.deadCount === 0) return this.ids.slice(start, stop);
    const out: string[] = [];
    // At most `live` entries are asked for, so the live entries never run out before the end.
    let at = this.select(start);
    while (out.length < stop - start) {
      if (this.dead[at] === 0) out.push(this.ids[at++] as string);
      else at = this.select(start + out.length);
    }
    return out;
  }

  /** The position of the live entry with `k` live entries before it: a descent of the tree. */
  private select(k: number): number {
    let pos = 0;
    let rem = k;
    // The span is 0 or a power of two (grow doubles it), so the descent starts at the whole span.
    for (let step = this.cap; step > 0; step >>= 1) {
      const next = pos + step;
      if (next > this.cap) continue;
      const live = step - (this.tree[next] as number);
      if (live <= rem) {
        pos = next;
        rem -= live;
      }
    }
    // Past the tree's span every entry is live.
    return pos + rem;
  }

  private mark(at: number, delta: 1 | -1): void {
    // The tree is grown from the marks as they stand, before this one changes.
    if (at >= this.cap) this.grow(at + 1);
    this.dead[at] = delta === 1 ? 1 : 0;
    this.deadCount += delta;
    this.fenwick(at, delta);
  }

  /** Adds `delta` at position `at`, within the tree's span. */
  private fenwick(at: number, delta: 1 | -1): void {
    for (let i = at + 1; i <= this.cap; i += i & -i) (this.tree as Int32Array)[i] = (this.tree[i] as number) + delta;
  }

  /** A tree over at least `size` positions (doubling), built from the dead marks in O(cap). */
  private grow(size: number): void {
    let cap = Math.max(1, this.cap);
    while (cap < size) cap *= 2;
    const tree = new Int32Array(cap + 1);
    for (let i = 1; i <= cap; i++) {
      tree[i] = (tree[i] as number) + (this.dead[i - 1] ?? 0);
      const up = i + (i & -i);
      if (up <= cap) tree[up] = (tree[up] as number) + (tree[i] as number);
    }
    this.tree = tree;
    this.cap = cap;
  }

  private compact(): void {
    const ids: string[] = [];
    const keys: (number | null)[] = [];
    for (let i = 0; i < this.ids.length; i++) {
      if (this.dead[i] === 1) continue;
      ids.push(this.ids[i] as string);
      keys.push(this.keys[i] as number | null);
    }
    this.replace(ids, keys);
  }

  /**
   * Inserts many entries at once, in one pass over the list: O(n + k log k), where k inserts one by
   * one would each move the entries after their place. Dead entries go, as in a compaction.
   */
  insertMany(entries: readonly (readonly [number | null, string])[]): void {
    const adds = [...entries].sort((a, b) => (before(a[0], a[1], b[0], b[1]) ? -1 : 1));
    const ids: string[] = [];
    const keys: (number | null)[] = [];
    let j = 0;
    for (let i = 0; i < this.ids.length; i++) {
      if (this.dead[i] === 1) continue;
      const key = this.keys[i] as number | null;
      const id = this.ids[i] as string;
      for (let add = adds[j]; add !== undefined && before(add[0], add[1], key, id); add = adds[++j]) {
        ids.push(add[1]);
        keys.push(add[0]);
      }
      ids.push(id);
      keys.push(key);
    }
    for (; j < adds.length; j++) {
      const add = adds[j] as readonly [number | null, string];
      ids.push(add[1]);
      keys.push(add[0]);
    }
    this.replace(ids, keys);
  }

  /** An independent copy, for a list shared as a template (a seeded base's order): O(n) array copies, no search. */
  clone(): TombstoneList {
    const copy = new TombstoneList(this.rankKeys);
    copy.ids = this.ids.slice();
    copy.keys = this.keys.slice();
    copy.dead = this.dead.slice();
    copy.deadCount = this.deadCount;
    copy.tree = this.tree.slice();
    copy.cap = this.cap;
    return copy;
  }

  /** New arrays, all live: what a reader holds is left as it was. */
  replace(ids: string[], keys: (number | null)[]): void {
    this.ids = ids;
    this.keys = keys;
    const dead: number[] = [];
    for (let i = 0; i < ids.length; i++) dead.push(0);
    this.dead = dead;
    this.deadCount = 0;
    this.tree = new Int32Array(1);
    this.cap = 0;
    this.held = false;
  }
}

/** Ascending by key, nulls first, ties by id. */
export function before(ka: number | null, ia: string, kb: number | null, ib: string): boolean {
  if (ka !== kb) return ka === null ? true : kb === null ? false : ka < kb;
  return ia < ib;
}
