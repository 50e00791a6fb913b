import { describe, expect, it } from 'vitest';
import { errorCodes, mock, TEST_NOW, stateText as state } from '../helpers.js';

const minimal = (over: Record<string, unknown> = {}) => ({
  app: { id: 'tiny', tokens: ['tiny-token'] },
  admins: [{ id: '1', name: 'Solo', email: 'solo@example.com' }],
  companies: [{ id: 'c0000000000000000000000a', company_id: 'co-a', name: 'Co A' }],
  customers: [{ id: 'u0000000000000000000000a', user_id: 'u-a', email: 'A@Example.com', companies: ['c0000000000000000000000a'] }],
  ...over,
});

describe('GET /__admin/health', () => {
  it('answers without a token, with the apps, seed and clock', async () => {
    const res = await mock().call('GET', '/__admin/health', { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', seed: 1, apps: ['demo', 'other'], provisioned_apps: 0, clock: { now: TEST_NOW, frozen: true }, seeding: [] });
  });
});

describe('POST /__admin/seed', () => {
  it('creates a new app from a document, reachable with its token', async () => {
    const m = mock();
    const res = await m.call('POST', '/__admin/seed', { token: null, body: minimal() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      app: 'tiny',
      mode: 'replace',
      counts: { customers: 1, companies: 1, tags: 0, segments: 0, admins: 1, teams: 0, data_attributes: 0, conversations: 0 },
    });
    const user = await m.call('GET', '/users/u0000000000000000000000a', { token: 'tiny-token' });
    expect(user.status).toBe(200);
    expect(user.body.email).toBe('a@example.com');
    expect(user.body.companies.companies).toEqual([{ type: 'company', company_id: 'co-a', id: 'c0000000000000000000000a', name: 'Co A' }]);
  });

  it('replaces an app\'s whole seeded state in replace mode', async () => {
    const m = mock();
    const doc = minimal({ app: { id: 'demo', tokens: ['demo-token'] } });
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    expect((await m.call('GET', '/users/5714dd359a3fd47136000001')).status).toBe(404);
    expect((await m.call('GET', '/users/u0000000000000000000000a')).status).toBe(200);
    // The seeded document is now what a reset returns to.
    await m.call('POST', '/__admin/reset', { token: null });
    expect((await m.call('GET', '/users/u0000000000000000000000a')).status).toBe(200);
  });

  it('lays records over the current state by id in merge mode', async () => {
    const m = mock();
    const doc = minimal({ app: { id: 'demo', tokens: ['demo-token'] } });
    const res = await m.call('POST', '/__admin/seed?mode=merge', { token: null, body: doc });
    expect(res.status).toBe(200);
    expect(res.body.mode).toBe('merge');
    expect((await m.call('GET', '/users/5714dd359a3fd47136000001')).status).toBe(200);
    expect((await m.call('GET', '/users/u0000000000000000000000a')).status).toBe(200);
    expect(res.body.counts.customers).toBe(JSON.parse(await state(mock())).customers.length + 1);
  });

  it('rejects a document that breaks the schema with 400 naming the member, and changes nothing', async () => {
    const m = mock();
    const before = await state(m);
    const bad = minimal({ app: { id: 'demo', tokens: ['demo-token'] }, customers: [{ id: 'x1', email: 42 }] });
    const res = await m.call('POST', '/__admin/seed', { token: null, body: bad });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('customers[0].email');
    expect(await state(m)).toBe(before);
  });

  it('rejects a document whose references do not resolve, naming the member, and changes nothing', async () => {
    const m = mock();
    const before = await state(m);
    const bad = minimal({
      app: { id: 'demo', tokens: ['demo-token'] },
      customers: [{ id: 'u1', user_id: 'u1', companies: ['no-such-company'] }],
    });
    const res = await m.call('POST', '/__admin/seed', { token: null, body: bad });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('customers[0].companies[0]');
    expect(res.body.errors[0].message).toContain('unknown company "no-such-company"');
    expect(await state(m)).toBe(before);
  });

  it('rejects a document missing its app with parameter_not_found', async () => {
    const res = await mock().call('POST', '/__admin/seed', { token: null, body: { customers: [] } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('app');
  });

  it('refuses a token that belongs to another app', async () => {
    const m = mock();
    const res = await m.call('POST', '/__admin/seed', { token: null, body: minimal({ app: { id: 'tiny', tokens: ['demo-token'] } }) });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('app.tokens');
    expect(m.store.appIds()).toEqual(['demo', 'other']);
  });

  it('rejects an unknown mode', async () => {
    const res = await mock().call('POST', '/__admin/seed?mode=upsert', { token: null, body: minimal() });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('mode');
  });
});

describe('GET /__admin/state', () => {
  it('exports an app in the fixture format, and seeding the export gives the same state back', async () => {
    const m = mock();
    const exported = await state(m);
    const doc = JSON.parse(exported);
    expect(doc.app).toEqual({ id: 'demo', name: 'Demo app', tokens: ['demo-token'], rate_limit_per_minute: 500, api_version: '1.1', token_owners: { 'demo-token': '814860' } });
    expect(doc.customers.length).toBeGreaterThan(100);
    const fresh = mock();
    expect((await fresh.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    expect(await state(fresh)).toBe(exported);
  });

  it('takes the app from an app token instead of ?app=', async () => {
    const m = mock();
    const res = await m.call('GET', '/__admin/state', { token: 'other-token' });
    expect(res.status).toBe(200);
    expect(res.body.app.id).toBe('other');
  });

  it('answers 400 parameter_not_found when no app is named', async () => {
    const res = await mock().call('GET', '/__admin/state', { token: null });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('app');
  });

  it('answers 404 not_found for an unknown app and 401 for an unknown token', async () => {
    const m = mock();
    const missing = await m.call('GET', '/__admin/state?app=nope', { token: null });
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].field).toBe('app');
    const bad = await m.call('GET', '/__admin/state', { token: 'nope' });
    expect(bad.status).toBe(401);
    expect(errorCodes(bad)).toEqual(['unauthorized']);
  });
});

describe('POST /__admin/reset', () => {
  const write = (m: ReturnType<typeof mock>, token = 'demo-token', name = 'written-after-seed') =>
    m.call('POST', '/tags', { token, body: { name } });

  it('restores every app exactly to its seeded state', async () => {
    const m = mock();
    const demo = await state(m);
    const other = await state(m, 'other');
    await write(m);
    await m.call('POST', '/users', { body: { user_id: 'after-seed', email: 'after@example.com' } });
    await write(m, 'other-token', 'also-written');
    expect(await state(m)).not.toBe(demo);
    const res = await m.call('POST', '/__admin/reset', { token: null });
    expect(res.body).toEqual({ reset: ['demo', 'other'] });
    expect(await state(m)).toBe(demo);
    expect(await state(m, 'other')).toBe(other);
  });

  it('resets only the app named by ?app= or by its token', async () => {
    const m = mock();
    const demo = await state(m);
    await write(m);
    await write(m, 'other-token', 'also-written');
    expect((await m.call('POST', '/__admin/reset?app=demo', { token: null })).body).toEqual({ reset: ['demo'] });
    expect(await state(m)).toBe(demo);
    expect(await state(m, 'other')).toContain('also-written');
    expect((await m.call('POST', '/__admin/reset', { token: 'other-token' })).body).toEqual({ reset: ['other'] });
    expect(await state(m, 'other')).not.toContain('also-written');
  });

  it('clears the app\'s rate-limit window', async () => {
    const m = mock();
    for (let i = 0; i < 84; i++) await m.call('GET', '/admins');
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    expect((await m.call('GET', '/admins')).status).toBe(200);
  });

  it('answers 404 for an unknown app', async () => {
    const res = await mock().call('POST', '/__admin/reset?app=nope', { token: null });
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['not_found']);
  });
});

describe('/__admin/clock', () => {
  it('reads the clock', async () => {
    expect((await mock().call('GET', '/__admin/clock', { token: null })).body).toEqual({ now: TEST_NOW, frozen: true });
  });

  it('sets and advances the clock that drives rate-limit windows', async () => {
    const m = mock();
    expect((await m.call('POST', '/__admin/clock', { token: null, body: { now: TEST_NOW + 95 } })).body).toEqual({ now: TEST_NOW + 95, frozen: true });
    expect((await m.call('POST', '/__admin/clock', { token: null, body: { advance: 10 } })).body).toEqual({ now: TEST_NOW + 105, frozen: true });
    const res = await m.call('GET', '/admins');
    expect(res.headers.get('x-ratelimit-reset')).toBe(String(TEST_NOW + 110));
  });

  it('unfreezes and freezes the clock', async () => {
    const m = mock();
    expect((await m.call('POST', '/__admin/clock', { token: null, body: { frozen: false } })).body.frozen).toBe(false);
    expect((await m.call('POST', '/__admin/clock', { token: null, body: { frozen: true } })).body.frozen).toBe(true);
  });

  it.each([
    [{ now: -1 }, 'now'],
    [{ now: 'soon' }, 'now'],
    [{ now: 1.5 }, 'now'],
    [{ advance: -5 }, 'advance'],
    [{ now: 10, advance: 5 }, 'advance'],
    [{ tick: 1 }, 'tick'],
  ])('rejects %j with 400 naming %s, leaving the clock alone', async (body, field) => {
    const m = mock();
    const res = await m.call('POST', '/__admin/clock', { token: null, body });
    expect(res.status).toBe(400);
    expect(errorCodes(res)[0]).toBe('parameter_invalid');
    expect(res.body.errors[0].field).toBe(field);
    expect(m.clock.now()).toBe(TEST_NOW);
  });

  it('answers 400 parameter_not_found for an empty body', async () => {
    const res = await mock().call('POST', '/__admin/clock', { token: null, body: {} });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_not_found']);
  });
});

describe('export then seed, after writes at every field limit', () => {
  const max = (n: number, c = 'x') => c.repeat(n);

  it('seeds back to the same state whatever the API accepted', async () => {
    const m = mock();
    const long = { name: max(255), phone: max(255), last_seen_ip: max(64), last_seen_user_agent: max(1024) };
    const writes: [string, string, object][] = [
      ['POST', '/users', { user_id: max(255, 'u'), email: `${max(243)}@example.com`, ...long, last_request_at: 253_402_300_799, signed_up_at: 0 }],
      ['POST', '/contacts', { ...long, email: 'lead-at-limit@example.com' }],
      ['POST', '/companies', { company_id: max(255, 'c'), name: max(255), plan: max(255), size: 0, website: max(2048), industry: max(255), remote_created_at: 253_402_300_799 }],
      ['POST', '/tags', { name: max(255, 't') }],
      ['POST', '/conversations/5714dd359a3fd47136000501/reply', { type: 'admin', admin_id: '814860', message_type: 'note', body: max(65_535), attachment_urls: [`https://files.example.com/${max(2000)}`] }],
    ];
    for (const [method, path, body] of writes) expect((await m.call(method, path, { body })).status).toBe(200);
    const exported = await state(m);
    const fresh = mock();
    const seeded = await fresh.call('POST', '/__admin/seed', { token: null, body: JSON.parse(exported) });
    expect(seeded.status).toBe(200);
    expect(await state(fresh)).toBe(exported);
  });

  it.each([
    ['/users', { user_id: 'x', name: max(256) }, 'name'],
    ['/users', { user_id: 'x', last_request_at: 253_402_300_800 }, 'last_request_at'],
    ['/companies', { company_id: 'c', size: -5 }, 'size'],
    ['/companies', { company_id: max(256) }, 'company_id'],
    ['/tags', { name: max(256) }, 'name'],
  ])('refuses POST %s past a field limit (%j) naming %s', async (path, body, field) => {
    const m = mock();
    const before = await state(m);
    const res = await m.call('POST', path, { body });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect(res.body.errors[0].field).toBe(field);
    expect(await state(m)).toBe(before);
  });
});
