// The enrichment queue beyond the happy path: jobs kept in due order when the clock is set back,
// only the due prefix run, what enrichment derives from the email, and what it leaves alone.

import { describe, expect, it } from 'vitest';
import { mock, TEST_NOW, type TestMock } from '../helpers.js';
import { ADA, GRACE, VISITOR } from '../fixture-ids.js';

const post = (m: TestMock, body: unknown) => m.call('POST', '/users', { body });
const admin = (m: TestMock, method: string, path: string, body?: unknown) => m.call(method, path, { token: null, ...(body === undefined ? {} : { body }) });
const jobs = async (m: TestMock) => JSON.parse((await admin(m, 'GET', '/__admin/state?app=demo')).text).jobs as { customer_id: string; due_at: number }[];
const user = async (m: TestMock, id: string) => (await m.call('GET', `/users/${id}`)).body;

async function drained(): Promise<TestMock> {
  const m = mock();
  await admin(m, 'POST', '/__admin/jobs/run?app=demo');
  return m;
}

describe('the enrichment queue', () => {
  it('keeps jobs in due order when a later write is due earlier (the clock set back), and runs only the due prefix', async () => {
    const m = await drained();
    const delay = m.store.jobDelaySeconds;
    await post(m, { user_id: 'ada-1', last_seen_ip: '8.8.8.8' });
    expect((await admin(m, 'POST', '/__admin/clock', { now: TEST_NOW - 100 })).status).toBe(200);
    await post(m, { user_id: 'grace-2', last_seen_ip: '8.8.4.4' });
    expect(await jobs(m)).toMatchObject([
      { customer_id: GRACE, due_at: TEST_NOW - 100 + delay },
      { customer_id: ADA, due_at: TEST_NOW + delay },
    ]);
    // Exactly at Grace's due time: hers runs, Ada's waits.
    await admin(m, 'POST', '/__admin/clock', { now: TEST_NOW - 100 + delay });
    expect((await user(m, GRACE)).location_data.city_name).toEqual(expect.any(String));
    expect(await jobs(m)).toMatchObject([{ customer_id: ADA }]);
    expect((await user(m, ADA)).location_data).toEqual({ type: 'location_data' });
    await admin(m, 'POST', '/__admin/clock', { now: TEST_NOW + delay - 1 });
    await user(m, ADA);
    expect(await jobs(m)).toHaveLength(1);
    await admin(m, 'POST', '/__admin/clock', { now: TEST_NOW + delay });
    expect((await user(m, ADA)).location_data.city_name).toEqual(expect.any(String));
    expect(await jobs(m)).toEqual([]);
  });

  it('runs every job due at once, in one request', async () => {
    const m = await drained();
    await post(m, { user_id: 'ada-1', last_seen_ip: '8.8.8.8' });
    await post(m, { user_id: 'grace-2', last_seen_ip: '8.8.4.4' });
    await post(m, { user_id: 'alan-3', last_seen_ip: '1.1.1.1' });
    m.clock.advance(m.store.jobDelaySeconds);
    await m.call('GET', '/users?per_page=1');
    expect(await jobs(m)).toEqual([]);
  });

  it('stamps updated_at with the time the job ran when it runs on the clock, and leaves it when run through the control plane', async () => {
    const m = await drained();
    await post(m, { user_id: 'ada-1', last_seen_ip: '8.8.8.8' });
    m.clock.advance(m.store.jobDelaySeconds + 5);
    expect((await user(m, ADA)).updated_at).toBe(TEST_NOW + m.store.jobDelaySeconds + 5);

    const n = await drained();
    await post(n, { user_id: 'ada-1', last_seen_ip: '8.8.8.8' });
    // Not yet due on the clock: only the control plane runs it, with no time of its own to stamp.
    await admin(n, 'POST', '/__admin/jobs/run?app=demo');
    expect((await user(n, ADA)).updated_at).toBe(TEST_NOW);
  });

  it('runs a job whose customer is gone without failing, and counts it', async () => {
    const m = await drained();
    expect((await m.call('PUT', '/visitors', { body: { id: VISITOR, last_seen_ip: '8.8.8.8' } })).status).toBe(200);
    const converted = await m.call('POST', '/visitors/convert', { body: { visitor: { id: VISITOR }, user: { user_id: 'ada-1' }, type: 'user' } });
    expect(converted.status).toBe(200);
    const text = (await admin(m, 'GET', '/__admin/state?app=demo')).text;
    const state = JSON.parse(text);
    expect(state.customers.some((c: { id: string }) => c.id === VISITOR)).toBe(false);
    // The export leaves the gone customer's job out, so it seeds back (it named an unknown customer before).
    expect(state.jobs.some((j: { customer_id: string }) => j.customer_id === VISITOR)).toBe(false);
    // The job itself still runs (doing nothing) and is counted.
    expect((await admin(m, 'POST', '/__admin/jobs/run?app=demo')).body).toEqual({ ran: state.jobs.length + 1 });
    expect((await user(m, ADA)).location_data.city_name).toEqual(expect.any(String));
    const seeded = await m.call('POST', '/__admin/seed?mode=replace', { token: null, raw: text, headers: { 'content-type': 'application/json' } });
    expect(seeded.status, seeded.text.slice(0, 300)).toBe(200);
    expect((await admin(m, 'GET', '/__admin/state?app=demo')).text).toBe(text);
  });
});

