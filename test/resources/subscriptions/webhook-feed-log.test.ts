// Which feed entry goes when an app's feeds are past their bytes: always the app's oldest, however
// entries left before (a subscription deleted, a feed's own oldest at the count cap), and as many
// as a new entry needs. Sizes are counted from what the API shows (test/kept-estimate.ts): the
// error feed, which shows each exchange. Each test's clock stays within the minute after which a
// failed attempt's retry would add entries of its own.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestMock } from '../../helpers.js';
import { entryEstimate } from '../../kept-estimate.js';
import { feedOf, ping, ready, subscribe, tick } from './webhook-app.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
  for (const path of ['/log-a', '/log-b', '/log-c', '/log-x']) rx.plan.set(path, [{ status: 500 }]);
});
afterAll(() => rx.close());

/** A ping sent and refused: the id of the entry it put first in the subscription's error feed. */
async function failedPing(m: TestMock, sub: string): Promise<string> {
  await ping(m, sub);
  await tick(m);
  return (await feedOf(m, sub, 'error'))[0]?.id as string;
}

const errorIds = async (m: TestMock, sub: string): Promise<string[]> => (await feedOf(m, sub, 'error')).map((n) => n.id as string);

/** The size of one refused ping's entry (paths of one length share it), from an app without a limit. */
async function pingEntrySize(): Promise<number> {
  const m = await ready();
  const sub = await subscribe(m, `${rx.base}/log-x`);
  await failedPing(m, sub);
  await failedPing(m, sub);
  const sizes = new Set((await feedOf(m, sub, 'error')).map(entryEstimate));
  expect(sizes.size).toBe(1);
  return [...sizes][0] as number;
}

describe("the app's oldest feed entry", () => {
  it('stays the first to go when newer entries left before it, or every entry after it did', async () => {
    const size = await pingEntrySize();
    const m = await ready({ limits: { webhookFeedBytes: 3 * size } });
    const a = await subscribe(m, `${rx.base}/log-a`);
    const b = await subscribe(m, `${rx.base}/log-b`);
    const a1 = await failedPing(m, a);
    await failedPing(m, b);
    const a2 = await failedPing(m, a);
    // b's entry, newer than a1, leaves with b: a1 is still the oldest.
    expect((await m.call('DELETE', `/subscriptions/${b}`)).status).toBe(200);
    const a3 = await failedPing(m, a);
    expect(await errorIds(m, a)).toEqual([a3, a2, a1]);
    const a4 = await failedPing(m, a);
    expect(await errorIds(m, a)).toEqual([a4, a3, a2]);
    // a1 went; the place after it (b's) is empty, so the oldest is a2, two places on.
    const a5 = await failedPing(m, a);
    expect(await errorIds(m, a)).toEqual([a5, a4, a3]);
    // Every entry leaves with a: the next subscription's entries are the app's oldest from its first.
    expect((await m.call('DELETE', `/subscriptions/${a}`)).status).toBe(200);
    const c = await subscribe(m, `${rx.base}/log-c`);
    const c1 = await failedPing(m, c);
    const c2 = await failedPing(m, c);
    const c3 = await failedPing(m, c);
    expect(await errorIds(m, c)).toEqual([c3, c2, c1]);
    const c4 = await failedPing(m, c);
    expect(await errorIds(m, c)).toEqual([c4, c3, c2]);
  });

  it('as big as the feeds may hold is kept, alone', async () => {
    const size = await pingEntrySize();
    const m = await ready({ limits: { webhookFeedBytes: size } });
    const sub = await subscribe(m, `${rx.base}/log-x`);
    const first = await failedPing(m, sub);
    expect(await errorIds(m, sub)).toEqual([first]);
    const second = await failedPing(m, sub);
    expect(await errorIds(m, sub)).toEqual([second]);
  });

  it('goes with as many others as a bigger new entry needs', async () => {
    // A user.created entry is bigger than a ping's: the limit holds it alone but not beside one ping.
    const measure = await ready();
    const probe = await subscribe(measure, `${rx.base}/log-x`);
    await failedPing(measure, probe);
    expect((await measure.call('POST', '/users', { body: { user_id: 'feed-big' } })).status).toBe(200);
    await tick(measure);
    const [user, small] = (await feedOf(measure, probe, 'error')).map(entryEstimate) as [number, number];
    expect(user).toBeGreaterThan(small);
    const limit = user + small - 1;
    const held = Math.floor(limit / small);
    expect(held).toBeGreaterThanOrEqual(2);

    const m = await ready({ limits: { webhookFeedBytes: limit } });
    const sub = await subscribe(m, `${rx.base}/log-x`);
    for (let i = 0; i < held; i++) await failedPing(m, sub);
    expect(await errorIds(m, sub)).toHaveLength(held);
    expect((await m.call('POST', '/users', { body: { user_id: 'feed-big' } })).status).toBe(200);
    await tick(m);
    const kept = await feedOf(m, sub, 'error');
    expect(kept.map((n) => n.topic)).toEqual(['user.created']);
    expect(kept.map(entryEstimate)).toEqual([user]);
  });
});
