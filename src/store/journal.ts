// The request journal: what each API request asked and got, per app, in a ring buffer, with every
// journal of a store held to one budget in bytes. An entry keeps the raw text the request carried
// (path, query string, body) and is parsed only when the journal is read, so what it costs is what
// its strings cost, and that is what the budget counts.

import { parseQuery } from '../core/query-string.js';

/** An entry as the control plane shows it. */
export interface JournalEntry {
  /** Order across all apps. */
  seq: number;
  /** Unix seconds on the store's clock. */
  time: number;
  app: string | null;
  request_id: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: unknown;
  status: number;
  operationId: string;
  /** Ids the request named or got back: path parameters and the response's own id. */
  touched: string[];
}

/** What the pipeline hands the journal: the raw text of the request. */
export interface JournalRecord {
  seq: number;
  time: number;
  app: string | null;
  request_id: string;
  method: string;
  path: string;
  /** The query string as sent (`?a=1`), or empty. */
  search: string;
  /** The JSON text of a body that parsed as an object; null when no body was read. */
  bodyText: string | null;
  status: number;
  operationId: string;
  touched: string[];
  /**
   * The string `path` and `search` were cut from (the request URL), when they are slices of it:
   * a slice keeps its whole parent alive, so the parent is what they cost.
   */
  urlText?: string;
}

/** An entry as kept: a body over the per-entry size is only its length. */
interface Stored {
  seq: number;
  time: number;
  app: string | null;
  request_id: string;
  method: string;
  path: string;
  search: string;
  /** JSON text, the length of a body too large to keep, or null. */
  body: string | number | null;
  status: number;
  operationId: string;
  touched: string[];
  /** What it holds against the budget; -1 once it has left its journal. */
  bytes: number;
  owner: Journal;
}

export interface JournalFilter {
  app?: string;
  method?: string;
  /** Exact path, or a prefix ending in `*`. */
  path?: string;
  operationId?: string;
  status?: number;
  /** Entries at or after this Unix second. */
  since?: number;
  /** At most this many, the most recent. */
  limit?: number;
}

/** Bodies longer than this (in characters) are journaled as `{"truncated":true,"chars":n}`. */
export const MAX_BODY_CHARS = 16 * 1024;

/** The bytes every journal of a store may hold together, unless configured otherwise. */
export const DEFAULT_JOURNAL_BYTES = 64 * 1024 * 1024;

/**
 * What an entry costs beyond its strings: the entry object (about a dozen fields), its `touched`
 * array, its slots in the ring and in the store-wide queue, and its request id. Measured with
 * test/bench/journal-memory.ts (heap after GC per entry) and rounded up.
 */
export const ENTRY_OVERHEAD_BYTES = 320;
/** A V8 string's header (a slice's whole object), rounded up. */
const STRING_HEADER_BYTES = 32;

// V8 keeps a string of code units below 0x100 at one byte each, others at two; asking only for
// ASCII errs on the side of counting two.
const ASCII = /^[\x00-\x7f]*$/;
const stringBytes = (s: string): number => STRING_HEADER_BYTES + (ASCII.test(s) ? s.length : 2 * s.length);

function costOf(r: JournalRecord, body: string | number | null): number {
  let bytes = ENTRY_OVERHEAD_BYTES;
  bytes += r.urlText !== undefined ? stringBytes(r.urlText) + 2 * STRING_HEADER_BYTES : stringBytes(r.path) + stringBytes(r.search);
  if (typeof body === 'string') bytes += stringBytes(body);
  for (const id of r.touched) bytes += stringBytes(id) + 8;
  return bytes;
}

/**
 * The budget every journal of a store shares, and the order their entries arrived in across all of
 * them, so that at the budget the oldest entries of the whole store make room for a new one.
 */
export class JournalSpace {
  used = 0;
  /** Entries in arrival order from `head`; ones that left their journal meanwhile are skipped. */
  private queue: (Stored | undefined)[] = [];
  private head = 0;
  private live = 0;

  constructor(readonly max: number = DEFAULT_JOURNAL_BYTES) {}

  /** Entries held now, across every journal. */
  get entries(): number {
    return this.live;
  }

  admit(entry: Stored): boolean {
    if (entry.bytes > this.max) return false;
    while (this.used + entry.bytes > this.max && this.evictOldest());
    this.queue.push(entry);
    this.used += entry.bytes;
    this.live++;
    return true;
  }

  /** Called by a journal for each entry that leaves it. */
  release(entry: Stored): void {
    this.used -= entry.bytes;
    entry.bytes = -1;
    // Its strings go now; the object itself goes when the queue next drops the departed.
    entry.path = entry.search = '';
    entry.body = null;
    entry.touched = [];
    this.live--;
    const waiting = this.queue.length - this.head;
    if (waiting - this.live > this.live / 2 + 64) this.compact();
  }

