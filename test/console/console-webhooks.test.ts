// The console's webhook deliveries (GET /__admin/webhooks/deliveries) against a real loopback
// receiver, and the app picker's search and paging over more than 100 provisioned apps.

import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRejected, mock, TEST_NOW, type TestMock } from '../helpers.js';

const admin = { token: null };
let server: Server;
let base = '';
/** Statuses the receiver answers in turn; the last repeats. */
let plan: number[] = [200];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const status = plan.length > 1 ? (plan.shift() as number) : (plan[0] as number);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`got it (${status})`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const run = async (m: TestMock) => expect((await m.call('POST', '/__admin/jobs/run?app=demo', admin)).status).toBe(200);
const deliveries = async (m: TestMock, query = '') => {
  const res = await m.call('GET', `/__admin/webhooks/deliveries?app=demo${query}`, admin);
  expect(res.status, res.text).toBe(200);
  return res.body as { deliveries: any[]; total: number; next_offset: number | null };
};

describe('GET /__admin/webhooks/deliveries', () => {
  it('lists each delivery with its attempts, newest first: a failure, then the retry a minute later, with the request as signed and the answer', async () => {
    const m = mock();
    await run(m);
    expect(await deliveries(m)).toEqual({ deliveries: [], total: 0, next_offset: null });
    plan = [500, 200];
    const sub = (await m.call('POST', '/subscriptions', { body: { url: `${base}/hook`, topics: ['user.created'], hub_secret: 'k' } })).body;
    await m.call('POST', '/users', { body: { user_id: 'hook-1' } });
    await run(m);
    const first = await deliveries(m);
    expect(first.total).toBe(1);
    const [d] = first.deliveries;
    expect(d).toMatchObject({ subscription_id: sub.id, url: `${base}/hook`, topic: 'user.created', created_at: TEST_NOW, state: 'failed' });
    expect(d.notification_id).toMatch(/^notif_/);
    expect(d.attempts).toHaveLength(1);
    const [failed] = d.attempts;
    expect(failed).toMatchObject({ attempt: 1, at: TEST_NOW, status: 500, error: null, response: { status: 500, headers: { 'content-type': 'text/plain' }, body: 'got it (500)' } });
    expect(failed.duration_ms).toBeGreaterThanOrEqual(0);
    expect(failed.request).toMatchObject({ method: 'POST', uri: `${base}/hook` });
    expect(failed.request.headers['X-Hub-Signature']).toBe(`sha1=${createHmac('sha1', 'k').update(failed.request.body).digest('hex')}`);
    expect(JSON.parse(failed.request.body)).toMatchObject({ id: d.notification_id, topic: 'user.created', delivery_attempts: 1 });

    m.clock.advance(60);
    await run(m);
    const after = (await deliveries(m)).deliveries;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ notification_id: d.notification_id, state: 'delivered' });
    expect(after[0].attempts.map((a: any) => [a.attempt, a.at, a.status])).toEqual([
      [2, TEST_NOW + 60, 200],
      [1, TEST_NOW, 500],
    ]);
    // What the API's own feeds hold, the same exchange.
    const sent = (await m.call('GET', `/subscriptions/${sub.id}/sent`)).body;
    expect(sent.notifications).toEqual([expect.objectContaining({ id: d.notification_id, delivery_attempts: 2, delivery_status: 'delivered' })]);
  });

  it('puts the most recent attempt first, pages, narrows to a subscription, and says why no answer came', async () => {
    const m = mock();
    await run(m);
    plan = [200];
    const up = (await m.call('POST', '/subscriptions', { body: { url: `${base}/up`, topics: ['user.created'] } })).body;
    const down = (await m.call('POST', '/subscriptions', { body: { url: 'http://127.0.0.1:1/closed', topics: ['user.created'] } })).body;
    for (const id of ['a', 'b']) {
      await m.call('POST', '/users', { body: { user_id: `order-${id}` } });
      await run(m);
    }
    const all = await deliveries(m);
    expect(all.total).toBe(4);
    const userIdOf = (d: any) => JSON.parse(d.attempts[0].request.body).data.item.user_id;
    const refused = all.deliveries.find((d) => d.subscription_id === down.id);
    expect(refused.attempts[0]).toMatchObject({ status: 0, error: expect.stringMatching(/^Could not connect/), response: { status: 0 } });
    expect(refused.attempts[0].request.headers['X-Hub-Signature']).toBeUndefined();
    const paged = await deliveries(m, '&offset=1&limit=2');
    expect(paged.deliveries).toEqual(all.deliveries.slice(1, 3));
    expect(paged.next_offset).toBe(3);
    const only = await deliveries(m, `&subscription=${up.id}`);
    expect(only.total).toBe(2);
    expect(only.deliveries.every((d) => d.subscription_id === up.id && d.state === 'delivered')).toBe(true);
    expect(only.deliveries.map(userIdOf)).toEqual(['order-b', 'order-a']);
  });

  it('answers in the error envelope when asked wrong', async () => {
    const m = mock();
    await expectRejected(m, 'GET', '/__admin/webhooks/deliveries', admin, 400, ['parameter_not_found']);
    await expectRejected(m, 'GET', '/__admin/webhooks/deliveries?app=nope', admin, 404, ['not_found']);
    await expectRejected(m, 'GET', '/__admin/webhooks/deliveries?app=demo&limit=101', admin, 400, ['parameter_invalid']);
  });
});

describe('GET /__admin/apps?q=', () => {
  it('finds any of more than 100 provisioned apps by a part of its id or name, and pages past the first 100', async () => {
    const m = mock();
    for (let i = 0; i < 120; i++) expect((await m.call('GET', '/admins', { token: `test_pick${String(i).padStart(3, '0')}` })).status).toBe(200);
    const first = await m.call('GET', '/__admin/apps?limit=100', admin);
    expect(first.body.total).toBe(122);
    expect(first.body.next_offset).toBe(100);
    const second = await m.call('GET', '/__admin/apps?offset=100&limit=100', admin);
    expect(second.body.apps.map((a: { id: string }) => a.id).at(-1)).toBe('test_pick119');
    const found = await m.call('GET', '/__admin/apps?q=PICK11', admin);
    expect(found.body.apps.map((a: { id: string }) => a.id)).toEqual(Array.from({ length: 10 }, (_, i) => `test_pick11${i}`));
    expect(found.body).toMatchObject({ total: 10, next_offset: null });
    const paged = await m.call('GET', '/__admin/apps?q=pick&offset=100&limit=100', admin);
    expect(paged.body).toMatchObject({ total: 120, next_offset: null });
    expect(paged.body.apps).toHaveLength(20);
    const byName = (await m.call('GET', '/__admin/apps?app=other', admin)).body.apps[0].name as string;
    expect((await m.call('GET', `/__admin/apps?q=${encodeURIComponent(byName.toUpperCase())}`, admin)).body.apps.map((a: { id: string }) => a.id)).toContain('other');
    expect((await m.call('GET', '/__admin/apps?q=zzz-none', admin)).body).toMatchObject({ apps: [], total: 0, next_offset: null });
    await expectRejected(m, 'GET', `/__admin/apps?q=${'x'.repeat(101)}`, admin, 400, ['parameter_invalid']);
  });
});
