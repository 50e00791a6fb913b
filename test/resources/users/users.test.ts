import { describe, expect, it } from 'vitest';
import { customerSchema, userListSchema } from '../../../src/resources/customers/shapes.js';
import type { Schema } from '../../../src/schemas/json-schema.js';
import { validate } from '../../../src/schemas/validate.js';
import { errorCodes, mock, TEST_NOW, type CallResult, type TestMock, expectRejected } from '../../helpers.js';
import { ACME, ADA, GRACE, LEAD, LINUS, SHARED_A, VISITOR } from '../../fixture-ids.js';


const shaped = (schema: Schema, body: unknown) => expect(validate(schema, body)).toEqual([]);
const post = (m: TestMock, body: unknown) => m.call('POST', '/users', { body });
const user = async (m: TestMock, id: string) => (await m.call('GET', `/users/${id}`)).body;
const userCount = async (m: TestMock) => (await m.call('GET', '/users?per_page=1')).body.total_count as number;

/** Sends the request and checks it is rejected with `codes` and that nothing changed. */
const rejects = (m: TestMock, body: unknown, status: number, codes: string[], raw?: string) =>
  expectRejected(m, 'POST', '/users', raw === undefined ? { body } : { raw, headers: { 'content-type': 'application/json' } }, status, codes);

describe('POST /users: creating', () => {
  it('creates a user with the exact wire shape, lower-casing the email', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'new-1', email: 'New.Person@Example.COM', name: 'New Person', phone: '+1 555', signed_up_at: 1_700_000_000 });
    expect(res.status).toBe(200);
    shaped(customerSchema, res.body);
    expect(res.body).toMatchObject({
      type: 'user',
      user_id: 'new-1',
      email: 'new.person@example.com',
      name: 'New Person',
      phone: '+1 555',
      anonymous: false,
      pseudonym: null,
      app_id: 'demo',
      signed_up_at: 1_700_000_000,
      created_at: TEST_NOW,
      updated_at: TEST_NOW,
      session_count: 0,
      avatar: { type: 'avatar', image_url: null },
      location_data: { type: 'location_data' },
      companies: { type: 'company.list', companies: [] },
      tags: { type: 'tag.list', tags: [] },
      segments: { type: 'segment.list', segments: [] },
      social_profiles: { type: 'social_profile.list', social_profiles: [] },
      custom_attributes: {},
    });
    expect(res.body.id).toMatch(/^[0-9a-f]{24}$/);
    expect(await user(m, res.body.id)).toEqual(res.body);
  });

  it('creates a user from a user_id alone (case 5)', async () => {
    const m = mock();
    const before = await userCount(m);
    const res = await post(m, { user_id: 'only-id' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: 'only-id', email: null });
    expect(await userCount(m)).toBe(before + 1);
  });

  it('creates a user from an email alone that matches nobody (case 5)', async () => {
    const m = mock();
    const res = await post(m, { email: 'nobody@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: null, email: 'nobody@example.com' });
  });

  it('answers 400 parameter_not_found when neither id, user_id nor email is sent, changing nothing', async () => {
    const m = mock();
    const res = await rejects(m, { name: 'No identity' }, 400, ['parameter_not_found']);
    expect(res.body.errors[0].message).toBe('User email, user_id or anonymous_id must be supplied');
  });

  it('treats empty or null identifiers as not supplied', async () => {
    const m = mock();
    await rejects(m, { user_id: '', email: null }, 400, ['parameter_not_found']);
  });
});

