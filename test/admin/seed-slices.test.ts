// A big seed (POST /__admin/seed) is generated and indexed in slices: other apps are answered
// before it completes (proven by order, not timing), GET /__admin/health says where it stands,
// requests to the app being seeded wait and then see the new state, a second seed of that app
// waits for the first, and what the seed makes is byte for byte what the one-turn seed makes,
// whatever other apps' requests draw from the store's Faker meanwhile.

import { describe, expect, it } from 'vitest';
import { mock, stateText, type TestMock } from '../helpers.js';
import { waitFor } from '../real.js';

const BIG = { app: { id: 'big', tokens: ['big-token'] }, generate: { users: 3000, leads: 500, companies: 100, conversations: 200 } };
const SMALL = { app: { id: 'big', tokens: ['big-token'] }, generate: { users: 2 } };

interface Seeding {
  app: string;
  phase: string;
  done: number;
  total: number;
}

const seedingNow = async (m: TestMock): Promise<Seeding[]> => (await m.call('GET', '/__admin/health', { token: null })).body.seeding as Seeding[];

describe('a big seed runs in slices', () => {
  it('answers another app, and says where the seed stands, before the seed completes', async () => {
    const m = mock();
    const order: string[] = [];
    const seeding = m.call('POST', '/__admin/seed', { token: null, body: BIG }).then((res) => order.push(`seed ${res.status}`));
    const progress = await waitFor(async () => {
      const now = await seedingNow(m);
      return now.length > 0 ? now : order.length > 0 ? [] : undefined;
    });
    expect(order).toEqual([]);
    expect(progress).toHaveLength(1);
    expect(progress[0]?.app).toBe('big');
    expect(progress[0]?.phase).toMatch(/^(generating|checking|indexing|counting) /);
    expect(progress[0]?.done).toBeGreaterThan(0);
    expect(progress[0]?.done).toBeLessThanOrEqual(progress[0]?.total ?? 0);
    await m.call('GET', '/admins').then((res) => order.push(`other ${res.status}`));
    const console = await m.call('GET', '/__admin/apps', { token: null });
    expect(console.body.seeding.map((s: Seeding) => s.app)).toEqual(['big']);
    await seeding;
    expect(order).toEqual(['other 200', 'seed 200']);
    expect(await seedingNow(m)).toEqual([]);
    expect((await m.call('GET', '/__admin/apps', { token: null })).body.seeding).toEqual([]);
  });

  it('holds requests to the app being seeded until the new state is in place', async () => {
    const m = mock();
    expect((await m.call('POST', '/__admin/seed', { token: null, body: SMALL })).status).toBe(200);
    const seeding = m.call('POST', '/__admin/seed', { token: null, body: BIG });
    await waitFor(async () => ((await seedingNow(m)).length > 0 ? true : undefined));
    // Sent while the seed runs: through the app's token and through the control plane.
    const users = m.call('GET', '/users?per_page=1', { token: 'big-token' });
    const state = m.call('GET', '/__admin/state?app=big', { token: null });
    const counted = m.call('GET', '/users?per_page=1', { token: 'demo-token' });
    expect((await counted).status).toBe(200);
    expect((await seeding).status).toBe(200);
    const listed = await users;
    expect(listed.status).toBe(200);
    expect(listed.body.total_count).toBe(3000);
    // A control-plane read does not wait: it shows the app as it stood.
    expect(JSON.parse((await state).text).customers).toHaveLength(2);
  });

  it('runs a second seed of the same app after the first: the later one stands', async () => {
    const m = mock();
    const first = m.call('POST', '/__admin/seed', { token: null, body: BIG });
    const second = m.call('POST', '/__admin/seed', { token: null, body: SMALL });
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(200);
    expect(a.body.counts.customers).toBe(3500);
    expect(b.status).toBe(200);
    expect(b.body.counts.customers).toBe(2);
    expect((await m.call('GET', '/users?per_page=1', { token: 'big-token' })).body.total_count).toBe(2);
  });

  it('makes the same app as a seed in one turn, while other apps draw pseudonyms from the store meanwhile', async () => {
    const quiet = mock();
    quiet.store.seedApp(structuredClone(BIG) as never, 'replace');
    const busy = mock();
    const seeding = busy.call('POST', '/__admin/seed', { token: null, body: BIG });
    await waitFor(async () => ((await seedingNow(busy)).length > 0 ? true : undefined));
    // Each new lead draws a pseudonym from the store's Faker, reseeding it, while the seed runs.
    let leads = 0;
    for (;;) {
      const running = (await seedingNow(busy)).length > 0;
      if (!running) break;
      expect((await busy.call('POST', '/contacts', { body: {} })).status).toBe(200);
      leads++;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await seeding).status).toBe(200);
    expect(leads).toBeGreaterThan(0);
    expect(await stateText(busy, 'big')).toBe(await stateText(quiet, 'big'));
  });

  it('answers a control-plane read at once, with the app as it stands, whatever token it carries', async () => {
    const m = mock();
    expect((await m.call('POST', '/__admin/seed', { token: null, body: SMALL })).status).toBe(200);
    const order: string[] = [];
    const seeding = m.call('POST', '/__admin/seed', { token: null, body: BIG }).then(() => order.push('seed'));
    await waitFor(async () => ((await seedingNow(m)).length > 0 ? true : undefined));
    const health = await m.call('GET', '/__admin/health', { token: 'big-token' });
    expect(health.body.seeding.map((s: Seeding) => s.app)).toEqual(['big']);
    const state = await m.call('GET', '/__admin/state?app=big', { token: null });
    expect(JSON.parse(state.text).customers).toHaveLength(2);
    order.push('reads');
    await seeding;
    expect(order).toEqual(['reads', 'seed']);
  });

  it('lands a control-plane write after every seed of its app in progress, the one queued behind too', async () => {
    const m = mock();
    const first = m.call('POST', '/__admin/seed', { token: null, body: BIG });
    await waitFor(async () => ((await seedingNow(m)).length > 0 ? true : undefined));
    const second = m.call('POST', '/__admin/seed', { token: null, body: BIG });
    const fault = await m.call('POST', '/__admin/faults?app=big', { token: null, body: { rate_limit: true } });
    expect(fault.status).toBe(201);
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    // A seed drops the faults of the app it replaces: this one came after both.
    expect((await m.call('GET', '/__admin/faults?app=big', { token: null })).body.faults).toHaveLength(1);
    expect((await m.call('GET', '/admins', { token: 'big-token' })).status).toBe(429);
  });

  it('holds the tokens of a new app being seeded until it exists, test_ tokens too', async () => {
    const m = mock();
    const doc = { ...BIG, app: { id: 'newapp', tokens: ['new-token', 'test_listed'] } };
    const seeding = m.call('POST', '/__admin/seed', { token: null, body: doc });
    await waitFor(async () => ((await seedingNow(m)).length > 0 ? true : undefined));
    const plain = m.call('GET', '/users?per_page=1', { token: 'new-token' });
    const listed = m.call('GET', '/users?per_page=1', { token: 'test_listed' });
    const fault = m.call('POST', '/__admin/faults?app=newapp', { token: null, body: { rate_limit: true } });
    expect((await seeding).status).toBe(200);
    expect((await fault).status).toBe(201);
    for (const read of [await plain, await listed]) {
      expect(read.status).toBe(200);
      expect(read.body.total_count).toBe(3000);
    }
    // The fault named the new app, so it waited for it rather than answering 404.
    expect((await m.call('GET', '/users?per_page=1', { token: 'test_listed' })).status).toBe(429);
    expect((await m.call('GET', '/__admin/apps?app=newapp', { token: null })).body.apps[0].provisioned).toBe(false);
  });

  it('keeps a test app being seeded from eviction, so ids=fresh continues its streams', async () => {
    const run = async (others: number) => {
      const m = mock({ maxTestApps: 2 });
      expect((await m.call('POST', '/contacts', { token: 'test_seeded', body: {} })).status).toBe(200);
      const seeding = m.call('POST', '/__admin/seed?ids=fresh', { token: null, body: { ...BIG, app: { id: 'test_seeded', tokens: ['test_seeded'] } } });
      await waitFor(async () => ((await seedingNow(m)).length > 0 ? true : undefined));
      // Provisioning past --max-test-apps evicts the least recently used test app.
      for (let i = 0; i < others; i++) expect((await m.call('GET', '/admins', { token: `test_other${i}` })).status).toBe(200);
      expect((await seeding).status).toBe(200);
      const lead = await m.call('POST', '/contacts', { token: 'test_seeded', body: {} });
      return { status: lead.status, id: lead.body.id, user_id: lead.body.user_id, pseudonym: lead.body.pseudonym, request: lead.headers.get('x-request-id') };
    };
    const quiet = await run(0);
    expect(quiet.status).toBe(200);
    expect(await run(3)).toEqual(quiet);
  });

  it('refuses a bad document after slicing through it, changing nothing', async () => {
    const m = mock();
    expect((await m.call('POST', '/__admin/seed', { token: null, body: SMALL })).status).toBe(200);
    const before = await stateText(m, 'big');
    // The demo app's token: found taken only once the document is expanded and indexed.
    const res = await m.call('POST', '/__admin/seed', { token: null, body: { ...BIG, app: { id: 'big', tokens: ['demo-token'] } } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('parameter_invalid');
    expect(res.body.errors[0].message).toContain('already belongs to app "demo"');
    expect(await stateText(m, 'big')).toBe(before);
    expect(await seedingNow(m)).toEqual([]);
    expect((await m.call('GET', '/users?per_page=1', { token: 'big-token' })).body.total_count).toBe(2);
  });
});
