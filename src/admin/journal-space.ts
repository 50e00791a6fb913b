// The bytes every journal of a store shares: an arena of buffers outside the JS heap for the
// entries' text and a budget for the entries themselves, the oldest of the whole store out first.

import type { Stored } from './journal-log.js';

/**
 * What an entry costs on the heap beyond its text: the entry object (about twenty fields), its
 * request id, and its slots in the ring and in the store-wide queue. Measured at 262 bytes (heap
 * after a full GC over 60,000 small entries), counted with room to spare.
 */
export const ENTRY_BYTES = 320;

/** The arena is allocated a chunk at a time as it fills, so an idle store costs nothing. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * The budget every journal of a store shares, split in two fixed parts so that neither can take
 * more than its share however the requests look: three quarters for the entries' text, kept as
 * UTF-8 in a circular arena of buffers outside the JS heap (so a million large requests churn no
 * garbage through it), one quarter for the entries themselves at ENTRY_BYTES each. The store-wide
 * queue keeps the order entries arrived in across every journal: when either part is full, the
 * oldest entries of the whole store make room.
 */
export class JournalSpace {
  readonly arenaBytes: number;
  readonly maxEntries: number;
  private readonly chunkBytes: number;
  private readonly chunkCount: number;
  /** Allocated as the tail reaches them, dropped once no live entry is in them. */
  private readonly chunks: (Buffer | undefined)[] = [];
  /** Live entries whose text is in each chunk. */
  private readonly liveIn: number[] = [];
  /**
   * Dropped chunks kept for the tail's next ones: allocating a fresh 1 MiB buffer per MiB of
   * traffic and leaving the old ones to the collector grew the process's RSS by tens of MiB a
   * minute (the allocator does not give such blocks back), while a few reused ones hold steady.
   */
  private readonly spare: Buffer[] = [];
  /** Where the next entry's text goes, as chunk index and offset. */
  private tailChunk = 0;
  private tailOffset = 0;
  /** Entries in arrival order from `head`; ones that left their journal meanwhile are skipped. */
  // Stryker disable next-line ArrayDeclaration: equivalent, a slot that is no live entry is skipped like a spent one
  private queue: (Stored | undefined)[] = [];
  private head = 0;
  private live = 0;
  /** Text bytes of the live entries. */
  private textBytes = 0;

  constructor(readonly max: number = DEFAULT_JOURNAL_BYTES) {
    this.arenaBytes = Math.floor((max * 3) / 4);
    this.maxEntries = Math.max(1, Math.floor(max / 4 / ENTRY_BYTES));
    this.chunkBytes = Math.max(1, Math.min(CHUNK_BYTES, this.arenaBytes));
    this.chunkCount = Math.max(1, Math.floor(this.arenaBytes / this.chunkBytes));
  }

  /** Entries held now, across every journal. */
  get entries(): number {
    return this.live;
  }

  /** Bytes held now by the budget's count: the live entries' text and ENTRY_BYTES each. */
  get used(): number {
    return this.textBytes + this.live * ENTRY_BYTES;
  }

  /** The largest text an entry may have: one chunk. */
  get maxText(): number {
    return this.chunkBytes;
  }

  /** Bytes of arena buffers held now: the chunks live entries are in, and the tail's. */
  get arenaHeld(): number {
    return this.chunks.reduce((sum, c) => sum + (c ? c.length : 0), 0);
  }

  /**
   * Room for `bytes` of text in one chunk, evicting the oldest entries of the store until there is
   * (and until the entry count has room); returns where to write.
   */
  allocate(bytes: number): { chunk: Buffer; chunkIndex: number; offset: number } {
    while (this.live >= this.maxEntries && this.evictOldest());
    for (;;) {
      let chunk = this.tailChunk;
      let offset = this.tailOffset;
      if (offset + bytes > this.chunkBytes) {
        chunk = (chunk + 1) % this.chunkCount;
        offset = 0;
      }
      if (this.fits(chunk, offset, bytes) || !this.evictOldest()) {
        if (chunk !== this.tailChunk && !this.liveIn[this.tailChunk]) this.drop(this.tailChunk);
        this.tailChunk = chunk;
        this.tailOffset = offset + bytes;
        const buffer = (this.chunks[chunk] ??= this.spare.pop() ?? Buffer.allocUnsafe(this.chunkBytes));
        return { chunk: buffer, chunkIndex: chunk, offset };
      }
    }
  }