describe('POST /users: the lookup order of spec 4.5', () => {
  it('case 1: an id match updates user_id and email and keeps the id', async () => {
    const m = mock();
    const res = await post(m, { id: ADA, user_id: 'ada-renamed', email: 'ADA2@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ADA, user_id: 'ada-renamed', email: 'ada2@example.com', name: 'Ada Lovelace' });
    expect((await m.call('GET', '/users?user_id=ada-1')).status).toBe(404);
    expect((await m.call('GET', '/users?user_id=ada-renamed')).body.id).toBe(ADA);
    expect((await m.call('GET', '/users?email=ada@example.com')).body.total_count).toBe(0);
  });

  it('case 1: an id wins over a user_id and email that name another user', async () => {
    const m = mock();
    const res = await post(m, { id: GRACE, email: 'ada@example.com', name: 'Still Grace' });
    expect(res.body).toMatchObject({ id: GRACE, user_id: 'grace-2', email: 'ada@example.com', name: 'Still Grace' });
    expect((await user(m, ADA)).email).toBe('ada@example.com');
  });

  it('case 1: an id that names no user is 404 not_found, changing nothing', async () => {
    const m = mock();
    await rejects(m, { id: '0000000000000000000000ff', email: 'x@example.com' }, 404, ['not_found']);
  });

  it('case 1: the id of a lead is not a user id for POST /users (404)', async () => {
    const m = mock();
    await rejects(m, { id: LEAD, name: 'x' }, 404, ['not_found']);
  });

  it('case 1: moving to a user_id another customer holds is 400 unique_user_constraint', async () => {
    const m = mock();
    await rejects(m, { id: ADA, user_id: 'grace-2' }, 400, ['unique_user_constraint']);
  });

  it('case 2: a user_id match updates the email and keeps the id', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'grace-2', email: 'Grace.New@Example.com' });
    expect(res.body).toMatchObject({ id: GRACE, user_id: 'grace-2', email: 'grace.new@example.com' });
  });

  it('case 3: an email match without a user_id gets the sent user_id and keeps its id', async () => {
    const m = mock();
    const before = await userCount(m);
    const res = await post(m, { email: 'LINUS@example.com', user_id: 'linus-9' });
    expect(res.body).toMatchObject({ id: LINUS, user_id: 'linus-9', email: 'linus@example.com' });
    expect(await userCount(m)).toBe(before);
  });

  it('case 4: an email match whose user has another user_id creates a new record with a new id', async () => {
    const m = mock();
    const before = await userCount(m);
    const res = await post(m, { email: 'ada@example.com', user_id: 'ada-second' });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe(ADA);
    expect(res.body).toMatchObject({ user_id: 'ada-second', email: 'ada@example.com', name: null });
    expect(await userCount(m)).toBe(before + 1);
    expect((await user(m, ADA)).user_id).toBe('ada-1');
    expect((await m.call('GET', '/users?email=ada@example.com')).body.total_count).toBe(2);
  });

  it('case 4: a user_id for an email shared by several users with user_ids creates a third user', async () => {
    const m = mock();
    const res = await post(m, { email: 'shared@example.com', user_id: 'shared-c' });
    expect(res.status).toBe(200);
    expect((await m.call('GET', '/users?email=shared@example.com')).body.total_count).toBe(3);
  });

  it('matches the email case-insensitively when it alone identifies one user', async () => {
    const m = mock();
    const res = await post(m, { email: 'ADA@EXAMPLE.COM', name: 'Countess' });
    expect(res.body).toMatchObject({ id: ADA, user_id: 'ada-1', name: 'Countess' });
  });

  it('answers 409 conflict when an email alone matches several users, changing nothing', async () => {
    const m = mock();
    const res = await rejects(m, { email: 'Shared@example.com', name: 'Which one?' }, 409, ['conflict']);
    expect(res.body.errors[0].message).toBe('Multiple existing users match this email address shared@example.com - must be more specific using user_id');
  });

  it('narrows a shared email with user_id (case 2 wins over the email)', async () => {
    const m = mock();
    const res = await post(m, { email: 'shared@example.com', user_id: 'shared-a', name: 'A it is' });
    expect(res.body).toMatchObject({ id: SHARED_A, name: 'A it is' });
  });

  it('answers 400 unique_user_constraint for a user_id that a lead holds', async () => {
    const m = mock();
    await rejects(m, { user_id: '8a88a590-e1c3-41e2-a502-e0649dbf721c', email: 'z@example.com' }, 400, ['unique_user_constraint']);
  });
});

