// What a seeded document becomes: the order records are kept in, the indexes every lookup reads,
// and the counters the next ids are taken from, all as the API answers them afterwards.

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mock, TEST_NOW, type TestMock } from '../helpers.js';

// A one-app store: these tests seed their own app and need none of the default fixtures.
const FIXTURES = fileURLToPath(new URL('../golden/fixtures', import.meta.url));

const U1 = 'u0000000000000000000000a';
const U2 = 'u0000000000000000000000b';
const U3 = 'u0000000000000000000000c';
const U4 = 'u0000000000000000000000d';
const L1 = 'l0000000000000000000000a';
const C1 = 'c0000000000000000000000a';
const A1 = 'a0000000000000000000000a';
const S1 = 's0000000000000000000000a';
const LATER = TEST_NOW + 10_000;

const job = (id: number, customer_id: string, due_at: number) => ({ id, kind: 'enrich_customer', customer_id, due_at });

/** Records deliberately out of order: U2, U3 and U4 share a creation time and come as U3, U2, U4. */
const doc = () => ({
  app: { id: 'base', tokens: ['base-token'] },
  // The largest numeric id is an admin's, listed before a smaller one and after the tags.
  admins: [{ id: '50', name: 'Ann', email: 'ann@example.com' }, { id: '1', name: 'Bo', email: 'bo@example.com' }],
  teams: [{ id: '40', name: 'Team', admin_ids: ['1'] }],
  tags: [{ id: '7', name: 'VIP' }],
  segments: [{ id: S1, name: 'Seg' }],
  data_attributes: [{ name: 'plan', data_type: 'string' }],
  companies: [{ id: C1, company_id: 'co-1', name: 'Acme' }],
  customers: [
    { id: U3, user_id: 'u-3', created_at: 200, tags: ['7'], companies: [C1] },
    { id: U2, email: 'two@example.com', created_at: 200, companies: [C1] },
    { id: U1, user_id: 'u-1', email: 'one@example.com', created_at: 100 },
    { id: U4, user_id: 'u-4', created_at: 200 },
    { id: L1, type: 'contact', user_id: 'lead-1', phone: '+1 555 0100', created_at: 50 },
  ],
  archived_customers: [{ id: A1, user_id: 'gone-1', email: 'gone@example.com', segments: [S1] }],
  jobs: [job(5, U1, LATER), job(3, U2, LATER), job(4, A1, LATER - 1)],
  user_delete_requests: 3,
});

async function seeded(body: unknown = doc()): Promise<TestMock> {
  const m = mock({ fixturesDir: FIXTURES });
  const res = await m.call('POST', '/__admin/seed', { token: null, body });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return m;
}

const get = (m: TestMock, path: string) => m.call('GET', path, { token: 'base-token' });
const post = (m: TestMock, path: string, body: unknown) => m.call('POST', path, { token: 'base-token', body });
const ids = (list: { id: string }[]) => list.map((x) => x.id);
const exported = async (m: TestMock) => JSON.parse((await m.call('GET', '/__admin/state?app=base', { token: null })).text);

describe('a seeded document, as the API reads it afterwards', () => {
  it('keeps customers oldest first, ties broken by id, in lists and in the export', async () => {
    const m = await seeded();
    expect(ids((await get(m, '/users')).body.users)).toEqual([U1, U2, U3, U4]);
    expect(ids((await exported(m)).customers)).toEqual([L1, U1, U2, U3, U4]);
  });

  it('finds seeded users by user_id and email, leads by phone, companies by company_id, tags by name', async () => {
    const m = await seeded();
    expect((await get(m, '/users?user_id=u-1')).body.id).toBe(U1);
    expect(ids((await get(m, '/users?email=two@example.com')).body.users)).toEqual([U2]);
    expect((await m.call('GET', `/contacts?phone=${encodeURIComponent('+1 555 0100')}`, { token: 'base-token', headers: { 'intercom-version': '1.2' } })).body.id).toBe(L1);
    expect((await get(m, '/companies?company_id=co-1')).body.id).toBe(C1);
    // A tag written by an existing name (any case) is that tag, not a new one.
    expect((await post(m, '/tags', { name: 'vip' })).body.id).toBe('7');
    const attributes = (await get(m, '/data_attributes/customer')).body.data_attributes as { name: string; custom: boolean }[];
    expect(attributes.filter((a) => a.custom).map((a) => a.name)).toEqual(['plan']);
  });

  it('counts seeded holders and members', async () => {
    const m = await seeded();
    expect(ids((await get(m, '/users?tag_id=7')).body.users)).toEqual([U3]);
    expect((await get(m, `/companies/${C1}`)).body.user_count).toBe(2);
    expect(ids((await get(m, `/companies/${C1}/users`)).body.users)).toEqual([U2, U3]);
    expect((await get(m, '/counts?type=user&count=tag')).body.user.tag).toEqual([{ VIP: 1 }]);
  });

  it('restores an archived user by its user_id, or by its email', async () => {
    const byUserId = await seeded();
    const restored = (await post(byUserId, '/users', { user_id: 'gone-1' })).body;
    expect(restored.id).toBe(A1);
    expect(ids(restored.segments.segments)).toEqual([S1]);
    const byEmail = await seeded();
    expect((await post(byEmail, '/users', { email: 'gone@example.com' })).body.id).toBe(A1);
  });

  it('numbers new tags after the largest numeric id of tags, admins and teams, and deletion requests after the seeded count', async () => {
    const m = await seeded();
    expect((await post(m, '/tags', { name: 'New' })).body.id).toBe('51');
    expect((await post(m, '/user_delete_requests', { intercom_user_id: U1 })).body).toEqual({ id: 4 });
  });

  it('starts deletion requests at 1 when the document counts none', async () => {
    const m = await seeded({ ...doc(), user_delete_requests: 0 });
    expect((await post(m, '/user_delete_requests', { intercom_user_id: U1 })).body).toEqual({ id: 1 });
    expect((await exported(m)).user_delete_requests).toBe(1);
  });

  it('queues seeded jobs by due time, ties by id, and numbers the next job after the largest', async () => {
    const m = await seeded();
    expect((await exported(m)).jobs.map((j: { id: number }) => j.id)).toEqual([4, 3, 5]);
    expect((await post(m, '/users', { user_id: 'new-1', last_seen_ip: '8.8.8.8' })).status).toBe(200);
    // The new job is due sooner than every seeded one, so it comes first.
    expect((await exported(m)).jobs.map((j: { id: number }) => j.id)).toEqual([6, 4, 3, 5]);
  });
});
