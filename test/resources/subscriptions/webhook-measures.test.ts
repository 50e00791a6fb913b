// How webhook state is measured (resources/subscriptions/bytes.ts): as keptBytes counts a value,
// but each object of a notification's top levels measured once and remembered, since a change owed
// to many subscriptions, a retry and a feed entry share those objects.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keptBytes } from '../../../src/engine/byte-budget.js';
import { deliveryBytes, entryBytes, notificationBytes } from '../../../src/resources/subscriptions/bytes.js';
import type { WebhookJob } from '../../../src/engine/types.js';

const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('any'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 6 }), tie('any'), { maxKeys: 4 })),
})).any;

describe('a notification\'s bytes', () => {
  it('are what keptBytes counts of it, at every depth', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys: 5 }), (notification) => {
        // A copy measured fresh each time: the figure of an object measured before is remembered.
        const fresh = structuredClone(notification);
        expect(notificationBytes(fresh)).toBe(keptBytes(notification));
      }),
      { numRuns: 200 },
    );
    expect(notificationBytes({ data: { item: [1, 'ab', { deep: [null, true] }] } })).toBe(keptBytes({ data: { item: [1, 'ab', { deep: [null, true] }] } }));
  });

  it('of an object measured before are remembered, down to the item inside the envelope', () => {
    const item = { type: 'user', id: 'u1', tags: ['a'] };
    const first = { topic: 'user.created', data: { item } };
    const measured = notificationBytes(first);
    // Kept objects are never changed, so a change here shows the figure is not walked again.
    item.tags.push('b'.repeat(100));
    expect(notificationBytes(first)).toBe(measured);
    // A new envelope around the same data: its own members counted, the data remembered.
    const second = { topic: 'user.created', data: first.data };
    expect(notificationBytes(second)).toBe(measured);
    (item as Record<string, unknown>).extra = 1;
    const third = { topic: 'user.created', data: { item } };
    expect(notificationBytes(third)).toBe(measured);
  });

  it('of an array are counted per item, and an array in the envelope is remembered too', () => {
    const items = [{ a: 1 }, 'x'];
    const n = { topic: 't', data: items };
    const bytes = notificationBytes(n);
    expect(bytes).toBe(keptBytes({ topic: 't', data: [{ a: 1 }, 'x'] }));
    items.push('more');
    expect(notificationBytes({ topic: 't', data: items })).toBe(bytes);
  });
});

describe('a delivery and a feed entry', () => {
  it('cost 256 bytes beside their notification, an entry its exchange too', () => {
    const notification = { topic: 'user.created', data: { item: { id: 'u1' } } };
    const bytes = keptBytes(notification);
    expect(deliveryBytes({ notification } as unknown as WebhookJob)).toBe(256 + bytes);
    const http_request = { status: 200, body: 'ok' };
    expect(entryBytes({ notification: { ...notification }, http_request })).toBe(256 + bytes + keptBytes(http_request));
  });
});
