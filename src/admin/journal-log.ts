// The request journal: what each API request asked and got, per app, in a ring buffer, with every
// journal of a store held to one budget in bytes. An entry keeps the raw text the request carried
// (path, query string, body, touched ids) as UTF-8 in an arena outside the JS heap, and is read
// back and parsed only when the journal is read: what an entry costs is its bytes, exactly.

import { parseQuery } from '../core/query-string.js';
import { JournalSpace } from './journal-space.js';

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
  /** The API version it was answered in (core/versions.ts); null when no app answered it. */
  api_version: string | null;
  /** Ids the request named or got back: path parameters and the response's own id. */
  touched: string[];
  /** What the request sent that the real API accepted but looks wrong (core/warnings.ts). */
  warnings: JournalWarning[];
}

export interface JournalWarning {
  code: string;
  message: string;
  field?: string;
  /** The app or the process mutes this code: not shown in the response's header. */
  muted?: boolean;
}

/** What the pipeline hands the journal: the raw text of the request. */
export interface JournalRecord extends Omit<JournalEntry, 'query' | 'body' | 'api_version' | 'warnings'> {
  warnings?: readonly JournalWarning[];
  /** Absent: null (a record no API request made). */
  api_version?: string | null;
  /** The query string as sent (`?a=1`), or empty. */
  search: string;
  /** The JSON text of a body that parsed as an object; null when no body was read. */
  bodyText: string | null;
}

/**
 * An entry as kept: numbers and shared strings on the heap, and its text (path, query string, body,
 * touched ids) as UTF-8 bytes in one chunk of the store's arena, in that order from `offset`.
 */
export interface Stored {
  seq: number;
  time: number;
  app: string | null;
  request_id: string;
  method: string;
  status: number;
  operationId: string;
  /** One of a few shared strings, so a pointer within ENTRY_BYTES. */
  api_version: string | null;
  chunk: Buffer;
  chunkIndex: number;
  offset: number;
  pathBytes: number;
  searchBytes: number;
  /** Bytes of the body's JSON text; -1: no body was read. */
  bodyBytes: number;
  /** A body over MAX_BODY_CHARS keeps only its length in characters; 0 otherwise. */
  truncatedChars: number;
  /** Bytes of the `touched` ids as a JSON array; 0: none. */
  touchedBytes: number;
  /** Bytes of the warnings as a JSON array; 0: none. */
  warningBytes: number;
  owner: Journal;
  live: boolean;
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
  /** true: only requests with warnings; false: only those without. */
  warnings?: boolean;
  /** Only requests with a warning of this code. */
  warning?: string;
}

/** Bodies longer than this (in characters) are journaled as `{"truncated":true,"chars":n}`. */
export const MAX_BODY_CHARS = 16 * 1024;

export class Journal {
  // Oldest first from `head`: a queue rather than a fixed ring, so an app whose entries the
  // store-wide budget took holds no empty slots (1,000 apps × 1,000 slots would be 8 MB).
  private items: (Stored | undefined)[] = [];
  private head = 0;

  constructor(
    readonly capacity: number,
    private readonly space: JournalSpace = new JournalSpace(),
  ) {}

