// When each webhook attempt went out and how long the receiver took, for the console. Kept beside
// the feed entries (keyed by the entry object, weakly) rather than in them: the feeds are the real
// API's shape (RM-feeds), and an entry a feed drops takes its timing with it. An entry loaded from
// --data-dir or a seed has none (the console shows it without).

export interface AttemptTiming {
  /** Order of the attempt among every attempt this process made: the console's newest-first key. */
  seq: number;
  /** Unix second on the mock's clock when the answer (or the failure) came. */
  at: number;
  /** Wall-clock milliseconds from sending to the answer; the one figure here that is not seeded. */
  duration_ms: number;
}

const timings = new WeakMap<object, AttemptTiming>();
let seq = 0;

export function noteAttempt(entry: object, at: number, durationMs: number): void {
  timings.set(entry, { seq: ++seq, at, duration_ms: Math.round(durationMs) });
}

export const attemptTiming = (entry: object): AttemptTiming | undefined => timings.get(entry);
