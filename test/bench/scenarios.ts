// The load scenarios of the benchmark table, shared by run.ts and profile.ts. Each drives the mock
// and the bare Hono floor with exactly the same requests; the floor answers the JSON captured from
// the mock (see bare-hono.ts).

import { REFERENCE_TIME } from '../../src/fixtures/normalize.js';
import { ACME, ADA, bearer, call, callOk, DEMO_TOKEN, LONG_CONVERSATION, type LoadSpec, type Server } from './lib.js';

/** An app whose limit allows 1 operation per 10 s: past the first, every request is the 429 path. */
export const LIMITED_TOKEN = 'limited-token';

export interface Bodies {
  getUser: unknown;
  postUser: unknown;
  counts: unknown;
  conversation: unknown;
  companyUsers: unknown;
  rateLimited: unknown;
}

let seq = 0;

/**
 * POST /users bodies: every other request creates a user (a new user_id and email), the others
 * update one of `updateKeys` user_ids (created on first use) with changed custom attributes, and
 * one in ten of those sends a last_seen_ip (an enrichment job). Every body is valid (200).
 */
export function userWrites(prefix: string, updateKeys = 1000): () => string {
  return () => {
    const i = seq++;
    if (i % 2 === 0) {
      return JSON.stringify({
        user_id: `${prefix}-c${i}`,
        email: `${prefix}-c${i}@example.com`,
        name: 'Bench User',
        custom_attributes: { plan_tier: 'pro', seats: i % 50, bench_batch: prefix },
      });
    }
    return JSON.stringify({
      user_id: `${prefix}-u${i % updateKeys}`,
      ...(i % 20 === 1 ? { last_seen_ip: '81.2.69.160' } : {}),
      custom_attributes: { seats: i % 50, last_order_at: 1_760_000_000 + i, newsletter: i % 4 === 1 },
    });
  };
}

/**
 * POST /users over a bounded key space (the memory soak): `keys` user_ids, created on the first
 * pass and updated with changing custom attributes after, so the data set stops growing and any
 * later growth is the server's own (journal, job queue, caches, leaks).
 */
export function boundedUserWrites(prefix: string, keys: number): () => string {
  return () => {
    const i = seq++;
    const k = i % keys;
    return JSON.stringify({
      user_id: `${prefix}-${k}`,
      email: `${prefix}-${k}@example.com`,
      ...(i % 10 === 0 ? { last_seen_ip: '81.2.69.160' } : {}),
      custom_attributes: { seats: i % 50, last_order_at: 1_760_000_000 + i, newsletter: i % 4 === 1, note: `n${i % 97}` },
    });
  };
}

/**
 * POST /events bodies (issue 14's throughput row): every body a new event (created_at moves on)
 * about the same user, so the person's timeline grows in order, with a monetary-amount metadata
 * value. Every body is valid (202, no body).
 */
export function eventWrites(now: number): () => string {
  return () => {
    const i = seq++;
    return JSON.stringify({ event_name: `bench-${i % 20}`, created_at: now - 80 * 86_400 + i, user_id: 'ada-1', metadata: { order: i, price: { amount: 2999, currency: 'usd' } } });
  };
}

export interface Scenario {
  key: string;
  label: string;
  /** The statuses a response may have (the 429 path lets one request per 10-s window through: 404, no such user there). */
  expect: number[];
  spec: LoadSpec;
}

const demo = { ...bearer(DEMO_TOKEN) };

export function scenarios(): Scenario[] {
  return [
    { key: 'get-user', label: 'GET /users/{id}', expect: [200], spec: { path: `/users/${ADA}`, headers: demo } },
    { key: 'post-users', label: 'POST /users (create + update, custom attrs)', expect: [200], spec: { method: 'POST', path: '/users', headers: demo, makeBody: userWrites('bench') } },
    { key: 'post-events', label: 'POST /events (202, no body)', expect: [202], spec: { method: 'POST', path: '/events', headers: demo, makeBody: eventWrites(REFERENCE_TIME + 86_400) } },
    { key: 'counts', label: 'GET /counts?type=company&count=tag', expect: [200], spec: { path: '/counts?type=company&count=tag', headers: demo } },
    { key: 'conversation', label: 'GET /conversations/{id} (620 parts, 500 shown)', expect: [200], spec: { path: `/conversations/${LONG_CONVERSATION}`, headers: demo } },
    { key: 'company-users', label: 'GET /companies/{id}/users', expect: [200], spec: { path: `/companies/${ACME}/users`, headers: demo } },
    { key: 'rate-limited', label: 'GET /users/{id} over the limit (429)', expect: [429, 404], spec: { path: `/users/${ADA}`, headers: bearer(LIMITED_TOKEN) } },
  ];
}

/** Seeds the app of the 429 scenario (1 operation per 10 s). */
export async function seedLimitedApp(mock: Server): Promise<void> {
  await callOk(`${mock.url}/__admin/seed`, {
    method: 'POST',
    body: { app: { id: 'limited', tokens: [LIMITED_TOKEN], rate_limit_per_minute: 6 } },
  });
}

/** The mock's answers to each scenario, for the floor to serve. */
export async function captureBodies(mock: Server): Promise<Bodies> {
  const get = async (path: string, token = DEMO_TOKEN, status = 200) => {
    const reply = await call(`${mock.url}${path}`, { headers: bearer(token) });
    if (reply.status !== status) throw new Error(`GET ${path}: ${reply.status}, expected ${status}: ${reply.text.slice(0, 300)}`);
    return JSON.parse(reply.text) as unknown;
  };
  const post = await callOk(`${mock.url}/users`, { method: 'POST', headers: demo, body: userWrites('capture')() });
  // Use up the window's one operation (twice, in case a window boundary passes in between).
  let limited = await call(`${mock.url}/users/${ADA}`, { headers: bearer(LIMITED_TOKEN) });
  for (let i = 0; i < 3 && limited.status !== 429; i++) limited = await call(`${mock.url}/users/${ADA}`, { headers: bearer(LIMITED_TOKEN) });
  if (limited.status !== 429) throw new Error(`the limited app did not answer 429: ${limited.status}`);
  return {
    getUser: await get(`/users/${ADA}`),
    postUser: JSON.parse(post.text) as unknown,
    counts: await get('/counts?type=company&count=tag'),
    conversation: await get(`/conversations/${LONG_CONVERSATION}`),
    companyUsers: await get(`/companies/${ACME}/users`),
    rateLimited: JSON.parse(limited.text) as unknown,
  };
}