describe('POST /users: attributes', () => {
  it('sets last_request_at to the server time with update_last_request_at', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'alan-3', update_last_request_at: true });
    expect(res.body.last_request_at).toBe(TEST_NOW);
  });

  it('stores an explicit last_request_at', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'alan-3', last_request_at: 1_750_000_000 });
    expect(res.body.last_request_at).toBe(1_750_000_000);
  });

  it('counts a session with new_session and not without it', async () => {
    const m = mock();
    expect((await post(m, { user_id: 'grace-2', new_session: true })).body.session_count).toBe(18);
    expect((await post(m, { user_id: 'grace-2', name: 'G' })).body.session_count).toBe(18);
    expect((await post(m, { user_id: 'grace-2', new_session: false })).body.session_count).toBe(18);
  });

  it('stores unsubscribed_from_emails and shows last_seen_user_agent as user_agent_data', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'grace-2', unsubscribed_from_emails: true, last_seen_user_agent: 'curl/8.0' });
    expect(res.body).toMatchObject({ unsubscribed_from_emails: true, user_agent_data: 'curl/8.0' });
  });

  it('ignores server-computed members instead of writing them', async () => {
    const m = mock();
    const res = await post(m, {
      user_id: 'grace-2',
      location_data: { type: 'location_data', city_name: 'Atlantis' },
      social_profiles: { type: 'social_profile.list', social_profiles: [{ name: 'x' }] },
      avatar: { type: 'avatar', image_url: 'https://evil.example/a.png' },
      segments: { type: 'segment.list', segments: [] },
      created_at: 1,
      session_count: 999,
    });
    expect(res.status).toBe(200);
    expect(res.body.location_data).toEqual({ type: 'location_data' });
    expect(res.body.avatar.image_url).toBeNull();
    expect(res.body.social_profiles.social_profiles).toEqual([]);
    expect(res.body.segments.segments).toHaveLength(1);
    expect(res.body.session_count).toBe(17);
    expect(res.body.created_at).toBe(1736985600);
  });

  it('answers 400 parameter_invalid naming the member for a wrongly typed value, changing nothing', async () => {
    const m = mock();
    const res = await rejects(m, { user_id: 'grace-2', signed_up_at: 'yesterday' }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('signed_up_at');
  });

  it('answers 400 bad_request for malformed JSON', async () => {
    const m = mock();
    await rejects(m, undefined, 400, ['bad_request'], '{"user_id": ');
  });
});

