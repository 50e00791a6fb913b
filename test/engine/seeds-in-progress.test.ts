// The store's seeds in progress as the engine's API gives them (the HTTP side, requests held
// while their app is seeded: test/admin/seed-slices.test.ts): where each stands from the moment it
// starts, a wait for every one, a token's wait, and nothing left once they are in place.

import { describe, expect, it } from 'vitest';
import { mock } from '../helpers.js';

const doc = (id: string, users: number) => ({ app: { id, tokens: [`${id}-token`] }, generate: { users } });

describe('seeds in progress', () => {
  it('are listed from their start, waited for together and by token, and gone once in place', async () => {
    const { store } = mock();
    expect(store.seeds.all()).toBeUndefined();
    expect(store.seeds.list()).toEqual([]);
    const first = store.seedAppSliced(doc('slow-a', 400), 'replace');
    const second = store.seedAppSliced(doc('slow-b', 10), 'replace');
    // Each ran its first slice as it started (how far a slice goes depends on the machine's speed):
    // each stands at a pause place of its own.
    const listed = store.seeds.list();
    expect(listed.map((s) => s.app)).toEqual(['slow-a', 'slow-b']);
    for (const s of listed) {
      expect(s.phase).not.toBe('starting');
      expect(s.done).toBeLessThanOrEqual(s.total);
    }
    const byToken = store.seeds.ofToken('slow-a-token');
    expect(byToken).toBeInstanceOf(Promise);
    expect(store.seeds.ofToken('nobody-token')).toBeUndefined();
    const all = store.seeds.all();
    expect(all).toBeInstanceOf(Promise);
    await all;
    // Every seed in progress when all() was asked is in place.
    expect(store.appIds()).toEqual(expect.arrayContaining(['slow-a', 'slow-b']));
    expect((await first).id).toBe('slow-a');
    expect((await second).id).toBe('slow-b');
    await byToken;
    expect(store.seeds.list()).toEqual([]);
    expect(store.seeds.all()).toBeUndefined();
    expect(store.seeds.ofToken('slow-a-token')).toBeUndefined();
  });
});
