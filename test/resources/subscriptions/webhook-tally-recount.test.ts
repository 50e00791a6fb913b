// The webhook byte tallies (the queue's in src/resources/subscriptions/delivery-queue.ts, the feeds' in the app's
// tallies, src/resources/subscriptions/feeds.ts) equal a recount after every kind of change: deliveries
// queued, sent, failed and retried, a subscription deleted or deactivated, a snapshot restored, an
// export seeded back, a reset, and in a provisioned app. The queue is recounted from the export
// with the test's own estimate; the feeds from their entries, and the error feeds from what
// GET /subscriptions/{id}/error shows.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEED_BYTES_TALLY } from '../../../src/engine/byte-budget.js';
import type { AppState } from '../../../src/state/app-state.js';
import { recountFeeds } from '../../feed-recount.js';
import { mock, type TestMock } from '../../helpers.js';
import { deliveryEstimate, entryEstimate } from '../../kept-estimate.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
  rx.plan.set('/recount-fail', [{ status: 500 }]);
});
afterAll(() => rx.close());

const admin = (m: TestMock, method: string, path: string, body?: unknown) => m.call(method, path, { token: null, ...(body === undefined ? {} : { body }) });

function appOf(m: TestMock, token: string): AppState {
  const app = m.store.appForToken(token);
  if (!app) throw new Error(`no app for ${token}`);
  return app;
}

/** Each tally less its recount: all zero when the tallies are exact. */
async function drift(m: TestMock, token: string, failing: readonly string[]): Promise<{ queue: number; feeds: number; log: number; errors: number }> {
  const app = appOf(m, token);
  const state = JSON.parse((await admin(m, 'GET', `/__admin/state?app=${app.id}`)).text);
  let queued = 0;
  for (const j of state.jobs as { kind: string; notification: unknown }[]) if (j.kind === 'webhook') queued += deliveryEstimate(j.notification);
  const feeds = recountFeeds(app);
  const tally = app.data.tallies.get(FEED_BYTES_TALLY) ?? 0;
  // The subscriptions listed answer 500 only: their feeds are all error entries, which the API shows whole.
  let shown = 0;
  for (const id of failing) {
    if (!app.data.subscriptions.has(id)) continue;
    const res = await m.call('GET', `/subscriptions/${id}/error`, { token });
    for (const n of res.body.notifications as Record<string, unknown>[]) shown += entryEstimate(n);
    expect((await m.call('GET', `/subscriptions/${id}/sent`, { token })).body.notifications).toEqual([]);
  }
  const failed = failing.filter((id) => app.data.subscriptions.has(id));
  const theirs = failed.reduce((sum, id) => {
    const f = app.data.webhookFeeds.get(id);
    return sum + (f ? f.error.length + f.sent.length : 0);
  }, 0);
  return {
    queue: app.deliveries.bytes - queued,
    feeds: tally - feeds.bytes,
    log: feeds.logged - feeds.entries,
    // Only meaningful when every entry is a failing subscription's.
    errors: theirs === feeds.entries ? tally - shown : 0,
  };
}
const NONE = { queue: 0, feeds: 0, log: 0, errors: 0 };

async function deliverDue(m: TestMock, token = 'demo-token'): Promise<void> {
  m.clock.advance(m.store.jobDelaySeconds);
  expect((await m.call('GET', '/users?per_page=1', { token })).status).toBe(200);
  await m.store.webhooks?.settled();
}

describe('webhook byte tallies equal a recount after each change', () => {
  it('queue, feeds, retries, delete, deactivate, snapshot, restore, seed, reset; a provisioned app', async () => {
    const m = mock({ limits: { webhookFeedBytes: 40_000 } });
    expect((await admin(m, 'POST', '/__admin/jobs/run?app=demo')).status).toBe(200);
    const failing: string[] = [];
    const check = async (label: string, token = 'demo-token') => {
      expect({ label, drift: await drift(m, token, failing) }).toEqual({ label, drift: NONE });
    };
    const sub = async (path: string, token = 'demo-token') => {
      const res = await m.call('POST', '/subscriptions', { token, body: { url: `${rx.base}${path}`, topics: ['user.created', 'user.updated'] } });
      expect(res.status, res.text).toBe(200);
      return res.body.id as string;
    };
    const bad = await sub('/recount-fail');
    failing.push(bad);
    const good = await sub('/recount-ok');
    await check('subscribed');
    for (let i = 0; i < 3; i++) expect((await m.call('POST', '/users', { body: { user_id: `wr-${i}`, custom_attributes: { blurb: 'x'.repeat(100 * i) } } })).status).toBe(200);
    await check('queued');
    await deliverDue(m);
    await check('sent and failed; retries queued');
    const onlyBad = await drift(m, 'demo-token', failing);
    expect(onlyBad).toEqual(NONE);
    expect((await admin(m, 'POST', '/__admin/snapshots?app=demo', { name: 'mid' })).status).toBe(201);
    // Retries sent and failed again, more users: the feed limit (40,000 bytes) starts to drop the oldest.
    for (let i = 3; i < 12; i++) expect((await m.call('POST', '/users', { body: { user_id: `wr-${i}`, custom_attributes: { blurb: 'y'.repeat(250) } } })).status).toBe(200);
    m.clock.advance(60);
    await deliverDue(m);
    await check('past the feed limit');
    const feeds = recountFeeds(appOf(m, 'demo-token'));
    expect(feeds.bytes).toBeLessThanOrEqual(40_000);
    expect(feeds.bytes).toBeGreaterThan(30_000);
    expect((await m.call('DELETE', `/subscriptions/${good}`)).status).toBe(200);
    await check('deleted');
    expect((await admin(m, 'POST', '/__admin/snapshots/mid/restore?app=demo')).status).toBe(200);
    await check('restored');
    // The restored retries were due, and the requests above sent them: queue one more to export.
    expect((await m.call('POST', '/users', { body: { user_id: 'wr-after', custom_attributes: { blurb: 'z'.repeat(250) } } })).status).toBe(200);
    await check('queued after the restore');
    const state = JSON.parse((await admin(m, 'GET', '/__admin/state?app=demo')).text);
    expect(state.jobs.filter((j: { kind: string }) => j.kind === 'webhook').length).toBeGreaterThan(0);
    expect((await admin(m, 'POST', '/__admin/seed', state)).status).toBe(200);
    await check('seeded from the export');
    expect((await m.call('POST', `/subscriptions/${bad}`, { body: { active: false } })).status).toBe(200);
    await check('deactivated');
    // The restore brought the deleted subscription back: only its delivery is left.
    const left = JSON.parse((await admin(m, 'GET', '/__admin/state?app=demo')).text).jobs.filter((j: { kind: string }) => j.kind === 'webhook');
    expect(left.map((j: { subscription_id: string }) => j.subscription_id)).toEqual([good]);
    expect((await admin(m, 'POST', '/__admin/reset?app=demo')).status).toBe(200);
    await check('reset');
    const other = 'test_webhook_recount';
    const mine = await sub('/recount-fail', other);
    failing.push(mine);
    expect((await m.call('POST', '/users', { token: other, body: { user_id: 'wr-other' } })).status).toBe(200);
    await check('provisioned, queued', other);
    await deliverDue(m, other);
    await check('provisioned, failed', other);
    expect(appOf(m, other).data.tallies.get(FEED_BYTES_TALLY)).toBeGreaterThan(0);
  });
});