  private evictOldest(): boolean {
    while (this.head < this.queue.length) {
      const entry = this.queue[this.head];
      this.queue[this.head++] = undefined;
      if (entry && entry.bytes >= 0) {
        entry.owner.dropOldest();
        if (this.head > 1024 && this.head * 2 > this.queue.length) this.compact();
        return true;
      }
    }
    return false;
  }

  private compact(): void {
    const kept: Stored[] = [];
    for (let i = this.head; i < this.queue.length; i++) {
      const e = this.queue[i];
      if (e && e.bytes >= 0) kept.push(e);
    }
    this.queue = kept;
    this.head = 0;
  }
}

export class Journal {
  // Both grow as entries arrive (an idle provisioned app costs nothing), then wrap around.
  private buffer: (Stored | undefined)[] = [];
  private next = 0;
  private count = 0;

  constructor(
    readonly capacity: number,
    private readonly space: JournalSpace = new JournalSpace(),
  ) {}

  /** Records a request; its body is kept as text up to MAX_BODY_CHARS, past that as its length. */
  add(record: JournalRecord): void {
    if (this.capacity === 0) return;
    const text = record.bodyText;
    const body = text === null ? null : text.length <= MAX_BODY_CHARS ? text : text.length;
    const { urlText: _url, bodyText: _body, ...rest } = record;
    const entry: Stored = { ...rest, body, bytes: 0, owner: this };
    entry.bytes = costOf(record, body);
    const old = this.buffer[this.next];
    if (old && this.count === this.capacity) {
      this.count--;
      this.space.release(old);
    }
    if (!this.space.admit(entry)) return;
    // The store-wide eviction may have emptied this very ring meanwhile.
    const slot = (this.start() + this.count) % this.capacity;
    this.buffer[slot] = entry;
    this.next = (slot + 1) % this.capacity;
    this.count++;
  }

  private start(): number {
    return (this.next - this.count + this.capacity) % this.capacity;
  }

  /** Drops the oldest entry (the store-wide budget needs its room). */
  dropOldest(): void {
    if (this.count === 0) return;
    const start = this.start();
    const entry = this.buffer[start];
    this.buffer[start] = undefined;
    this.count--;
    if (entry) this.space.release(entry);
  }

  /** Oldest first, as kept (unparsed). */
  private stored(): Stored[] {
    const out: Stored[] = [];
    const start = this.start();
    for (let i = 0; i < this.count; i++) {
      const e = this.buffer[(start + i) % this.capacity];
      if (e) out.push(e);
    }
    return out;
  }

  /** Oldest first. */
  entries(): JournalEntry[] {
    return this.stored().map(shown);
  }

  /** Entries matching a filter, oldest first, unparsed (see `query`). */
  matching(f: JournalFilter): readonly Stored[] {
    return this.stored().filter((e) => matchesFilter(e, f));
  }

  get size(): number {
    return this.count;
  }

  /** Forgets every entry and gives their bytes back. */
  clear(): void {
    for (const e of this.stored()) this.space.release(e);
    this.buffer = [];
    this.next = 0;
    this.count = 0;
  }
}

/** An entry as the control plane shows it: the query and body parsed from the text kept. */
function shown(e: Stored): JournalEntry {
  const body = e.body === null ? null : typeof e.body === 'number' ? { truncated: true, chars: e.body } : (JSON.parse(e.body) as unknown);
  return {
    seq: e.seq,
    time: e.time,
    app: e.app,
    request_id: e.request_id,
    method: e.method,
    path: e.path,
    query: parseQuery(e.search),
    body,
    status: e.status,
    operationId: e.operationId,
    touched: e.touched,
  };
}

function matchesFilter(e: Stored, f: JournalFilter): boolean {
  if (f.method !== undefined && e.method !== f.method.toUpperCase()) return false;
  if (f.path !== undefined) {
    if (f.path.endsWith('*') ? !e.path.startsWith(f.path.slice(0, -1)) : e.path !== f.path) return false;
  }
  if (f.operationId !== undefined && e.operationId !== f.operationId) return false;
  if (f.status !== undefined && e.status !== f.status) return false;
  if (f.since !== undefined && e.time < f.since) return false;
  return true;
}

/** How many entries of several journals match. */
export function count(journals: readonly Journal[], f: JournalFilter): number {
  let n = 0;
  for (const j of journals) n += j.matching(f).length;
  return n;
}

/**
 * Entries of several journals merged in request order, filtered, the most recent `limit` kept;
 * only those are parsed.
 */
export function query(journals: readonly Journal[], f: JournalFilter): JournalEntry[] {
  const all = journals.flatMap((j) => j.matching(f));
  all.sort((a, b) => a.seq - b.seq);
  return (f.limit !== undefined ? all.slice(Math.max(0, all.length - f.limit)) : all).map(shown);
}
