// The store's seeds in progress as the engine's API gives them (the HTTP side, requests held
// while their app is seeded: test/admin/seed-slices.test.ts): where each stands from the moment it
// starts, a wait for every one, a token's wait, and nothing left once they are in place.

import { describe, expect, it } from 'vitest';
import { SeedsInProgress } from '../../src/engine/seeds-in-progress.js';
import type { Steps } from '../../src/engine/steps.js';
import { mock } from '../helpers.js';

/** A seed that pauses until its gate opens: the test, not the clock, says when it is in place. */
function* gated(gate: { open: boolean }): Steps<string> {
  while (!gate.open) yield { phase: 'waiting', done: 0, total: 1 };
  return 'in place';
}

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

  it("let go only of the tokens still their own: another app's seed naming the same token keeps it", async () => {
    const seeds = new SeedsInProgress();
    const gateA = { open: false };
    const gateB = { open: false };
    const a = seeds.run('a', ['shared'], () => gated(gateA));
    const b = seeds.run('b', ['shared'], () => gated(gateB));
    // The later seed's document names the token last: a request with it waits for that app.
    expect(seeds.ofToken('shared')).toBe(seeds.of('b'));
    gateA.open = true;
    expect(await a).toBe('in place');
    expect(seeds.of('a')).toBeUndefined();
    const ofB = seeds.of('b');
    expect(ofB).toBeInstanceOf(Promise);
    expect(seeds.ofToken('shared')).toBe(ofB);
    gateB.open = true;
    expect(await b).toBe('in place');
    expect(seeds.ofToken('shared')).toBeUndefined();
  });

  it("forget a finished seed's tokens: the app's next seed does not hold requests with a token it no longer names", async () => {
    const seeds = new SeedsInProgress();
    expect(await seeds.run('a', ['old-token'], () => gated({ open: true }))).toBe('in place');
    const gate = { open: false };
    const next = seeds.run('a', ['new-token'], () => gated(gate));
    expect(seeds.ofToken('new-token')).toBe(seeds.of('a'));
    expect(seeds.ofToken('old-token')).toBeUndefined();
    gate.open = true;
    await next;
    expect(seeds.ofToken('new-token')).toBeUndefined();
  });
});
