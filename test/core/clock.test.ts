// The store's clock with an injected wall: a running clock follows the wall from where it was
// started or set, a frozen one moves only when set or advanced, and neither reads past the largest
// timestamp a fixture accepts.

import { describe, expect, it } from 'vitest';
import { Clock, CLOCK_MAX_SECONDS } from '../../src/core/clock.js';

/** A wall clock the test moves by hand, in milliseconds. */
const wall = (startMs: number) => {
  const w = { ms: startMs, read: () => w.ms };
  return w;
};

describe('Clock', () => {
  it('runs with the wall, from the wall\'s time when no start is given', () => {
    const w = wall(1_000_000_500);
    const c = new Clock({ wall: w.read });
    expect(c.state()).toEqual({ now: 1_000_000, frozen: false });
    w.ms += 2_700;
    expect(c.nowMs()).toBe(1_000_003_200);
    expect(c.now()).toBe(1_000_003);
  });

  it('runs with the wall from a given start', () => {
    const w = wall(5_000);
    const c = new Clock({ start: 100, wall: w.read });
    expect(c.now()).toBe(100);
    w.ms += 1_500;
    expect(c.nowMs()).toBe(101_500);
  });

  it('moves a frozen clock only when set or advanced', () => {
    const w = wall(5_000);
    const c = new Clock({ start: 100, frozen: true, wall: w.read });
    w.ms += 60_000;
    expect(c.state()).toEqual({ now: 100, frozen: true });
    c.advance(2.5);
    expect(c.nowMs()).toBe(102_500);
    c.set(50);
    expect(c.now()).toBe(50);
  });

  it('sets and advances a running clock relative to the wall', () => {
    const w = wall(5_000);
    const c = new Clock({ start: 100, wall: w.read });
    c.set(1_000);
    w.ms += 1_000;
    expect(c.now()).toBe(1_001);
    c.advance(-1);
    expect(c.nowMs()).toBe(1_000_000);
  });

  it('freezes where it stands and thaws from there, ignoring a repeated request', () => {
    const w = wall(5_000);
    const c = new Clock({ start: 100, wall: w.read });
    w.ms += 3_000;
    c.freeze(true);
    w.ms += 10_000;
    c.freeze(true);
    expect(c.state()).toEqual({ now: 103, frozen: true });
    c.freeze(false);
    expect(c.state()).toEqual({ now: 103, frozen: false });
    w.ms += 2_000;
    c.freeze(false);
    expect(c.now()).toBe(105);
  });

  it('never reads past CLOCK_MAX_SECONDS, running or frozen', () => {
    const w = wall(0);
    const running = new Clock({ start: CLOCK_MAX_SECONDS - 1, wall: w.read });
    w.ms += 5_000;
    expect(running.now()).toBe(CLOCK_MAX_SECONDS);
    const frozen = new Clock({ start: CLOCK_MAX_SECONDS + 100, frozen: true, wall: w.read });
    expect(frozen.nowMs()).toBe(CLOCK_MAX_SECONDS * 1000);
  });
});

describe('Clock without an injected wall', () => {
  it('starts at the wall clock\'s time', () => {
    const before = Math.floor(Date.now() / 1000);
    const now = new Clock().now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });
});
