import { describe, expect, it } from 'vitest';
import { mock, type TestMock } from '../helpers.js';
import { startReceiver } from '../resources/subscriptions/webhook-receiver.js';

type Step = [method: string, path: string, options?: { token?: string | null; body?: unknown; headers?: Record<string, string> }];

/** A script touching reads, writes through the control plane, errors, rate limiting and time. */
const SCRIPT: Step[] = [
  ['GET', '/admins'],
  ['GET', '/users/5714dd359a3fd47136000001'],
  ['GET', '/users/nope'],
  ['GET', '/admins', { token: 'other-token' }],
  ['GET', '/admins', { token: 'bad' }],
  ['DELETE', '/admins'],
  // API versions: a reshaped answer, a refused version, a refused path of another version.
  ['GET', '/users?email=ada@example.com', { headers: { 'intercom-version': '1.0' } }],
  ['GET', '/users?user_id=ada-1', { headers: { 'intercom-version': '1.4' } }],
  ['GET', '/admins', { headers: { 'intercom-version': '9.9' } }],
  ['GET', '/data_attributes/customer', { headers: { 'intercom-version': '1.4' } }],
  ['POST', '/__admin/clock', { token: null, body: { advance: 3 } }],
  // Webhooks: subscription ids, notification ids and bodies come from the app's seeded stream.
  ['POST', '/subscriptions', { body: { url: 'http://127.0.0.1:9/hook', topics: ['user.created', 'company.created'], hub_secret: 'k' } }],
  ['POST', '/users', { body: { user_id: 'det-1', email: 'det@example.com', companies: [{ company_id: 'det-co' }] } }],
  ['GET', '/subscriptions'],
  ['GET', '/__admin/state?app=demo', { token: null }],
  ['POST', '/__admin/seed?mode=merge', { token: null, body: { app: { id: 'demo', tokens: ['demo-token'] }, generate: { users: 5, leads: 2 } } }],
  ['GET', '/__admin/state?app=demo', { token: null }],
  ['POST', '/__admin/reset', { token: null }],
  ['GET', '/__admin/state?app=other', { token: null }],
];

async function run(seed: number): Promise<string[]> {
  const m = mock({ seed });
  const out: string[] = [];
  for (const [method, path, options] of SCRIPT) {
    const res = await m.call(method, path, options);
    out.push(`${res.status} ${JSON.stringify([...res.headers])}\n${res.text}`);
  }
  return out;
}

describe('determinism', () => {
  it('gives byte-identical responses, headers included, for the same seed and the same requests', async () => {
    const [a, b] = await Promise.all([run(7), run(7)]);
    expect(a).toHaveLength(SCRIPT.length);
    expect(a).toEqual(b);
  });

  it('generates different bulk data for a different seed, keeping the hand-written records', async () => {
    const one = JSON.parse((await mock({ seed: 1 }).call('GET', '/__admin/state?app=demo', { token: null })).text);
    const two = JSON.parse((await mock({ seed: 2 }).call('GET', '/__admin/state?app=demo', { token: null })).text);
    const ada = (doc: any) => doc.customers.find((c: any) => c.user_id === 'ada-1');
    expect(ada(one)).toEqual(ada(two));
    expect(one.customers.length).toBe(two.customers.length);
    const generated = (doc: any) => doc.customers.filter((c: any) => c.user_id?.startsWith('gen-user-')).map((c: any) => c.email);
    expect(generated(one)).not.toEqual(generated(two));
  });
});

describe('determinism of webhook deliveries', () => {
  it('sends byte-identical deliveries (bodies, signatures, ids, order) for the same seed and requests, after a reset too', async () => {
    const rx = await startReceiver();
    try {
      const deliveries = async (m: TestMock) => {
        rx.received.length = 0;
        const sub = await m.call('POST', '/subscriptions', { body: { url: `${rx.base}/det`, topics: ['user.created', 'user.tag.created', 'company.created'], hub_secret: 'k' } });
        const user = await m.call('POST', '/users', { body: { user_id: 'det-1', email: 'det@example.com', companies: [{ company_id: 'det-co' }] } });
        await m.call('POST', '/tags', { body: { name: 'Det', users: [{ id: user.body.id }] } });
        await m.call('POST', `/subscriptions/${sub.body.id}/ping`);
        expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
        return rx.received.map((r) => `${r.path} ${String(r.headers['x-hub-signature'])} ${r.text}`);
      };
      const m = mock({ seed: 7 });
      const first = await deliveries(m);
      expect(first.map((d) => JSON.parse(d.slice(d.indexOf('{'))).topic)).toEqual(['company.created', 'user.created', 'user.tag.created', 'ping']);
      expect(await deliveries(mock({ seed: 7 }))).toEqual(first);
      expect((await m.call('POST', '/__admin/reset', { token: null })).status).toBe(200);
      expect(await deliveries(m)).toEqual(first);
    } finally {
      await rx.close();
    }
  });
});
