// The timing kept beside a webhook feed entry (resources/subscriptions/attempts.ts): its seq is the console's
// newest-first key, so a later attempt must get a higher one; the duration is rounded.

import { describe, expect, it } from 'vitest';
import { attemptTiming, noteAttempt } from '../../../src/resources/subscriptions/attempts.js';

describe('webhook attempt timings', () => {
  it('gives a later attempt a higher seq and keeps its second and rounded duration', () => {
    const first = {};
    const second = {};
    noteAttempt(first, 100, 12.4);
    noteAttempt(second, 101, 7.6);
    const a = attemptTiming(first);
    const b = attemptTiming(second);
    expect(b?.seq).toBe((a?.seq ?? 0) + 1);
    expect(a).toMatchObject({ at: 100, duration_ms: 12 });
    expect(b).toMatchObject({ at: 101, duration_ms: 8 });
    expect(attemptTiming({})).toBeUndefined();
  });
});
