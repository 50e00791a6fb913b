import { describe, expect, it } from 'vitest';
import { takeOperation, windowAllowance } from '../../src/engine/rate-limit.js';

describe('rate-limit window arithmetic', () => {
  it('allows floor(perMinute / 6) per window', () => {
    expect(windowAllowance(500)).toBe(83);
    expect(windowAllowance(6)).toBe(1);
    expect(windowAllowance(11)).toBe(1);
    expect(windowAllowance(12)).toBe(2);
  });

  it('starts a new window at each multiple of 10 seconds', () => {
    const w = { start: 0, used: 0 };
    expect(takeOperation(w, 1009, 12)).toEqual({ allowed: true, limit: 2, remaining: 1, reset: 1010 });
    expect(takeOperation(w, 1009, 12)).toEqual({ allowed: true, limit: 2, remaining: 0, reset: 1010 });
    expect(takeOperation(w, 1009, 12)).toEqual({ allowed: false, limit: 2, remaining: 0, reset: 1010 });
    expect(takeOperation(w, 1010, 12)).toEqual({ allowed: true, limit: 2, remaining: 1, reset: 1020 });
  });

  it('starts a fresh window when the clock is set back', () => {
    const w = { start: 0, used: 0 };
    takeOperation(w, 2000, 12);
    takeOperation(w, 2000, 12);
    expect(takeOperation(w, 1990, 12)).toEqual({ allowed: true, limit: 2, remaining: 1, reset: 2000 });
  });
});
