// What the webhook tests do to an app, over HTTP: a mock whose seeded jobs have run (so its queue
// holds deliveries only), subscriptions to a receiver, pings, and the clock moved on so that what is
// due goes out and its answers are in the feeds.

import { expect } from 'vitest';
import { mock, type TestMock } from '../../helpers.js';

export async function ready(options: Parameters<typeof mock>[0] = {}): Promise<TestMock> {
  const m = mock(options);
  expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
  return m;
}

export async function subscribe(m: TestMock, url: string, { topics = ['user.created'], token = 'demo-token' }: { topics?: string[]; token?: string } = {}): Promise<string> {
  const res = await m.call('POST', '/subscriptions', { token, body: { url, topics } });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
}

export async function ping(m: TestMock, id: string, token = 'demo-token'): Promise<void> {
  const res = await m.call('POST', `/subscriptions/${id}/ping`, { token });
  expect(res.status, res.text).toBe(200);
}

/** A request reaches the app `seconds` later (handing over what is due), then the sends settle. */
export async function tick(m: TestMock, seconds = m.store.jobDelaySeconds): Promise<void> {
  m.clock.advance(seconds);
  expect((await m.call('GET', '/users?per_page=1')).status).toBe(200);
  await m.store.webhooks?.settled();
}

export async function feedOf(m: TestMock, id: string, which: 'sent' | 'error'): Promise<any[]> {
  const res = await m.call('GET', `/subscriptions/${id}/${which}`);
  expect(res.status, res.text).toBe(200);
  return res.body.notifications;
}
