// The list filters applied on top of an email lookup of GET /users (several users may share an
// email): tag_id, segment_id, created_since, sort and order over the users the lookup found.

import { describe, expect, it } from 'vitest';
import { mock, TEST_NOW } from '../../helpers.js';

const TOKEN = 'lf-token';
const DAY = 86_400;
const S1 = 'c0000000000000000000lfs1';
const [A, B, C, D] = ['c00000000000000000000lfa', 'c00000000000000000000lfb', 'c00000000000000000000lfc', 'c00000000000000000000lfd'];
const user = (id: string, userId: string, created: number, extra: object) => ({ type: 'user', id, user_id: userId, email: 'same@example.com', created_at: created, updated_at: created, ...extra });

const SEED = {
  app: { id: 'lf', tokens: [TOKEN], rate_limit_per_minute: 1_000_000 },
  tags: [
    { id: '1', name: 'One' },
    { id: '2', name: 'Two' },
  ],
  segments: [{ id: S1, name: 'S', person_type: 'user', created_at: TEST_NOW - 30 * DAY }],
  customers: [
    user(A, 'a', TEST_NOW - 8 * DAY, { last_request_at: 300, tags: ['1'], segments: [S1] }),
    user(B, 'b', TEST_NOW - 6 * DAY, { last_request_at: null, tags: ['1', '2'] }),
    user(C, 'c', TEST_NOW - 4 * DAY, { last_request_at: 100, tags: ['2'], segments: [S1] }),
    // Created exactly 2 days before now: kept by created_since=2 (the bound is inclusive).
    user(D, 'd', TEST_NOW - 2 * DAY, { last_request_at: 300 }),
  ],
};

const m = mock();
const seeded = m.call('POST', '/__admin/seed', { token: null, body: SEED });

const ids = async (query: string) => {
  expect((await seeded).status).toBe(200);
  const res = await m.call('GET', `/users?email=same@example.com${query}`, { token: TOKEN });
  expect(res.status).toBe(200);
  expect(res.body.total_count).toBe(res.body.users.length);
  return res.body.users.map((u: { id: string }) => u.id);
};

describe('GET /users?email= with list filters', () => {
  it('keeps the lookup order without filters, and reverses it with order=desc alone', async () => {
    expect(await ids('')).toEqual([A, B, C, D]);
    expect(await ids('&order=desc')).toEqual([D, C, B, A]);
    expect(await ids('&order=asc')).toEqual([A, B, C, D]);
  });

  it('keeps the holders of a tag or a segment', async () => {
    expect(await ids('&tag_id=1')).toEqual([A, B]);
    expect(await ids('&tag_id=2')).toEqual([B, C]);
    expect(await ids(`&segment_id=${S1}`)).toEqual([A, C]);
    expect(await ids('&tag_id=9')).toEqual([]);
  });

  it('keeps the users created since, inclusive, oldest first unless order=desc', async () => {
    expect(await ids('&created_since=2')).toEqual([D]);
    expect(await ids('&created_since=5')).toEqual([C, D]);
    expect(await ids('&created_since=5&order=desc')).toEqual([D, C]);
    expect(await ids('&created_since=7&tag_id=1')).toEqual([B]);
  });

  it('sorts by a key with nulls first ascending and ties by id', async () => {
    expect(await ids('&sort=last_request_at&order=asc')).toEqual([B, C, A, D]);
    expect(await ids('&sort=last_request_at')).toEqual([D, A, C, B]);
    expect(await ids('&sort=created_at&order=asc')).toEqual([A, B, C, D]);
    expect(await ids('&sort=last_request_at&created_since=7')).toEqual([D, C, B]);
  });
});

describe('GET /users with created_since and another sort', () => {
  it('keeps the users created since and sorts them by the key asked', async () => {
    expect((await seeded).status).toBe(200);
    const list = async (q: string) => (await m.call('GET', `/users?${q}`, { token: TOKEN })).body.users.map((u: { id: string }) => u.id);
    expect(await list('created_since=7&sort=last_request_at')).toEqual([D, C, B]);
    expect(await list('created_since=7&sort=last_request_at&order=asc')).toEqual([B, C, D]);
    expect(await list('created_since=2&sort=last_request_at')).toEqual([D]);
    expect(await list(`created_since=7&sort=last_request_at&segment_id=${S1}`)).toEqual([C]);
    expect(await list('created_since=5&sort=updated_at&tag_id=2')).toEqual([C]);
    expect(await list('created_since=9&sort=created_at&order=asc&per_page=2&page=2')).toEqual([C, D]);
  });
});
