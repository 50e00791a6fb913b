// The fault store's draws, which HTTP tests see only one request at a time: a latency range is
// drawn uniformly with both ends reachable, a fraction applies to about that share of requests,
// and both are pinned for a seed.

import { describe, expect, it } from 'vitest';
import { Random } from '../../src/core/random.js';
import { Faults, NO_EFFECTS } from '../../src/admin/fault-rules.js';

const key = { app: 'demo', operationId: 'listUsers', method: 'GET', path: '/users' };

describe('Faults draws', () => {
  it('draws a latency range uniformly, both ends included', () => {
    const faults = new Faults(1);
    faults.add({ latency_ms: 10, latency_max_ms: 12 });
    const seen = new Map<number, number>();
    for (let i = 0; i < 600; i++) {
      const ms = faults.effects(key).latencyMs;
      seen.set(ms, (seen.get(ms) ?? 0) + 1);
    }
    expect([...seen.keys()].sort()).toEqual([10, 11, 12]);
    for (const n of seen.values()) expect(n).toBeGreaterThan(150);
  });

  it('adds a fixed latency when no maximum is given, and sums the latencies of several faults', () => {
    const faults = new Faults(1);
    faults.add({ latency_ms: 25 });
    faults.add({ latency_ms: 5, path: '/users' });
    expect(faults.effects(key).latencyMs).toBe(30);
    expect(faults.effects({ ...key, path: '/companies' }).latencyMs).toBe(25);
  });

  it('applies a fraction to about that share of requests, the same ones for the same seed', () => {
    const run = (seed: number) => {
      const faults = new Faults(seed);
      faults.add({ error: 'server_error', fraction: 0.2 });
      return Array.from({ length: 1000 }, () => faults.effects(key).error !== undefined);
    };
    const hits = run(1).filter(Boolean).length;
    expect(hits).toBeGreaterThan(150);
    expect(hits).toBeLessThan(250);
    expect(run(1)).toEqual(run(1));
    expect(run(2)).not.toEqual(run(1));
  });

  it('draws from the app\'s own stream when it is given one', () => {
    const own = new Random(99);
    const faults = new Faults(1);
    faults.add({ latency_ms: 0, latency_max_ms: 1000 });
    const expected = Math.floor(new Random(99).next() * 1001);
    expect(faults.effects(key, own).latencyMs).toBe(expected);
  });

  it('applies a fault of fraction f only to a draw below f: a draw of exactly f, or of 0 for a fraction of 0, passes', () => {
    const drawing = (value: number) => ({ next: () => value }) as unknown as Random;
    const faults = new Faults(1);
    faults.add({ error: 'server_error', fraction: 0.5 });
    expect(faults.effects(key, drawing(0.5)).error).toBeUndefined();
    expect(faults.effects(key, drawing(0.4999)).error).toBe('server_error');
    const never = new Faults(1);
    never.add({ error: 'server_error', fraction: 0 });
    expect(never.effects(key, drawing(0)).error).toBeUndefined();
  });

  it('answers the shared no-effect value when no fault is set', () => {
    expect(new Faults(1).effects(key)).toBe(NO_EFFECTS);
  });

  it('removes and clears by app, leaving the others', () => {
    const faults = new Faults(1);
    const global = faults.add({ latency_ms: 1 });
    const demo = faults.add({ app: 'demo', latency_ms: 2 });
    faults.add({ app: 'other', latency_ms: 3 });
    expect(faults.remove(global.id, 'demo')).toBe(false);
    expect(faults.remove(demo.id, 'other')).toBe(false);
    expect(faults.remove(demo.id, 'demo')).toBe(true);
    expect(faults.all().map((f) => f.latency_ms)).toEqual([1, 3]);
    expect(faults.clear('demo')).toBe(0);
    expect(faults.clear('other')).toBe(1);
    expect(faults.all().map((f) => f.latency_ms)).toEqual([1]);
    expect(faults.clear()).toBe(1);
    expect(faults.all()).toEqual([]);
  });
});
