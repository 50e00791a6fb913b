// Seeded randomness. Every random choice in the mock comes from here so that the same seed and the
// same requests give the same bytes; the global Math.random is never used.

/** The seed of a store when none is given (the CLI's --seed default). */
export const DEFAULT_SEED = 1;

/** FNV-1a over the parts, then a final avalanche so nearby inputs give unrelated seeds. */
export function hashSeed(...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = `${String(part)}\u0000`;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Where a stream stands: its four words, enough to rewind it exactly. */
export type RandomState = readonly [number, number, number, number];

/** sfc32: small, fast, and good enough for fixtures and ids; its whole state is four words. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  state(): RandomState {
    return [this.a, this.b, this.c, this.d];
  }

  /** Puts the stream back where `state()` found it, so it draws the same values again. */
  rewind(state: RandomState): void {
    [this.a, this.b, this.c, this.d] = state;
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [0, max). */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.nextUint32().toString(16).padStart(8, '0');
    return out.slice(0, length);
  }

  /**
   * Lowercase alphanumerics; six per 32-bit draw (36^6 < 2^32), so a request id costs four draws.
   * A draw's six digits as toString(36) padded to six would give them, from their character codes:
   * half the cost, and every request draws an id.
   */
  base36(length: number): string {
    let out = '';
    while (out.length < length) {
      const x = this.nextUint32() % 2_176_782_336;
      // prettier-ignore
      out += String.fromCharCode(
        base36Code(x / 60_466_176), base36Code(x / 1_679_616), base36Code(x / 46_656), base36Code(x / 1_296), base36Code(x / 36), base36Code(x),
      );
    }
    return out.length === length ? out : out.slice(0, length);
  }

  /** RFC 4122 version-4 layout, from the seeded stream. */
  uuid(): string {
    // The digits of four draws, as hex(32) would give them, with the 13th digit replaced by the
    // version and the 17th by the variant: one flat string from its 36 character codes, where a
    // template of the parts built some 30 intermediate strings (every event draws one).
    const a = this.nextUint32();
    const b = this.nextUint32();
    const c = this.nextUint32();
    const d = this.nextUint32();
    // prettier-ignore
    return String.fromCharCode(
      hexCode(a, 28), hexCode(a, 24), hexCode(a, 20), hexCode(a, 16), hexCode(a, 12), hexCode(a, 8), hexCode(a, 4), hexCode(a, 0), DASH,
      hexCode(b, 28), hexCode(b, 24), hexCode(b, 20), hexCode(b, 16), DASH, FOUR, hexCode(b, 8), hexCode(b, 4), hexCode(b, 0), DASH,
      HEX_CODES[8 + ((c >>> 28) & 3)] as number, hexCode(c, 24), hexCode(c, 20), hexCode(c, 16), DASH,
      hexCode(c, 12), hexCode(c, 8), hexCode(c, 4), hexCode(c, 0),
      hexCode(d, 28), hexCode(d, 24), hexCode(d, 20), hexCode(d, 16), hexCode(d, 12), hexCode(d, 8), hexCode(d, 4), hexCode(d, 0),
    );
  }
}

/** Character codes of the lowercase hex digits, of '-' and of '4'. */
const HEX_CODES: readonly number[] = [...'0123456789abcdef'].map((ch) => ch.charCodeAt(0));
const DASH = 45;
const FOUR = 52;

/** Character codes of the base-36 digits, lowercase. */
const BASE36_CODES: readonly number[] = [...'0123456789abcdefghijklmnopqrstuvwxyz'].map((ch) => ch.charCodeAt(0));

/** The code of the last base-36 digit of the integer part of `scaled` (a draw divided by a power of 36). */
const base36Code = (scaled: number): number => BASE36_CODES[Math.floor(scaled) % 36] as number;

/** The code of the hex digit of `value` at bit `shift` (a multiple of 4). */
const hexCode = (value: number, shift: number): number => HEX_CODES[(value >>> shift) & 15] as number;
