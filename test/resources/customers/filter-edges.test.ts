// The list filters of GET /users at their edges (resources/customers/filters.ts): sort keys that tie or
// are null or 0, ids that do not follow creation, created_since with another sort, a tag's holders
// in the order they got it, the indexes of two tags, and writes after an index is built. The users
// are listed in the document out of every order a test expects.

import { describe, expect, it } from 'vitest';
import { expectRejected, mock, TEST_NOW, type TestMock } from '../../helpers.js';

const TOKEN = 'fe-token';
const DAY = 86_400;
// Ids sort U1 < U4 < U3 < U2; creation order is U1, U2, U3, U4.
const [U1, U2, U3, U4] = ['c00000000000000000000fa1', 'c00000000000000000000fz2', 'c00000000000000000000fm3', 'c00000000000000000000fb4'];
const LEAD = 'c00000000000000000000fl1';
const user = (id: string, userId: string, daysAgo: number, lastRequestAt: number | null, tags: string[]) => ({
  type: 'user', id, user_id: userId, email: 'same@example.com', created_at: TEST_NOW - daysAgo * DAY, updated_at: TEST_NOW - daysAgo * DAY, last_request_at: lastRequestAt, tags,
});

const SEED = {
  app: { id: 'fe', tokens: [TOKEN], rate_limit_per_minute: 1_000_000 },
  tags: [{ id: '1', name: 'One' }, { id: '2', name: 'Two' }, { id: '3', name: 'Three' }],
  segments: [{ id: 'c0000000000000000000fes1', name: 'S', person_type: 'user', created_at: TEST_NOW - 30 * DAY }],
  customers: [
    { ...user(U3, 'u3', 3, 50, ['2']), segments: ['c0000000000000000000fes1'] },
    user(U1, 'u1', 5, 0, ['1']),
    user(U4, 'u4', 2, 50, []),
    user(U2, 'u2', 4, null, ['1']),
    { type: 'contact', id: LEAD, user_id: 'f0f0f0f0-0000-4000-8000-0000000000f1', created_at: TEST_NOW - 6 * DAY, tags: ['1'] },
  ],
};

async function seeded(): Promise<TestMock> {
  const m = mock();
  const res = await m.call('POST', '/__admin/seed', { token: null, body: SEED });
  expect(res.status, res.text).toBe(200);
  return m;
}

/** The ids of one page, checking total_count against the whole list when asked. */
async function ids(m: TestMock, query: string, total?: number): Promise<string[]> {
  const res = await m.call('GET', `/users?${query}`, { token: TOKEN });
  expect(res.status, res.text).toBe(200);
  if (total !== undefined) expect(res.body.total_count).toBe(total);
  return res.body.users.map((u: { id: string }) => u.id);
}

describe('an email lookup with filters (several users share the email)', () => {
  const email = 'email=same@example.com';

  it('sorts nulls first, then 0, then ties by id, ascending; reversed descending', async () => {
    const m = await seeded();
    expect(await ids(m, `${email}&sort=last_request_at&order=asc`, 4)).toEqual([U2, U1, U4, U3]);
    expect(await ids(m, `${email}&sort=last_request_at&order=desc`, 4)).toEqual([U3, U4, U1, U2]);
  });

  it('sorts keys that fall along the creation order the other way (larger keys created first)', async () => {
    const m = await seeded();
    const other = (id: string, userId: string, daysAgo: number, lastRequestAt: number | null) => ({ ...user(id, userId, daysAgo, lastRequestAt, []), email: 'other@example.com' });
    const [X1, X2, X3, X4] = ['c00000000000000000000fx1', 'c00000000000000000000fx2', 'c00000000000000000000fx3', 'c00000000000000000000fx4'];
    const res = await m.call('POST', '/__admin/seed?mode=merge', { token: null, body: { app: SEED.app, customers: [other(X1, 'x1', 9, 90), other(X2, 'x2', 8, 10), other(X3, 'x3', 7, 10), other(X4, 'x4', 6, null)] } });
    expect(res.status, res.text).toBe(200);
    expect(await ids(m, 'email=other@example.com&sort=last_request_at&order=asc', 4)).toEqual([X4, X2, X3, X1]);
  });

  it('with created_since and no sort: by created_at, not by id', async () => {
    const m = await seeded();
    expect(await ids(m, `${email}&created_since=30`, 4)).toEqual([U1, U2, U3, U4]);
    expect(await ids(m, `${email}&created_since=4&order=asc`, 3)).toEqual([U2, U3, U4]);
  });
});

