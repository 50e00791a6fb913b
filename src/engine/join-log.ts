// A key's ids in the order they joined (a company's members, the holders of an email), kept so that
// joining and leaving cost O(1) however many ids the key holds, while every value stays immutable
// for the seeded base, snapshots, provisioned copies and the undo log of a transaction.
//
// Two maps: `logs` (key -> JoinLog) and `seqs` (key NUL id -> the sequence number of the id's latest
// join, or LEFT). A log's arrays are append-only and shared between versions: a version sees its
// first `length` entries, and appends in place only while nobody appended past it (otherwise it
// copies its prefix once). An entry is live while `seqs` holds its number for the pair; a pair `seqs`
// does not hold at all was never touched since the log was built, so its entry is live. Leaving
// marks the pair, and the log is compacted once dead entries outnumber live ones.
//
// Each log also counts its dead entries by position in a persistent binary tree (path-copied, so
// versions share it like the arrays): the k-th live entry is found in O(log m) and a slice of n live
// entries is read in O(n log m) at worst, whatever the log's length m and wherever the dead entries
// lie. Leaving finds its entry's position by a binary search on the log's (ascending) sequence
// numbers; a pair never touched since a seeded log was built has the seeded position as its number,
// found in a map from id to position built once per seeded log (shared by every version and app).

import type { CowMap } from './cow.js';

export interface JoinLog {
  /** Shared, append-only: entries past `length` belong to other versions. */
  readonly ids: string[];
  readonly seqs: number[];
  readonly length: number;
  /** Entries that are live (the rest are ids that left or rejoined later). */
  readonly live: number;
  /** The sequence number the next join gets. */
  readonly next: number;
  /** Joins of ids that had left this key before: while none, an id is in the log at most once. */
  readonly rejoins: number;
  /** Dead entries by position (undefined: none), over positions [0, span). */
  readonly dead?: DeadNode | undefined;
  readonly span?: number;
  /** The seeded log this one descends from, for the positions of ids never touched since. */
  readonly origin?: Origin | undefined;
}

/** A node of the dead-entry tree: how many of its positions are dead; a missing child has none. */
interface DeadNode {
  readonly n: number;
  readonly l: DeadNode | undefined;
  readonly r: DeadNode | undefined;
}

/** A seeded log's ids (its first `length` entries: the array is shared and append-only) and, once needed, each id's position. */
interface Origin {
  readonly ids: string[];
  readonly length: number;
  at?: Map<string, number>;
}

/** Tree nodes visited and entries read by `joinedSlice`: read by tests, which count work instead of timing it. */
export const sliceWork = { visited: 0 };

/** Entries a leave read to find its id's place (the same kind of count, for `positionOf`). */
export const leaveWork = { read: 0 };

export interface JoinMaps {
  logs: CowMap<JoinLog>;
  seqs: CowMap<number>;
}

const LEFT = -1;
/** Logs shorter than this are not compacted: copying them saves nothing. */
const COMPACT_FROM = 32;

const pairKey = (key: string, id: string) => `${key}\u0000${id}`;

/** A log of `ids`, all live, for building a base (the array is taken, not copied). */
export function baseLog(ids: string[]): JoinLog {
  // Pushed, not mapped: V8 grows a mapped array of this size on its first push at a cost of ms.
  const seqs: number[] = [];
  for (let i = 0; i < ids.length; i++) seqs.push(i);
  return { ids, seqs, length: ids.length, live: ids.length, next: ids.length, rejoins: 0, origin: { ids, length: ids.length } };
}

/** Adds `id` as the last of `key`'s ids; the caller knows `id` is not one of them. */
export function join(maps: JoinMaps, key: string, id: string): void {
  const log = maps.logs.get(key);
  const seq = log?.next ?? 0;
  let ids: string[];
  let seqs: number[];
  if (log === undefined) {
    // Made at their size: pushed into empty arrays, each reserved 17 slots, and most keys (an
    // email, a phone) keep their one id for good (about 260 bytes of every customer created).
    ids = [id];
    seqs = [seq];
  } else {
    ids = log.ids;
    seqs = log.seqs;
    if (ids.length !== log.length) {
      ids = ids.slice(0, log.length);
      seqs = seqs.slice(0, log.length);
    }
    ids.push(id);
    seqs.push(seq);
  }
  const pair = pairKey(key, id);
  // Counting too many rejoins only takes the pair check more often (see `joined`): always right.
  // Stryker disable next-line ArithmeticOperator,ConditionalExpression: equivalent in answers, a count below zero is not zero either, and one too many only takes the pair check more often
  const rejoins = (log?.rejoins ?? 0) + (maps.seqs.get(pair) === LEFT ? 1 : 0);
  maps.seqs.set(pair, seq);
  const live = (log?.live ?? 0) + 1;
  maps.logs.set(key, { ids, seqs, length: ids.length, live, next: seq + 1, rejoins, dead: log?.dead, span: log?.span, origin: log?.origin });
}

