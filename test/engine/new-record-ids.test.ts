// The identifiers the mock hands a new record (an object id, a lead's UUID user_id) come from
// seeded streams, so a seeded document can already hold the very value the app would hand out
// next. Each test first asks a fresh app what that value is, then seeds a record holding it and
// checks the new record skips it and the seeded one is left as it was.

import { describe, expect, it } from 'vitest';
import { mock, type TestMock } from '../helpers.js';

const TOKEN = 'ids-token';
const ADMIN = { id: '1', name: 'Solo', email: 'solo@example.com' };

async function seeded(customers: unknown[] = [], archived: unknown[] = []): Promise<TestMock> {
  const m = mock();
  const doc = { app: { id: 'ids', tokens: [TOKEN] }, admins: [ADMIN], customers, archived_customers: archived };
  expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
  return m;
}

const post = (m: TestMock, path: string, body: unknown) => m.call('POST', path, { token: TOKEN, body });
const get = (m: TestMock, path: string) => m.call('GET', path, { token: TOKEN });
const ids = (list: { id: string }[]) => list.map((c) => c.id);

/** What a fresh app hands its first new lead and, after it, its first new user. */
async function nextValues(): Promise<{ leadId: string; leadUserId: string; pseudonym: string; userId: string }> {
  const m = await seeded();
  const lead = (await post(m, '/contacts', {})).body;
  const user = (await post(m, '/users', { user_id: 'new-1' })).body;
  return { leadId: lead.id, leadUserId: lead.user_id, pseudonym: lead.pseudonym, userId: user.id };
}

describe('a new record skips identifiers a seeded record holds', () => {
  it('a new lead skips the object id a seeded user holds', async () => {
    const next = await nextValues();
    const m = await seeded([{ id: next.leadId, user_id: 'holder', email: 'holder@example.com', created_at: 1_700_000_000 }]);
    const lead = await post(m, '/contacts', {});
    expect(lead.status).toBe(200);
    expect(lead.body.id).not.toBe(next.leadId);
    const holder = await get(m, `/users/${next.leadId}`);
    expect(holder.status).toBe(200);
    expect(holder.body).toMatchObject({ type: 'user', user_id: 'holder', email: 'holder@example.com' });
    expect(ids((await get(m, '/contacts')).body.contacts)).toEqual([lead.body.id]);
    expect((await get(m, '/counts')).body).toMatchObject({ user: { count: 1 }, lead: { count: 1 } });
  });

  it('a new user skips the object id a seeded lead holds', async () => {
    const next = await nextValues();
    // The user is the second record the fresh app made: a lead comes first here too.
    const m = await seeded([{ id: next.userId, type: 'contact', user_id: 'f0f0f0f0-0000-4000-8000-000000000001', created_at: 1_700_000_000 }]);
    expect((await post(m, '/contacts', {})).body.id).toBe(next.leadId);
    const user = await post(m, '/users', { user_id: 'new-1' });
    expect(user.status).toBe(200);
    expect(user.body.id).not.toBe(next.userId);
    expect(user.body.id).not.toBe(next.leadId);
    expect((await get(m, `/contacts/${next.userId}`)).body).toMatchObject({ type: 'contact', user_id: 'f0f0f0f0-0000-4000-8000-000000000001' });
    expect((await get(m, '/users?user_id=new-1')).body.id).toBe(user.body.id);
  });

  it('a new lead skips the UUID user_id a seeded user holds', async () => {
    const next = await nextValues();
    const m = await seeded([{ id: 'u00000000000000000000000a', user_id: next.leadUserId, email: 'holder@example.com', created_at: 1_700_000_000 }]);
    const lead = await post(m, '/contacts', {});
    expect(lead.status).toBe(200);
    expect(lead.body.user_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(lead.body.user_id).not.toBe(next.leadUserId);
    expect((await get(m, `/users?user_id=${next.leadUserId}`)).body.id).toBe('u00000000000000000000000a');
    expect((await get(m, `/contacts/${lead.body.id}`)).body.user_id).toBe(lead.body.user_id);
  });

  it('a new lead skips the UUID user_id an archived user keeps', async () => {
    const next = await nextValues();
    const archived = { id: 'u00000000000000000000000b', user_id: next.leadUserId, email: 'gone@example.com', created_at: 1_700_000_000 };
    const m = await seeded([], [archived]);
    const lead = await post(m, '/contacts', {});
    expect(lead.status).toBe(200);
    expect(lead.body.user_id).not.toBe(next.leadUserId);
    // The archived user comes back by its user_id, still the only holder of it.
    const back = await post(m, '/users', { user_id: next.leadUserId });
    expect(back.body).toMatchObject({ id: 'u00000000000000000000000b', email: 'gone@example.com' });
    expect((await get(m, `/contacts/${lead.body.id}`)).body.user_id).toBe(lead.body.user_id);
  });
});

describe('a new lead for a seed', () => {
  // Recorded fixtures and snapshots hold these values, as they hold generated records
  // (generate-golden.test.ts): the same seed must give them in every version.
  it('gets the same UUID user_id and pseudonym in every version', async () => {
    const next = await nextValues();
    expect(next.leadUserId).toBe('b06b1f27-6c40-43f3-af36-3cae653f8938');
    expect(next.pseudonym).toBe('Red Flamingo from Auckland');
  });
});
