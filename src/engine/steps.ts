// Long work (generating a big seed, indexing it) written once as a generator that yields where it
// may pause. Start-up runs it to the end in one go; a request runs it in slices, giving the event
// loop back between them, so other apps' requests are answered while it works.

import { setImmediate as nextTurn } from 'node:timers/promises';

/** Where long work stands: `done` of `total` in its current phase. */
export interface Progress {
  phase: string;
  done: number;
  total: number;
}

export type Steps<T> = Generator<Progress, T, void>;

/** Records indexed between two places to pause (a few microseconds each). */
export const STEP_RECORDS = 500;

/** `fn` over each item, with a place to pause every STEP_RECORDS items. */
export function* each<T>(phase: string, items: readonly T[], fn: (item: T, i: number) => void): Steps<void> {
  for (let i = 0; i < items.length; i++) {
    fn(items[i] as T, i);
    if ((i + 1) % STEP_RECORDS === 0) yield { phase, done: i + 1, total: items.length };
  }
}

/** `items.map(fn)`, with a place to pause every STEP_RECORDS items. */
export function* mapSteps<T, U>(phase: string, items: readonly T[], fn: (item: T) => U): Steps<U[]> {
  const out: U[] = [];
  yield* each(phase, items, (item) => out.push(fn(item)));
  return out;
}

/**
 * Sorts `items` in place as `Array.prototype.sort` would (stable), with a place to pause every
 * STEP_RECORDS items: runs of STEP_RECORDS sorted natively, then merged pairwise.
 */
export function* sortSteps<T>(phase: string, items: T[], cmp: (a: T, b: T) => number): Steps<void> {
  const n = items.length;
  for (let lo = 0; lo < n; lo += STEP_RECORDS) {
    const run = items.slice(lo, lo + STEP_RECORDS).sort(cmp);
    for (let i = 0; i < run.length; i++) items[lo + i] = run[i] as T;
    yield { phase, done: Math.min(n, lo + STEP_RECORDS), total: n };
  }
  let from = items;
  let to: T[] = new Array<T>(n);
  for (let width = STEP_RECORDS; width < n; width *= 2) {
    let out = 0;
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let a = lo;
      let b = mid;
      while (a < mid || b < hi) {
        // The left run wins ties: stable.
        to[out++] = (b >= hi || (a < mid && cmp(from[a] as T, from[b] as T) <= 0) ? from[a++] : from[b++]) as T;
        if (out % STEP_RECORDS === 0) yield { phase, done: out, total: n };
      }
    }
    [from, to] = [to, from];
  }
  if (from !== items) for (let i = 0; i < n; i++) items[i] = from[i] as T;
}

/** Runs `steps` to the end without pausing. */
export function runSteps<T>(steps: Steps<T>, onProgress?: (p: Progress) => void): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    onProgress?.(r.value);
  }
}

/** The event loop's turn between two slices is this long at most (plus one step). */
export const SLICE_MS = 8;

/** Runs `steps` in slices of about SLICE_MS, other work served between them. */
export async function runStepsSliced<T>(steps: Steps<T>, onProgress?: (p: Progress) => void): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    onProgress?.(r.value);
    if (performance.now() - sliceStart >= SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