/**
 * Removes `id` from `key`'s ids; the caller knows `id` is one of them. Whenever entries drop out of
 * the log (compaction, or the last id leaving), their marks go too, so `seqs` holds at most one
 * pair per entry of a log and stays within what the app holds.
 */
export function leave(maps: JoinMaps, key: string, id: string): void {
  const log = maps.logs.get(key);
  if (log === undefined) return;
  const pair = pairKey(key, id);
  const seq = maps.seqs.get(pair) ?? seededPosition(log.origin, id);
  maps.seqs.set(pair, LEFT);
  const live = log.live - 1;
  if (live === 0) {
    for (let i = 0; i < log.length; i++) forget(maps, key, log.ids[i] as string);
    maps.logs.delete(key);
    return;
  }
  const dead = log.length - live;
  if (dead > live && worthCompacting(log)) {
    const ids: string[] = [];
    const seqs: number[] = [];
    // Stryker disable next-line ArrayDeclaration: equivalent, forgetting a pair no one holds does nothing
    const gone: string[] = [];
    for (let i = 0; i < log.length; i++) {
      const entry = log.ids[i] as string;
      if (isLive(maps, key, log, i)) {
        ids.push(entry);
        seqs.push(log.seqs[i] as number);
      } else gone.push(entry);
    }
    // After the walk: an id that left twice has two dead entries, and an unmarked pair reads as live.
    for (const entry of gone) forget(maps, key, entry);
    maps.logs.set(key, { ids, seqs, length: ids.length, live, next: log.next, rejoins: 0, origin: log.origin });
  } else {
    const at = positionOf(log, seq, id);
    if (at < 0) {
      maps.logs.set(key, { ids: log.ids, seqs: log.seqs, length: log.length, live, next: log.next, rejoins: log.rejoins, dead: log.dead, span: log.span, origin: log.origin });
      return;
    }
    let span = log.dead === undefined ? 1 : (log.span as number);
    let dead = log.dead;
    while (span <= at) {
      dead = dead && { n: dead.n, l: dead, r: undefined };
      span *= 2;
    }
    // Literals of one shape (as join writes), not spreads of logs of several: a leave is on every archive.
    maps.logs.set(key, { ids: log.ids, seqs: log.seqs, length: log.length, live, next: log.next, rejoins: log.rejoins, dead: markDead(dead, span, at), span, origin: log.origin });
  }
}

/**
 * Where `id`'s entry numbered `seq` is: the log's numbers ascend (joins append, compaction keeps
 * order) and are distinct integers below `next`, so the entry numbered `seq` sits at most `seq`
 * and at least `seq - (next - length)` positions in (the numbers compaction dropped). A log never
 * compacted has each entry at its number: the search reads one entry, not log2 of a long log's.
 */
function positionOf(log: JoinLog, seq: number, id: string): number {
  let lo = Math.max(0, seq - (log.next - log.length));
  let hi = Math.min(log.length, seq + 1);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    leaveWork.read++;
    if ((log.seqs[mid] as number) < seq) lo = mid + 1;
    else hi = mid;
  }
  leaveWork.read++;
  if (log.seqs[lo] === seq && log.ids[lo] === id) return lo;
  // Not reached while the invariants above hold; a wrong mark would corrupt every later slice.
  // Stryker disable next-line AssignmentOperator: equivalent in answers, a work counter only tests read
  leaveWork.read += log.length;
  return log.ids.lastIndexOf(id, log.length - 1);
}

/** The number of a seeded entry never touched since: its seeded position (the map is built once per seeded log). */
function seededPosition(origin: Origin | undefined, id: string): number {
  if (origin === undefined) return -1;
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, the positions are built again the same
  if (origin.at === undefined) {
    const at = new Map<string, number>();
    for (let i = 0; i < origin.length; i++) at.set(origin.ids[i] as string, i);
    origin.at = at;
  }
  return origin.at.get(id) ?? -1;
}

