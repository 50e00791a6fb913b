import { describe, expect, it } from 'vitest';
import { mock } from '../helpers.js';

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