describe('the whole list with created_since', () => {
  it('and another sort: the users created since, in that sort', async () => {
    const m = await seeded();
    expect(await ids(m, 'created_since=4&sort=last_request_at&order=asc', 3)).toEqual([U2, U4, U3]);
    expect(await ids(m, 'created_since=4&sort=last_request_at', 3)).toEqual([U3, U4, U2]);
  });

  it('sorted by created_at: the total counts only those, and pages read past the skipped ones', async () => {
    const m = await seeded();
    expect(await ids(m, 'created_since=4&sort=created_at&order=asc&per_page=2', 3)).toEqual([U2, U3]);
    expect(await ids(m, 'created_since=4&sort=created_at&order=asc&per_page=2&page=2', 3)).toEqual([U4]);
    expect(await ids(m, 'created_since=4&sort=created_at&per_page=2&page=2', 3)).toEqual([U2]);
  });
});

describe('a tag\'s holders', () => {
  it('without sort: in the order they got the tag, reversed by order=desc, page by page', async () => {
    const m = await seeded();
    for (const id of [U4, U1, U3]) expect((await m.call('POST', '/tags', { token: TOKEN, body: { name: 'Three', users: [{ id }] } })).status).toBe(200);
    expect(await ids(m, 'tag_id=3', 3)).toEqual([U4, U1, U3]);
    expect(await ids(m, 'tag_id=3&order=desc', 3)).toEqual([U3, U1, U4]);
    expect(await ids(m, 'tag_id=3&order=desc&per_page=2&page=2', 3)).toEqual([U4]);
    expect(await ids(m, 'tag_id=3&per_page=2&page=2', 3)).toEqual([U3]);
  });

  it('sorted: each tag its own list, kept by later writes to users and leads, and none for an unknown tag', async () => {
    const m = await seeded();
    expect(await ids(m, 'tag_id=1&sort=created_at', 2)).toEqual([U2, U1]);
    expect(await ids(m, 'tag_id=2&sort=created_at', 1)).toEqual([U3]);
    // Written after the tag's index was built: a user without the tag, and a lead with it.
    expect((await m.call('POST', '/users', { token: TOKEN, body: { id: U4, name: 'Four' } })).status).toBe(200);
    expect((await m.call('POST', '/contacts', { token: TOKEN, body: { id: LEAD, name: 'Lead' } })).status).toBe(200);
    expect(await ids(m, 'tag_id=1&sort=created_at', 2)).toEqual([U2, U1]);
    expect(await ids(m, 'tag_id=nope&sort=created_at', 0)).toEqual([]);
  });

  it('sorted: a segment\'s list keeps a holder written after it was built', async () => {
    const m = await seeded();
    expect(await ids(m, 'segment_id=c0000000000000000000fes1&sort=created_at', 1)).toEqual([U3]);
    expect((await m.call('POST', '/users', { token: TOKEN, body: { id: U3, name: 'Three' } })).status).toBe(200);
    expect(await ids(m, 'segment_id=c0000000000000000000fes1&sort=created_at', 1)).toEqual([U3]);
  });

  it('tag_id with segment_id: 400 bad_request naming segment_id, changing nothing', async () => {
    const m = await seeded();
    const before = await ids(m, 'tag_id=1');
    const res = await expectRejected(m, 'GET', '/users?tag_id=1&segment_id=c0000000000000000000fes1', {}, 400, ['bad_request']);
    expect(res.body.errors[0].field).toBe('segment_id');
    expect(await ids(m, 'tag_id=1')).toEqual(before);
  });
});