/** The tree with position `at` (within [0, span)) counted dead: a copy of one path. */
function markDead(node: DeadNode | undefined, span: number, at: number): DeadNode {
  if (span === 1) return { n: 1, l: undefined, r: undefined };
  const half = span / 2;
  const l = at < half ? markDead(node?.l, half, at) : node?.l;
  const r = at < half ? node?.r : markDead(node?.r, half, at - half);
  return { n: (node?.n ?? 0) + 1, l, r };
}

/** The live positions of a tree after skipping `want.skip` of them, up to `want.take` positions below `limit`. */
function collectLive(node: DeadNode | undefined, span: number, offset: number, want: { skip: number; take: number }, limit: number, out: number[]): void {
  // Stryker disable next-line UpdateOperator: equivalent in answers, a work counter only tests read
  sliceWork.visited++;
  if (want.take === 0 || offset >= limit) return;
  const live = span - (node?.n ?? 0);
  if (want.skip >= live) {
    want.skip -= live;
    return;
  }
  if (node === undefined) {
    const from = offset + want.skip;
    const to = Math.min(offset + span, from + want.take, limit);
    want.skip = 0;
    for (let p = from; p < to; p++) out.push(p);
    want.take = to >= limit ? 0 : want.take - (to - from);
    return;
  }
  if (span === 1) return;
  const half = span / 2;
  collectLive(node.l, half, offset, want, limit, out);
  collectLive(node.r, half, offset + half, want, limit, out);
}
// Stryker disable next-line all: equivalent in answers, compacting a short log is right too, only not worth its copy
const worthCompacting = (log: JoinLog): boolean => log.length >= COMPACT_FROM;

/** Drops the mark of an id that left, once no entry of the log names it any more. */
function forget(maps: JoinMaps, key: string, id: string): void {
  const pair = pairKey(key, id);
  if (maps.seqs.get(pair) === LEFT) maps.seqs.delete(pair);
}

function isLive(maps: JoinMaps, key: string, log: JoinLog, i: number): boolean {
  const seq = maps.seqs.get(pairKey(key, log.ids[i] as string));
  return seq === undefined || seq === log.seqs[i];
}

/** How many ids `key` holds. */
export function joinedCount(maps: JoinMaps, key: string): number {
  return maps.logs.get(key)?.live ?? 0;
}

/**
 * What `read` gives for `key`'s ids, in join order, each id once. `read` answers from the id's
 * record, undefined when the id no longer holds the key: while no id has rejoined, that alone tells
 * a live entry from one that left, without building a pair key per entry.
 */
export function joined<T>(maps: JoinMaps, key: string, read: (id: string) => T | undefined): T[] {
  const log = maps.logs.get(key);
  const out: T[] = [];
  if (log === undefined) return out;
  const byRecord = log.rejoins === 0 || log.live === log.length;
  for (let i = 0; i < log.length; i++) {
    const item = read(log.ids[i] as string);
    if (item !== undefined && (byRecord || isLive(maps, key, log, i))) out.push(item);
  }
  return out;
}

/**
 * The ids from the `start`-th to before the `end`-th of those `keep` accepts, in join order: a
 * slice of the log when every entry is live and kept, the live positions from the dead-entry tree
 * when every live entry is kept (O(n log m)), else one walk up to the end of the slice.
 */
export function joinedSlice(maps: JoinMaps, key: string, start: number, end: number, keep: (id: string) => boolean, allKept: boolean): string[] {
  const log = maps.logs.get(key);
  if (log === undefined) return [];
  if (allKept && log.live === log.length) return log.ids.slice(start, Math.min(end, log.length));
  if (allKept && log.dead !== undefined) {
    // The span covers the positions marked so far; later joins are live, so the tree grows by empty halves.
    let span = log.span as number;
    let dead = log.dead as DeadNode;
    while (span < log.length) {
      dead = { n: dead.n, l: dead, r: undefined };
      span *= 2;
    }
    const positions: number[] = [];
    const take = Math.max(0, Math.min(end, log.live) - start);
    collectLive(dead, span, 0, { skip: start, take }, log.length, positions);
    // Stryker disable next-line AssignmentOperator: equivalent in answers, a work counter only tests read
    sliceWork.visited += positions.length;
    return positions.map((p) => log.ids[p] as string);
  }
  const out: string[] = [];
  let seen = 0;
  const clean = log.live === log.length;
  for (let i = 0; i < log.length && seen < end; i++) {
    const id = log.ids[i] as string;
    // Stryker disable next-line UpdateOperator: equivalent in answers, a work counter only tests read
    sliceWork.visited++;
    if (!(clean || isLive(maps, key, log, i)) || !keep(id)) continue;
    if (seen >= start) out.push(id);
    seen++;
  }
  return out;
}