  /** Whether text from the tail up to chunk:offset+bytes stays clear of the oldest live entry. */
  private fits(chunk: number, offset: number, bytes: number): boolean {
    const oldest = this.oldest();
    // Stryker disable next-line BooleanLiteral: equivalent, with no entry left allocate's fallback (nothing to evict) takes the same branch
    if (!oldest) return true;
    const size = this.chunkBytes;
    const total = this.chunkCount * size;
    const tail = (this.tailChunk * size + this.tailOffset) % total;
    const headAt = oldest.chunkIndex * size + oldest.offset;
    const free = (headAt - tail + total) % total;
    const needed = ((chunk * size + offset - tail + total) % total) + bytes;
    return needed <= free;
  }

  private oldest(): Stored | undefined {
    while (this.head < this.queue.length) {
      const entry = this.queue[this.head];
      // Slots from `head` on always hold entries: spent ones are cleared only behind it.
      if ((entry as Stored).live) return entry;
      this.queue[this.head++] = undefined;
    }
    return undefined;
  }

  admit(entry: Stored): void {
    // The slots before `head` are spent: drop them once they are half the queue.
    // Stryker disable next-line all: equivalent in every answer, this only bounds the memory of spent slots (and how often that costs a walk)
    if (this.head > 1024 && this.head * 2 > this.queue.length) this.compact();
    this.queue.push(entry);
    this.liveIn[entry.chunkIndex] = (this.liveIn[entry.chunkIndex] ?? 0) + 1;
    this.live++;
    this.textBytes += textBytesOf(entry);
  }

  /** Called by a journal for each entry that leaves it; its text's room is reused in arrival order. */
  release(entry: Stored): void {
    entry.live = false;
    this.live--;
    // A journal that keeps few entries then holds one or two chunks, not the whole arena.
    const left = (this.liveIn[entry.chunkIndex] as number) - 1;
    this.liveIn[entry.chunkIndex] = left;
    if (left === 0 && entry.chunkIndex !== this.tailChunk) this.drop(entry.chunkIndex);
    entry.chunk = NO_TEXT;
    this.textBytes -= textBytesOf(entry);
    const waiting = this.queue.length - this.head;
    // Stryker disable next-line all: equivalent in every answer, as in admit: a memory bound on dead slots
    if (waiting - this.live > this.live / 2 + 64) this.compact();
  }

  private drop(index: number): void {
    const chunk = this.chunks[index];
    // Stryker disable next-line ConditionalExpression: equivalent, a spare slot holding nothing makes allocate take a fresh buffer
    if (chunk === undefined) return;
    this.chunks[index] = undefined;
    // Stryker disable next-line all: equivalent in every answer, the cap bounds memory kept for reuse
    if (this.spare.length < SPARE_CHUNKS) this.spare.push(chunk);
  }

  private evictOldest(): boolean {
    const entry = this.oldest();
    if (!entry) return false;
    entry.owner.dropOldest();
    return true;
  }

  private compact(): void {
    const kept: Stored[] = [];
    for (let i = this.head; i < this.queue.length; i++) {
      const e = this.queue[i];
      if (e?.live) kept.push(e);
    }
    this.queue = kept;
    this.head = 0;
  }
}

/** The bytes every journal of a store may hold together, unless configured otherwise. */
export const DEFAULT_JOURNAL_BYTES = 64 * 1024 * 1024;

/** Dropped chunks kept for reuse at the most; a burst's others go to the collector. */
export const SPARE_CHUNKS = 4;

/** What a dead entry points at instead of its chunk, so the chunk can go. */
export const NO_TEXT = Buffer.alloc(0);

export const textBytesOf = (e: Stored): number => e.pathBytes + e.searchBytes + Math.max(0, e.bodyBytes) + e.touchedBytes + e.warningBytes;
