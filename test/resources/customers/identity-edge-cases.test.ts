// Identity fields sent as null or empty, and requests naming a customer twice: null and "" count as
// not sent (they can neither identify a customer nor be stored as an identifier), and a request
// with two identifiers follows the lookup order of spec 4.5 rather than whichever comes first.

import { describe, expect, it } from 'vitest';
import { errorCodes, expectRejected, mock, type TestMock } from '../../helpers.js';
import { ADA, LEAD, LEAD_USER_ID, LINUS, SHARED_A, VISITOR, VISITOR_USER_ID } from '../../fixture-ids.js';

const post = (m: TestMock, body: unknown) => m.call('POST', '/users', { body });
const userCount = async (m: TestMock) => (await m.call('GET', '/users?per_page=1')).body.total_count as number;
const leadCount = async (m: TestMock) => (await m.call('GET', '/contacts?per_page=1')).body.total_count as number;

describe('POST /users: null and empty identity fields', () => {
  it('creates a user from a user_id with email null, storing no email', async () => {
    const m = mock();
    const before = await userCount(m);
    const res = await post(m, { user_id: 'null-email', email: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: 'null-email', email: null });
    expect(await userCount(m)).toBe(before + 1);
    expect((await m.call('GET', '/users?user_id=null-email')).body).toMatchObject({ id: res.body.id, email: null });
  });

  it('creates a user from a user_id with an empty email, storing no email', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'empty-email', email: '' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: 'empty-email', email: null });
  });

  it('creates a user from an email with user_id null or empty, storing no user_id', async () => {
    for (const userId of [null, '']) {
      const m = mock();
      const before = await userCount(m);
      const res = await post(m, { user_id: userId, email: 'Fresh@Example.com' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ user_id: null, email: 'fresh@example.com' });
      expect(await userCount(m)).toBe(before + 1);
    }
  });

  it('finds the user by email when user_id is empty, and keeps its user_id', async () => {
    const m = mock();
    const before = await userCount(m);
    const res = await post(m, { user_id: '', email: 'ADA@example.com', name: 'Ada L.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ADA, user_id: 'ada-1', email: 'ada@example.com', name: 'Ada L.' });
    expect(await userCount(m)).toBe(before);
  });

  it('updates by id with user_id null or empty without clearing the stored user_id', async () => {
    for (const userId of [null, '']) {
      const m = mock();
      const res = await post(m, { id: ADA, user_id: userId, name: 'By id' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: ADA, user_id: 'ada-1', name: 'By id' });
    }
  });

  it('clears the email of a user found by user_id when email is null or empty', async () => {
    for (const email of [null, '']) {
      const m = mock();
      const res = await post(m, { user_id: 'ada-1', email });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: ADA, email: null });
      expect((await m.call('GET', '/users?email=ada@example.com')).body.total_count).toBe(0);
    }
  });

  it('refuses a body whose identifiers are all null or empty with 400 parameter_not_found, changing nothing', async () => {
    const m = mock();
    for (const body of [{ user_id: null, email: null }, { user_id: '', email: '' }, { user_id: '', email: null }, { name: 'Nobody' }]) {
      const res = await expectRejected(m, 'POST', '/users', { body }, 400, ['parameter_not_found']);
      expect(res.body.errors[0].field).toBe('user_id');
    }
  });
});