  /** Records a request; its body is kept as text up to MAX_BODY_CHARS, past that as its length. */
  add(record: JournalRecord): void {
    if (this.capacity === 0) return;
    const { path, search, touched } = record;
    let body = record.bodyText;
    let truncatedChars = 0;
    if (body !== null && body.length > MAX_BODY_CHARS) {
      truncatedChars = body.length;
      body = null;
    }
    const touchedText = touched.length === 0 ? '' : JSON.stringify(touched);
    const warningText = record.warnings === undefined || record.warnings.length === 0 ? '' : JSON.stringify(record.warnings);
    // One measure and one write of the whole text (each a call into C++); the parts' own byte
    // lengths are their lengths unless the text holds anything beyond ASCII.
    let text = body === null ? path + search + touchedText + warningText : path + search + body + touchedText + warningText;
    let bytes = Buffer.byteLength(text);
    if (bytes > this.space.maxText && body !== null) {
      // Only with a budget of a few KiB: the body goes as a marker, as an over-long one does.
      truncatedChars = body.length;
      body = null;
      text = path + search + touchedText + warningText;
      bytes = Buffer.byteLength(text);
    }
    if (bytes > this.space.maxText) return;
    const ascii = bytes === text.length;
    const pathBytes = ascii ? path.length : Buffer.byteLength(path);
    const searchBytes = ascii ? search.length : Buffer.byteLength(search);
    const bodyBytes = body === null ? -1 : ascii ? body.length : Buffer.byteLength(body);
    const touchedBytes = ascii ? touchedText.length : Buffer.byteLength(touchedText);
    const warningBytes = ascii ? warningText.length : Buffer.byteLength(warningText);
    if (this.size === this.capacity) this.dropOldest();
    const { chunk, chunkIndex, offset } = this.space.allocate(bytes);
    chunk.write(text, offset, bytes);
    const entry: Stored = {
      seq: record.seq,
      time: record.time,
      app: record.app,
      request_id: record.request_id,
      method: record.method,
      status: record.status,
      operationId: record.operationId,
      api_version: record.api_version ?? null,
      chunk,
      chunkIndex,
      offset,
      pathBytes,
      searchBytes,
      bodyBytes,
      truncatedChars,
      touchedBytes,
      warningBytes,
      owner: this,
      live: true,
    };
    this.space.admit(entry);
    this.items.push(entry);
  }

  /** Drops the oldest entry: the ring is full, or the store-wide budget needs its room. */
  dropOldest(): void {
    const entry = this.items[this.head];
    if (!entry) return;
    this.items[this.head++] = undefined;
    // Stryker disable next-line all: equivalent in every answer, this only bounds the memory of dropped slots
    if (this.head > 16 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.space.release(entry);
  }

  /** Oldest first, as kept (unparsed). */
  private stored(): Stored[] {
    return this.items.slice(this.head) as Stored[];
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
    return this.items.length - this.head;
  }

  /** Forgets every entry and gives their bytes back. */
  clear(): void {
    const gone = this.stored();
    this.items = [];
    this.head = 0;
    for (const e of gone) this.space.release(e);
  }
}

const pathOf = (e: Stored): string => e.chunk.toString('utf8', e.offset, e.offset + e.pathBytes);

/** An entry as the control plane shows it: its text read back, the query and body parsed. */
function shown(e: Stored): JournalEntry {
  let at = e.offset + e.pathBytes;
  const search = e.chunk.toString('utf8', at, (at += e.searchBytes));
  let body: unknown = null;
  if (e.truncatedChars > 0) body = { truncated: true, chars: e.truncatedChars };
  else if (e.bodyBytes !== -1) body = JSON.parse(e.chunk.toString('utf8', at, (at += e.bodyBytes))) as unknown;
  const touched = e.touchedBytes === 0 ? [] : (JSON.parse(e.chunk.toString('utf8', at, at + e.touchedBytes)) as string[]);
  return {
    seq: e.seq,
    time: e.time,
    app: e.app,
    request_id: e.request_id,
    method: e.method,
    path: pathOf(e),
    query: parseQuery(search),
    body,
    status: e.status,
    operationId: e.operationId,
    api_version: e.api_version,
    touched,
    warnings: warningsOf(e),
  };
}

const warningsOf = (e: Stored): JournalWarning[] => {
  if (e.warningBytes === 0) return [];
  const end = e.offset + e.pathBytes + e.searchBytes + Math.max(0, e.bodyBytes) + e.touchedBytes;
  return JSON.parse(e.chunk.toString('utf8', end, end + e.warningBytes)) as JournalWarning[];
};

function matchesFilter(e: Stored, f: JournalFilter): boolean {
  if (f.warnings !== undefined && f.warnings !== e.warningBytes > 0) return false;
  if (f.warning !== undefined && !warningsOf(e).some((w) => w.code === f.warning)) return false;
  if (f.method !== undefined && e.method !== f.method.toUpperCase()) return false;
  if (f.path !== undefined) {
    const path = pathOf(e);
    if (f.path.endsWith('*') ? !path.startsWith(f.path.slice(0, -1)) : path !== f.path) return false;
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
