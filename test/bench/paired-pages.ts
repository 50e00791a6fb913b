// What the list benches share: timing one page request in process, and comparing the same page
// request on a small and a big app, interleaved request by request.

import { performance } from 'node:perf_hooks';
import { median } from './lib.js';

/**
 * The size benches' bound on big / small: 2x still rules out any walk of the app (a walk of 100k
 * records against 100 is hundreds of times dearer) and leaves room for a logarithmic step.
 */
export const SCALE_BOUND = 2;

/** bigMs / smallMs of one request: the list benches' target is a ratio <= SCALE_BOUND. */
export interface PairedRow {
  request: string;
  smallMs: number;
  bigMs: number;
  ratio: number;
  /** Records the list holds in each app, and the page read. */
  small: { total: number; page: number };
  big: { total: number; page: number };
}

export interface PlannedPage {
  path: string;
  headers: Record<string, string>;
  total: number;
  page: number;
}

type Fetcher = { request(path: string, init: { headers: Record<string, string> }): Response | Promise<Response> };

/** A GET through `app.request` that must answer 200: its time (the body read included) and its JSON. */
export function timedGet<B>(app: Fetcher): (path: string, headers: Record<string, string>) => Promise<{ ms: number; body: B }> {
  return async (path, headers) => {
    const start = performance.now();
    const res = await app.request(path, { headers });
    const text = await res.text();
    const ms = performance.now() - start;
    if (res.status !== 200) throw new Error(`${path} → ${res.status} ${text.slice(0, 200)}`);
    return { ms, body: JSON.parse(text) as B };
  };
}

/**
 * Times the two apps' page (`plan`: the small app's, then the big one's) request by request, alternating which app goes first, so drift in the
 * machine's load (other processes, JIT, collection) falls on both alike; round 0 is the warm-up.
 */
export async function pairedRow(
  request: string,
  plan: readonly PlannedPage[],
  options: { rounds: number; perRound: number; get: (path: string, headers: Record<string, string>) => Promise<{ ms: number }> },
): Promise<PairedRow> {
  const [small, big] = plan;
  if (small === undefined || big === undefined || plan.length !== 2) throw new Error(`${request}: a small and a big app to compare`);
  const times = new Map<PlannedPage, number[]>([[small, []], [big, []]]);
  for (let round = 0; round <= options.rounds; round++) {
    for (let i = 0; i < options.perRound; i++) {
      for (const p of i % 2 === 0 ? [small, big] : [big, small]) {
        const { ms } = await options.get(p.path, p.headers);
        if (round > 0) times.get(p)?.push(ms);
      }
    }
  }
  const smallMs = median(times.get(small) ?? []);
  const bigMs = median(times.get(big) ?? []);
  return { request, smallMs, bigMs, ratio: bigMs / smallMs, small: { total: small.total, page: small.page }, big: { total: big.total, page: big.page } };
}
