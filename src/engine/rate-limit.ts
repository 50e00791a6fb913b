// The per-app rate limit: the per-minute total spread over 10-second windows aligned to the clock,
// floor(limit / 6) operations each. Pure arithmetic over the app's window record.

import type { RateWindow } from '../state/app-state.js';

export const WINDOW_SECONDS = 10;

export interface RateDecision {
  allowed: boolean;
  /** The per-window allowance, as X-RateLimit-Limit reports it. */
  limit: number;
  remaining: number;
  /** Unix second at which the current window ends. */
  reset: number;
}

export function windowAllowance(perMinute: number): number {
  return Math.floor(perMinute / 6);
}

/** Counts one operation against the window that holds `now`; mutates `window`. */
export function takeOperation(window: RateWindow, now: number, perMinute: number): RateDecision {
  const start = now - (((now % WINDOW_SECONDS) + WINDOW_SECONDS) % WINDOW_SECONDS);
  if (window.start !== start) {
    window.start = start;
    window.used = 0;
  }
  const limit = windowAllowance(perMinute);
  const allowed = window.used < limit;
  if (allowed) window.used++;
  return { allowed, limit, remaining: limit - window.used, reset: start + WINDOW_SECONDS };
}

/**
 * Charges `extra` more operations to the window a request was just admitted to (a bulk request
 * counts per item), never past its allowance; returns what remains.
 */
export function chargeExtra(window: RateWindow, extra: number, perMinute: number): number {
  const limit = windowAllowance(perMinute);
  window.used = Math.min(limit, window.used + Math.max(0, extra));
  return limit - window.used;
}
