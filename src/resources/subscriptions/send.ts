// One POST to a receiver: at most MAX_DELIVERIES_IN_FLIGHT at once over every app, within the
// timeout, and what the feeds keep of the answer (an excerpt of its body and of its headers).

import { readUpTo } from '../../http/read-stream.js';

/** Most of a receiver's answer a feed keeps: an excerpt, enough to see why it failed, never a service's page. */
export const MAX_RESPONSE_BYTES = 1024;

export async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const { bytes, over } = await readUpTo(response.body, MAX_RESPONSE_BYTES);
  const cut = over || bytes.length > MAX_RESPONSE_BYTES;
  const text = bytes.subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
  // A character the cut split is dropped, not shown as U+FFFD.
  return cut ? text.replace(/\uFFFD$/, '') : text;
}

/** Headers of a receiver's answer the feeds keep, and characters of each value. */
const MAX_RESPONSE_HEADERS = 20;
const MAX_HEADER_VALUE = 256;

export function keptHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  for (const [name, value] of headers) {
    if (n++ >= MAX_RESPONSE_HEADERS) break;
    out[name] = value.length > MAX_HEADER_VALUE ? value.slice(0, MAX_HEADER_VALUE) : value;
  }
  return out;
}

export interface Outcome {
  status: number;
  headers: Record<string, string>;
  entity: string;
}

/** Deliveries sent at once, over every app: each holds a socket, and receivers that never answer must not take every descriptor. */
export const MAX_DELIVERIES_IN_FLIGHT = 64;

/** Slots for sends: a send past the cap waits for one to free, in the order they asked. */
export class Slots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async take(): Promise<void> {
    if (this.used < this.size) {
      this.used++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.used--;
  }

  state(): { sending: number; waiting: number } {
    return { sending: this.used, waiting: this.waiting.length };
  }
}

/** Sends once a slot is free; `sent` is called as the send starts, so its duration is the receiver's alone. */
export async function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number, slots: Slots, sent: () => void): Promise<Outcome> {
  await slots.take();
  try {
    sent();
    return await send(url, headers, body, timeoutMs);
  } finally {
    slots.give();
  }
}

export async function send(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Outcome> {
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    const entity = await readCapped(response);
    return { status: response.status, headers: keptHeaders(response.headers), entity };
  } catch (err) {
    // No answer: status 0 in the feed, and the reason as the entity.
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return { status: 0, headers: {}, entity: timedOut ? `No response within ${timeoutMs} ms` : `Could not connect: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}` };
  }
}