describe('POST /users: companies', () => {
  it('creates a new company, attaches the user and keeps extra members on the company', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'co-1', companies: [{ company_id: 'newco', name: 'NewCo', monthly_spend: 42.5, plan: 'pro', size: 7 }] });
    expect(res.status).toBe(200);
    const [item] = res.body.companies.companies;
    expect(item).toMatchObject({ type: 'company', company_id: 'newco', name: 'NewCo' });
    const company = (await m.call('GET', `/companies/${item.id}`)).body;
    // monthly_spend is a whole number: the fraction is cut, as the real API cut it, with a warning.
    expect(company).toMatchObject({ company_id: 'newco', name: 'NewCo', monthly_spend: 42, plan: { type: 'plan', name: 'pro' }, size: 7, user_count: 1 });
    expect(res.headers.get('x-mock-warning')).toBe('coerced_value "companies[0].monthly_spend must be of type integer: 42.5 was read as 42."');
  });

  it('updates an existing company by company_id and does not attach it twice', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'ada-1', companies: [{ company_id: 'acme', monthly_spend: 9999 }] });
    expect(res.body.companies.companies.map((c: { id: string }) => c.id)).toEqual([ACME]);
    const acme = (await m.call('GET', `/companies/${ACME}`)).body;
    expect(acme).toMatchObject({ name: 'Acme Corp', monthly_spend: 9999, updated_at: TEST_NOW });
  });

  it('detaches the user from a company sent with remove: true', async () => {
    const m = mock();
    const before = (await m.call('GET', `/companies/${ACME}`)).body.user_count;
    const res = await post(m, { user_id: 'ada-1', companies: [{ company_id: 'acme', remove: true }] });
    expect(res.body.companies.companies).toEqual([]);
    expect((await m.call('GET', `/companies/${ACME}`)).body.user_count).toBe(before - 1);
  });

  it('answers 400 parameter_not_found naming companies[0].company_id when it is missing', async () => {
    const m = mock();
    const res = await rejects(m, { user_id: 'ada-1', companies: [{ name: 'No id' }] }, 400, ['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('companies[0].company_id');
  });

  it('rejects a bad company custom attribute without creating the company or the user', async () => {
    const m = mock();
    const res = await rejects(m, { user_id: 'fresh', companies: [{ company_id: 'c-x', custom_attributes: { 'bad.name': 1 } }] }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('companies[0].custom_attributes.bad.name');
    expect((await m.call('GET', '/companies?company_id=c-x')).status).toBe(404);
  });
});

describe('POST /users: custom attributes', () => {
  it('merges custom attributes into the existing ones and registers new names', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'grace-2', custom_attributes: { seats: 6, team: 'core', paid_at: 1_700_000_000, ratio: 0.5, vip: true, gone: null } });
    expect(res.body.custom_attributes).toEqual({ plan_tier: 'pro', seats: 6, team: 'core', paid_at: 1_700_000_000, ratio: 0.5, vip: true, gone: null });
  });

  const name = (n: number) => 'n'.repeat(n);
  const cases: [string, Record<string, unknown>, string][] = [
    ['a name with "."', { 'a.b': 1 }, 'custom_attributes.a.b'],
    ['a name with "$"', { $set: 1 }, 'custom_attributes.$set'],
    ['a 191-character name', { [name(191)]: 1 }, `custom_attributes.${name(191)}`],
    ['a 256-character string', { long: 's'.repeat(256) }, 'custom_attributes.long'],
    ['an object value', { obj: { a: 1 } }, 'custom_attributes.obj'],
    ['an array value', { list: [1, 2] }, 'custom_attributes.list'],
    ['a non-integer date', { paid_at: 1.5 }, 'custom_attributes.paid_at'],
    ['a text date', { paid_at: '2024-01-01' }, 'custom_attributes.paid_at'],
  ];
  for (const [what, attributes, field] of cases) {
    it(`rejects ${what} with 400 parameter_invalid naming ${field.slice(0, 40)}, changing nothing`, async () => {
      const m = mock();
      const res = await rejects(m, { user_id: 'grace-2', name: 'Changed', custom_attributes: attributes }, 400, ['parameter_invalid']);
      expect(res.body.errors[0].field).toBe(field);
    });
  }

  it('accepts a 190-character name and a 255-character string', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'grace-2', custom_attributes: { [name(190)]: 's'.repeat(255) } });
    expect(res.status).toBe(200);
    expect(res.body.custom_attributes[name(190)]).toHaveLength(255);
  });

  it('counts characters, not UTF-16 units, so 255 emoji fit', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'grace-2', custom_attributes: { mood: '😀'.repeat(255) } });
    expect(res.status).toBe(200);
  });

  it('accepts 250 fields and rejects a 251st, counting the fields already stored', async () => {
    const m = mock();
    const fields = (from: number, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${from + i}`, i]));
    expect((await post(m, { user_id: 'fields', custom_attributes: fields(0, 250) })).status).toBe(200);
    const res = await rejects(m, { user_id: 'fields', custom_attributes: fields(250, 1) }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('custom_attributes');
    expect((await post(m, { user_id: 'fields', custom_attributes: { f0: 'overwrite' } })).status).toBe(200);
  });

  it('rejects 251 fields sent at once', async () => {
    const m = mock();
    const attributes = Object.fromEntries(Array.from({ length: 251 }, (_, i) => [`f${i}`, i]));
    await rejects(m, { user_id: 'fresh', custom_attributes: attributes }, 400, ['parameter_invalid']);
  });

  it('reports every bad attribute of one request', async () => {
    const m = mock();
    const res = await rejects(m, { user_id: 'grace-2', custom_attributes: { 'a.b': 1, c: [], d_at: 'x' } }, 400, ['parameter_invalid', 'parameter_invalid', 'parameter_invalid']);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['custom_attributes.a.b', 'custom_attributes.c', 'custom_attributes.d_at']);
  });

  it('stores __proto__, constructor and prototype as plain attributes without polluting prototypes', async () => {
    const m = mock();
    const raw = '{"user_id":"proto","custom_attributes":{"__proto__":"p","constructor":"c","prototype":"t","polluted":"no"}}';
    const res = await m.call('POST', '/users', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).custom_attributes).toEqual(JSON.parse('{"__proto__":"p","constructor":"c","prototype":"t","polluted":"no"}'));
    expect(Object.hasOwn(res.body.custom_attributes, '__proto__')).toBe(true);
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const again = await m.call('GET', `/users/${res.body.id}`);
    expect(Object.hasOwn(again.body.custom_attributes, '__proto__')).toBe(true);
    const attributes = (await m.call('GET', '/data_attributes/customer')).body.data_attributes.map((a: { name: string }) => a.name);
    expect(attributes).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'prototype']));
  });
});

describe('POST /users: asynchronous fields', () => {
  it('fills location_data, avatar and social profiles only after the job delay', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'async-1', email: 'async.person@example.com', last_seen_ip: '8.8.8.8' });
    expect(res.body.location_data).toEqual({ type: 'location_data' });
    expect(res.body.avatar.image_url).toBeNull();
    expect(res.body.social_profiles.social_profiles).toEqual([]);
    expect((await user(m, res.body.id)).location_data).toEqual({ type: 'location_data' });

    m.clock.advance(m.store.jobDelaySeconds);
    const later = await user(m, res.body.id);
    shaped(customerSchema, later);
    expect(later.location_data.city_name).toEqual(expect.any(String));
    expect(later.location_data.country_code).toMatch(/^[A-Z]{2}$/);
    expect(later.avatar.image_url).toMatch(/^https:\/\//);
    expect(later.social_profiles.social_profiles[0]).toMatchObject({ type: 'social_profile', username: 'asyncperson' });
  });

  it('fills them at once through POST /__admin/jobs/run', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'async-2', last_seen_ip: '1.1.1.1' });
    expect((await m.call('POST', '/__admin/jobs/run?app=demo')).body.ran).toBeGreaterThanOrEqual(1);
    expect((await user(m, res.body.id)).location_data.city_name).toEqual(expect.any(String));
  });

  it('gives the same place for the same IP', async () => {
    const m = mock();
    const a = await post(m, { user_id: 'ip-a', last_seen_ip: '9.9.9.9' });
    const b = await post(m, { user_id: 'ip-b', last_seen_ip: '9.9.9.9' });
    await m.call('POST', '/__admin/jobs/run?app=demo');
    expect((await user(m, a.body.id)).location_data).toEqual((await user(m, b.body.id)).location_data);
  });
});

describe('GET /users', () => {
  it('lists users only, oldest first, with total_count and pages', async () => {
    const m = mock();
    const res = await m.call('GET', '/users');
    expect(res.status).toBe(200);
    shaped(userListSchema, res.body);
    expect(res.body.users).toHaveLength(50);
    expect(res.body.users.every((u: { type: string }) => u.type === 'user')).toBe(true);
    const created = res.body.users.map((u: { created_at: number }) => u.created_at);
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(res.body.pages).toMatchObject({ type: 'pages', page: 1, per_page: 50, total_pages: Math.ceil(res.body.total_count / 50) });
    expect(res.body.pages.next).toBe('http://localhost/users?page=2');
  });

  it('pages through every user exactly once by following next, which is absent on the last page', async () => {
    const m = mock();
    const seen: string[] = [];
    let url: string | undefined = '/users?per_page=60';
    let total = 0;
    while (url) {
      const res: CallResult = await m.call('GET', url);
      expect(res.status).toBe(200);
      total = res.body.total_count;
      seen.push(...res.body.users.map((u: { id: string }) => u.id));
      url = res.body.pages.next;
      if (url) expect(url).toContain('per_page=60');
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('finds a user by user_id', async () => {
    const m = mock();
    const res = await m.call('GET', '/users?user_id=ada-1');
    expect(res.body).toMatchObject({ type: 'user', id: ADA, user_id: 'ada-1' });
    for (const version of ['1.0', '1.1', '1.2', '1.3', '1.4']) {
      expect((await m.call('GET', '/users?user_id=ada-1', { headers: { 'intercom-version': version } })).body.id).toBe(ADA);
      const none = await m.call('GET', '/users?user_id=nobody', { headers: { 'intercom-version': version } });
      expect(none.status).toBe(404);
      expect(none.body.errors).toEqual([{ code: 'not_found', message: 'User Not Found' }]);
    }
  });

  it('finds every user with an email, case-insensitively', async () => {
    const m = mock();
    const res = await m.call('GET', '/users?email=SHARED@example.com');
    expect(res.body.users.map((u: { user_id: string }) => u.user_id)).toEqual(['shared-a', 'shared-b']);
  });

  it('answers total_count 0 and no users when nothing matches', async () => {
    const m = mock();
    const res = await m.call('GET', '/users?email=nobody@example.com');
    expect(res.status).toBe(200);
    shaped(userListSchema, res.body);
    expect(res.body).toMatchObject({ type: 'user.list', total_count: 0, users: [] });
  });

  it('does not list a lead by its user_id', async () => {
    const m = mock();
    expect((await m.call('GET', '/users?user_id=8a88a590-e1c3-41e2-a502-e0649dbf721c')).status).toBe(404);
  });

  for (const query of ['per_page=61', 'per_page=0', 'page=0', 'page=abc', 'per_page=1.5']) {
    it(`answers 400 parameter_invalid for ${query}`, async () => {
      const m = mock();
      const res = await m.call('GET', `/users?${query}`);
      expect(res.status).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_invalid']);
    });
  }

  it('answers an empty page past the last one', async () => {
    const m = mock();
    const res = await m.call('GET', '/users?page=99');
    expect(res.status).toBe(200);
    expect(res.body.users).toEqual([]);
    expect(res.body.pages.next).toBeNull();
  });
});

describe('GET /users/{id}', () => {
  it('answers 404 not_found for a visitor id', async () => {
    const m = mock();
    const res = await m.call('GET', `/users/${VISITOR}`);
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['not_found']);
  });
});