describe('what enrichment derives', () => {
  it('a social profile named after the email\'s local part, letters, digits and _ only, at most 15', async () => {
    const m = await drained();
    const res = await post(m, { user_id: 'long-1', email: 'Very.Long-Name_With.Parts+tag@example.com' });
    await admin(m, 'POST', '/__admin/jobs/run?app=demo');
    const after = await user(m, res.body.id);
    const [profile] = after.social_profiles.social_profiles;
    expect(profile).toMatchObject({ type: 'social_profile', name: 'Twitter', username: 'verylongname_wi', url: 'https://twitter.com/verylongname_wi' });
    expect(profile.id).toMatch(/^\d+$/);
    expect(after.avatar.image_url).toMatch(/^https:\/\/static\.example\.com\/avatars\/[0-9a-f]+\.png$/);
  });

  it('a generated handle when the local part has no letter or digit', async () => {
    const m = await drained();
    const res = await post(m, { user_id: 'dots-1', email: '+.-@example.com' });
    await admin(m, 'POST', '/__admin/jobs/run?app=demo');
    const { username, url } = (await user(m, res.body.id)).social_profiles.social_profiles[0];
    expect(username).toMatch(/^user\d{1,4}$/);
    expect(url).toBe(`https://twitter.com/${username}`);
  });

  it('without an email: keeps the avatar and social profiles; without an IP: keeps the location', async () => {
    const m = await drained();
    const res = await post(m, { user_id: 'ip-only', last_seen_ip: '8.8.8.8' });
    await admin(m, 'POST', '/__admin/jobs/run?app=demo');
    const located = await user(m, res.body.id);
    expect(located.avatar.image_url).toBeNull();
    expect(located.social_profiles.social_profiles).toEqual([]);
    await post(m, { user_id: 'ip-only', email: 'ip.only@example.com' });
    await admin(m, 'POST', '/__admin/jobs/run?app=demo');
    const both = await user(m, res.body.id);
    expect(both.location_data).toEqual(located.location_data);
    expect(both.social_profiles.social_profiles).toHaveLength(1);
  });

  it('an address that has no place (a private IP) leaves location_data empty', async () => {
    const m = await drained();
    const res = await post(m, { user_id: 'private-ip', last_seen_ip: '10.0.0.1' });
    await admin(m, 'POST', '/__admin/jobs/run?app=demo');
    expect((await user(m, res.body.id)).location_data).toEqual({ type: 'location_data' });
  });
});

describe('enrichment values are stable', () => {
  it('an email gives the same avatar and profile id on every run and every version, pinned', async () => {
    const m = await drained();
    const res = await post(m, { user_id: 'pinned-1', email: 'pinned@example.com' });
    await admin(m, 'POST', '/__admin/jobs/run?app=demo');
    const after = await user(m, res.body.id);
    expect(after.avatar.image_url).toBe('https://static.example.com/avatars/fe147965.png');
    expect(after.social_profiles.social_profiles[0].id).toBe('3950343434');
  });
});

describe('queued jobs and snapshots', () => {
  it('a snapshot keeps the queued jobs: each restore brings them back and they run', async () => {
    const m = await drained();
    await post(m, { user_id: 'ada-1', last_seen_ip: '8.8.8.8' });
    const queued = await jobs(m);
    expect(queued).toMatchObject([{ customer_id: ADA, due_at: TEST_NOW + m.store.jobDelaySeconds }]);
    expect((await admin(m, 'POST', '/__admin/snapshots?app=demo', { name: 'queued' })).status).toBe(201);
    await admin(m, 'POST', '/__admin/jobs/run?app=demo');
    expect(await jobs(m)).toEqual([]);
    for (let i = 0; i < 2; i++) {
      expect((await admin(m, 'POST', '/__admin/snapshots/queued/restore?app=demo')).status).toBe(200);
      expect(await jobs(m)).toEqual(queued);
      expect((await user(m, ADA)).location_data).toEqual({ type: 'location_data' });
      await admin(m, 'POST', '/__admin/jobs/run?app=demo');
      expect((await user(m, ADA)).location_data.city_name).toEqual(expect.any(String));
    }
  });
});