describe('POST /users: two identifiers in one request', () => {
  it('by id with a new user_id: sets the user_id on that user', async () => {
    const m = mock();
    const res = await post(m, { id: LINUS, user_id: 'linus-4' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: LINUS, user_id: 'linus-4', email: 'linus@example.com' });
    expect((await m.call('GET', '/users?user_id=linus-4')).body.id).toBe(LINUS);
  });

  it('by id with the user_id it already has: changes nothing about its identity', async () => {
    const m = mock();
    const res = await post(m, { id: ADA, user_id: 'ada-1', email: 'ada@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ADA, user_id: 'ada-1', email: 'ada@example.com' });
  });

  it('by id with a user_id another customer holds: 400 unique_user_constraint "User already exists." naming user_id, changing nothing', async () => {
    const m = mock();
    const res = await expectRejected(m, 'POST', '/users', { body: { id: ADA, user_id: 'grace-2' } }, 400, ['unique_user_constraint']);
    expect(res.body.errors[0]).toEqual({ code: 'unique_user_constraint', message: 'User already exists.', field: 'user_id' });
    await expectRejected(m, 'POST', '/users', { body: { id: ADA, user_id: LEAD_USER_ID } }, 400, ['unique_user_constraint']);
  });

  it('by an id that is a lead or a visitor: 404, even with a user_id', async () => {
    const m = mock();
    await expectRejected(m, 'POST', '/users', { body: { id: LEAD } }, 404, ['not_found']);
    await expectRejected(m, 'POST', '/users', { body: { id: VISITOR, user_id: 'fresh-id' } }, 404, ['not_found']);
  });

  it('user_id first: a known user_id wins over an email that names someone else', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'ada-1', email: 'grace@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ADA, user_id: 'ada-1', email: 'grace@example.com' });
  });

  it('a user_id that a lead or visitor holds: 400 unique_user_constraint, even with an email that matches a user', async () => {
    const m = mock();
    await expectRejected(m, 'POST', '/users', { body: { user_id: LEAD_USER_ID } }, 400, ['unique_user_constraint']);
    await expectRejected(m, 'POST', '/users', { body: { user_id: VISITOR_USER_ID, email: 'ada@example.com' } }, 400, ['unique_user_constraint']);
  });

  it('a new user_id with the email of a user without one: gives that user the user_id (case 3)', async () => {
    const m = mock();
    const before = await userCount(m);
    const res = await post(m, { user_id: 'linus-new', email: 'LINUS@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: LINUS, user_id: 'linus-new' });
    expect(await userCount(m)).toBe(before);
  });

  it('a new user_id with an email every holder of which has another user_id: a new user (case 4)', async () => {
    const m = mock();
    const before = await userCount(m);
    const res = await post(m, { user_id: 'shared-c', email: 'shared@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe(SHARED_A);
    expect(res.body).toMatchObject({ user_id: 'shared-c', email: 'shared@example.com' });
    expect(await userCount(m)).toBe(before + 1);
  });

  it('an email shared by two users and no user_id: 409 conflict, changing nothing', async () => {
    const m = mock();
    await expectRejected(m, 'POST', '/users', { body: { email: 'shared@example.com' } }, 409, ['conflict']);
    await expectRejected(m, 'POST', '/users', { body: { email: 'shared@example.com', user_id: '' } }, 409, ['conflict']);
  });

  it('a new user_id with an email shared by two users without user_id: 409 conflict, changing nothing', async () => {
    const m = mock();
    // Two users sharing an email, neither with a user_id, cannot be made through the API: seed them.
    const doc = {
      app: { id: 'twins', tokens: ['twins-token'] },
      admins: [{ id: '1', name: 'Solo', email: 'solo@example.com' }],
      customers: [
        { id: 'u00000000000000000000001', email: 'twin@example.com', created_at: 1_700_000_000 },
        { id: 'u00000000000000000000002', email: 'twin@example.com', created_at: 1_700_000_001 },
        { id: 'u00000000000000000000003', user_id: 'has-one', email: 'single@example.com', created_at: 1_700_000_002 },
        { id: 'u00000000000000000000004', email: 'single@example.com', created_at: 1_700_000_003 },
      ],
    };
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    const before = (await m.call('GET', '/__admin/state?app=twins', { token: null })).text;
    const res = await m.call('POST', '/users', { token: 'twins-token', body: { user_id: 'new-twin', email: 'twin@example.com' } });
    expect(res.status).toBe(409);
    expect(errorCodes(res)).toEqual(['conflict']);
    expect((await m.call('GET', '/__admin/state?app=twins', { token: null })).text).toBe(before);
    // One holder without a user_id among holders with one: that one gets it.
    const one = await m.call('POST', '/users', { token: 'twins-token', body: { user_id: 'now-two', email: 'single@example.com' } });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: 'u00000000000000000000004', user_id: 'now-two' });
  });
});

describe('POST /users never takes a lead for a user', () => {
  it('an email only a lead has: creates a new user and leaves the lead alone', async () => {
    const m = mock();
    const lead = (await m.call('GET', `/contacts/${LEAD}`)).body;
    const before = await userCount(m);
    const res = await post(m, { email: 'lead@example.com', name: 'Now a user' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'user', email: 'lead@example.com', name: 'Now a user' });
    expect(res.body.id).not.toBe(LEAD);
    expect(await userCount(m)).toBe(before + 1);
    expect((await m.call('GET', `/contacts/${LEAD}`)).body).toEqual(lead);
  });
});

describe('lookups with null and empty identifiers', () => {
  it('GET /users with user_id and email resolves by user_id alone (lookup order id -> user_id -> email), an email naming someone else a warning', async () => {
    const m = mock();
    const same = await m.call('GET', '/users?user_id=ada-1&email=ada@example.com');
    expect(same.body.id).toBe(ADA);
    expect(same.headers.get('x-mock-warning')).toBeNull();
    const other = await m.call('GET', '/users?user_id=ada-1&email=grace@example.com');
    expect(other.body.id).toBe(ADA);
    expect(other.headers.get('x-mock-warning')).toMatch(/^identifier_overridden "/);
    expect((await m.call('GET', '/users?user_id=nobody&email=ada@example.com')).status).toBe(404);
  });

  it('GET /users?email= matches case-insensitively; users only from API version 1.2 (1.1, the default, lists leads too)', async () => {
    const m = mock();
    const ids = async (path: string, version = '1.2') => (await m.call('GET', path, { headers: { 'intercom-version': version } })).body.users.map((u: { id: string }) => u.id);
    expect(await ids('/users?email=ADA@Example.com')).toEqual([ADA]);
    expect(await ids('/users?email=lead@example.com')).toEqual([]);
    expect(await ids('/users?email=lead@example.com', '1.1')).toEqual([LEAD]);
    expect((await m.call('GET', `/users?user_id=${LEAD_USER_ID}`)).status).toBe(404);
  });

  it('POST /contacts with user_id empty or null creates a new lead instead of finding one', async () => {
    for (const userId of [null, '']) {
      const m = mock();
      const before = await leadCount(m);
      const res = await m.call('POST', '/contacts', { body: { user_id: userId, name: 'New lead' } });
      expect(res.status).toBe(200);
      expect(res.body.type).toBe('contact');
      expect(res.body.user_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body.id).not.toBe(LEAD);
      expect(await leadCount(m)).toBe(before + 1);
    }
  });

  it('POST /contacts naming a user or a visitor: 404 Lead Not Found, changing nothing', async () => {
    const m = mock();
    await expectRejected(m, 'POST', '/contacts', { body: { id: ADA } }, 404, ['not_found']);
    await expectRejected(m, 'POST', '/contacts', { body: { user_id: VISITOR_USER_ID } }, 404, ['not_found']);
  });

  it('POST /contacts by user_id updates that lead', async () => {
    const m = mock();
    const res = await m.call('POST', '/contacts', { body: { user_id: LEAD_USER_ID, name: 'Renamed lead' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: LEAD, name: 'Renamed lead', user_id: LEAD_USER_ID });
  });
});
