import { describe, expect, it } from 'vitest';
import { connectionCap, descriptorLimit, RESERVED_DESCRIPTORS } from '../src/server.js';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 1048576              files
Max locked memory         8388608              8388608              bytes
`;

describe('the connections held below the open-file limit', () => {
  it('reads the soft limit from /proc/self/limits text, and nothing from text without it', () => {
    expect(descriptorLimit(LIMITS)).toBe(1024);
    expect(descriptorLimit(LIMITS.replace('1024  ', 'unlimited'))).toBeUndefined();
    expect(descriptorLimit('')).toBeUndefined();
    // Without text: this process's own, which Linux shows.
    expect(descriptorLimit()).toBeGreaterThan(0);
  });

  it(`keeps ${RESERVED_DESCRIPTORS} descriptors free of connections, and serves at least one`, () => {
    expect(connectionCap(10_000, 1024)).toBe(1024 - RESERVED_DESCRIPTORS);
    expect(connectionCap(100, 1024)).toBe(100);
    expect(connectionCap(10_000, undefined)).toBe(10_000);
    expect(connectionCap(10_000, 50)).toBe(1);
  });
});
