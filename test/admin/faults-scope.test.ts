// Removing faults by scope: a fault of one app goes when removed without naming an app, and
// clearing every fault takes the app-scoped ones too; naming an app touches only its own.

import { describe, expect, it } from 'vitest';
import { Faults } from '../../src/admin/fault-rules.js';

const ids = (faults: Faults) => faults.all().map((f) => f.id);

describe('Faults.remove and Faults.clear', () => {
  it('removes an app-scoped fault by id alone, and by id with its own app, never with another app', () => {
    const faults = new Faults(1);
    const a = faults.add({ app: 'demo', latency_ms: 1 });
    const b = faults.add({ app: 'demo', latency_ms: 1 });
    expect(faults.remove(a.id, 'other')).toBe(false);
    expect(faults.remove(a.id)).toBe(true);
    expect(faults.remove(b.id, 'demo')).toBe(true);
    expect(ids(faults)).toEqual([]);
  });

  it('clears every fault, app-scoped or not, or only one app\'s', () => {
    const faults = new Faults(1);
    faults.add({ latency_ms: 1 });
    faults.add({ app: 'demo', latency_ms: 1 });
    const other = faults.add({ app: 'other', latency_ms: 1 });
    expect(faults.clear('demo')).toBe(1);
    expect(ids(faults)).toEqual([1, other.id]);
    expect(faults.clear()).toBe(2);
    expect(ids(faults)).toEqual([]);
  });
});
