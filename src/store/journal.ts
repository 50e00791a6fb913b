// The request journal: what each API request asked and got, per app, in a ring buffer so a long
// CI run cannot grow it without bound.

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

/** Bodies larger than this are journaled as a marker. */
const MAX_BODY_CHARS = 16 * 1024;

/**
 * The body text all journals of a store may hold together. Entries per app are bounded by the ring,
 * but with a thousand provisioned apps that alone would allow gigabytes; past this budget bodies
 * are journaled as markers until older entries leave.
 */
export const JOURNAL_BODY_BUDGET = 64 * 1024 * 1024;

export interface JournalBudget {
  readonly max: number;
  used: number;
}

export class Journal {
  // Both grow as entries arrive (an idle provisioned app costs nothing), then wrap around.
  private buffer: JournalEntry[] = [];
  /** Body characters each slot holds against the budget. */
  private charged: number[] = [];
  private next = 0;
  private count = 0;

  constructor(
    readonly capacity: number,
    private readonly budget: JournalBudget = { max: JOURNAL_BODY_BUDGET, used: 0 },
  ) {}

  /**
   * Records an entry whose `body` is the parsed request body (or null) and `chars` the length of
   * its text. A body over the per-entry size or the store's budget becomes `{"truncated":true,"chars":n}`.
   */
  add(entry: JournalEntry, chars: number): void {
    if (this.capacity === 0) return;
    this.budget.used -= this.charged[this.next] ?? 0;
    const keep = entry.body !== null && chars <= MAX_BODY_CHARS && this.budget.used + chars <= this.budget.max;
    if (entry.body !== null && !keep) entry.body = { truncated: true, chars };
    this.buffer[this.next] = entry;
    this.charged[this.next] = keep ? chars : 0;
    this.budget.used += keep ? chars : 0;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** Oldest first. */
  entries(): JournalEntry[] {
    const out: JournalEntry[] = [];
    const start = (this.next - this.count + this.capacity) % this.capacity;
    for (let i = 0; i < this.count; i++) {
      const e = this.buffer[(start + i) % this.capacity];
      if (e) out.push(e);
    }
    return out;
  }

  get size(): number {
    return this.count;
  }

  /** Forgets every entry and gives their bodies' share of the budget back. */
  clear(): void {
    for (const c of this.charged) this.budget.used -= c;
    this.buffer = [];
    this.charged = [];
    this.next = 0;
    this.count = 0;
  }
}

export function matchesFilter(e: JournalEntry, f: JournalFilter): boolean {
  if (f.method !== undefined && e.method !== f.method.toUpperCase()) return false;
  if (f.path !== undefined) {
    if (f.path.endsWith('*') ? !e.path.startsWith(f.path.slice(0, -1)) : e.path !== f.path) return false;
  }
  if (f.operationId !== undefined && e.operationId !== f.operationId) return false;
  if (f.status !== undefined && e.status !== f.status) return false;
  if (f.since !== undefined && e.time < f.since) return false;
  return true;
}

/** Entries of several journals merged in request order, filtered, the most recent `limit` kept. */
export function query(journals: readonly Journal[], f: JournalFilter): JournalEntry[] {
  const all = journals.flatMap((j) => j.entries().filter((e) => matchesFilter(e, f)));
  all.sort((a, b) => a.seq - b.seq);
  return f.limit !== undefined ? all.slice(Math.max(0, all.length - f.limit)) : all;
}
