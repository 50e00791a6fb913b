// GET /users and GET /contacts filtered by tag_id or segment_id, created_since, sort and order
// (surface U5, and the Go client's Contacts.ListByTag/ListBySegment).

import { describe, expect, it } from 'vitest';
import { catalogMock, catRejected, get, idsOf, L1, SEG_U, TOKEN, U1, U2, U3 } from '../customers/catalog-fixture.js';

const users = async (m: Awaited<ReturnType<typeof catalogMock>>, query: string) => {
  const res = await get(m, `/users?${query}`);
  expect(res.status).toBe(200);
  return { ids: idsOf(res.body.users), total: res.body.total_count as number, pages: res.body.pages };
};

describe('GET /users?tag_id= and ?segment_id=', () => {
  it('lists the users holding the tag, in the order they got it, without leads or visitors', async () => {
    const m = await catalogMock();
    const res = await get(m, '/users?tag_id=1');
    expect(res.body).toMatchObject({ type: 'user.list', total_count: 3, pages: { type: 'pages', page: 1, per_page: 50, total_pages: 1 } });
    expect(idsOf(res.body.users)).toEqual([U1, U2, U3]);
    expect((await users(m, 'tag_id=2')).ids).toEqual([U2]);
    expect((await users(m, `segment_id=${SEG_U}`)).ids).toEqual([U1, U3]);
  });

  it('pages with the filter kept in next', async () => {
    const m = await catalogMock();
    const p2 = await users(m, 'tag_id=1&per_page=1&page=2');
    expect(p2).toMatchObject({ ids: [U2], total: 3, pages: { page: 2, per_page: 1, total_pages: 3 } });
    const next = new URL(p2.pages.next);
    expect(Object.fromEntries(next.searchParams)).toEqual({ tag_id: '1', per_page: '1', page: '3' });
    expect((await get(m, `${next.pathname}${next.search}`)).body.users.map((u: { id: string }) => u.id)).toEqual([U3]);
  });

  it('gives an empty list for an unknown tag or segment', async () => {
    const m = await catalogMock();
    for (const q of ['tag_id=999', 'segment_id=nope']) {
      expect(await users(m, q)).toEqual({ ids: [], total: 0, pages: { type: 'pages', page: 1, per_page: 50, total_pages: 0, next: null } });
    }
  });

  it('refuses tag_id with segment_id (400 bad_request)', async () => {
    const m = await catalogMock();
    await catRejected(m, 'GET', `/users?tag_id=1&segment_id=${SEG_U}`, 400, ['bad_request']);
    await catRejected(m, 'GET', `/contacts?tag_id=1&segment_id=${SEG_U}`, 400, ['bad_request']);
  });

  it('follows tagging, untagging and rolled-back writes', async () => {
    const m = await catalogMock();
    expect((await m.call('POST', '/tags', { token: TOKEN, body: { name: 'B', users: [{ id: U1 }, { id: U2, untag: true }] } })).status).toBe(200);
    expect((await users(m, 'tag_id=2')).ids).toEqual([U1]);
    // One unknown entry: nothing changes, the index included.
    await catRejected(m, 'POST', '/tags', 404, ['not_found'], { name: 'B', users: [{ id: U3 }, { id: 'nobody' }] });
    expect((await users(m, 'tag_id=2')).ids).toEqual([U1]);
    // Re-tagged: last.
    expect((await m.call('POST', '/tags', { token: TOKEN, body: { name: 'B', users: [{ id: U2 }] } })).status).toBe(200);
    expect((await users(m, 'tag_id=2')).ids).toEqual([U1, U2]);
  });

  it('is back to the seeded holders after a reset, and as saved after a restore', async () => {
    const m = await catalogMock();
    await m.call('POST', '/__admin/snapshots?app=cat', { token: null, body: { name: 's' } });
    await m.call('POST', '/tags', { token: TOKEN, body: { name: 'C', users: [{ id: U3 }] } });
    expect((await users(m, 'tag_id=3')).ids).toEqual([U3]);
    await m.call('POST', '/__admin/snapshots/s/restore?app=cat', { token: null });
    expect((await users(m, 'tag_id=3')).ids).toEqual([]);
    await m.call('POST', '/tags', { token: TOKEN, body: { name: 'A', users: [{ id: U2, untag: true }] } });
    await m.call('POST', '/__admin/reset?app=cat', { token: null });
    expect((await users(m, 'tag_id=1')).ids).toEqual([U1, U2, U3]);
  });

  it('does not filter a user_id lookup (the one user, as the real "View a user"): named in a warning, refused under strict mode', async () => {
    const m = await catalogMock();
    for (const id of ['u1', 'u2']) {
      const res = await get(m, `/users?user_id=${id}&tag_id=2`);
      expect(res.body).toMatchObject({ type: 'user', user_id: id });
      expect(res.headers.get('x-mock-warning')).toBe('unused_field "tag_id does not filter a lookup by user_id: ignored."');
    }
    const strict = await m.call('GET', '/users?user_id=u1&tag_id=2', { token: TOKEN, ...{ headers: { 'x-mock-strict': 'true' } } });
    expect(strict.body.errors).toEqual([{ code: 'parameter_invalid', field: 'tag_id', message: 'tag_id does not filter a lookup by user_id.' }]);
  });
});

describe('GET /users created_since, sort and order', () => {
  it('keeps the users created in the last N days of the mock clock', async () => {
    const m = await catalogMock();
    expect((await users(m, 'created_since=2')).ids).toEqual([U3]);
    expect((await users(m, 'created_since=6')).ids).toEqual([U2, U3]);
    expect((await users(m, 'created_since=6&tag_id=1')).ids).toEqual([U2, U3]);
    expect((await users(m, 'created_since=0')).ids).toEqual([]);
  });

  it('sorts by a timestamp, newest first unless order=asc, nulls first ascending', async () => {
    const m = await catalogMock();
    expect((await users(m, 'sort=last_request_at')).ids).toEqual([U1, U3, U2]);
    expect((await users(m, 'sort=last_request_at&order=asc')).ids).toEqual([U2, U3, U1]);
    expect((await users(m, 'sort=created_at')).ids).toEqual([U3, U2, U1]);
    expect((await users(m, 'sort=last_request_at&tag_id=1&per_page=2&page=2')).ids).toEqual([U2]);
    expect((await users(m, `sort=created_at&segment_id=${SEG_U}`)).ids).toEqual([U3, U1]);
  });

  it('without sort keeps the list order, reversed by order=desc', async () => {
    const m = await catalogMock();
    expect((await users(m, '')).ids).toEqual([U1, U2, U3]);
    expect((await users(m, 'order=desc')).ids).toEqual([U3, U2, U1]);
    expect((await users(m, 'order=desc&tag_id=1&per_page=2')).ids).toEqual([U3, U2]);
  });

  it('follows writes that move a record in the sort', async () => {
    const m = await catalogMock();
    expect((await users(m, 'sort=updated_at')).ids).toEqual([U3, U2, U1]);
    expect((await m.call('POST', '/users', { token: TOKEN, body: { user_id: 'u1', update_last_request_at: true } })).status).toBe(200);
    expect((await users(m, 'sort=updated_at')).ids).toEqual([U1, U3, U2]);
    expect((await users(m, 'sort=last_request_at')).ids).toEqual([U1, U3, U2]);
    const created = (await m.call('POST', '/users', { token: TOKEN, body: { user_id: 'u4' } })).body.id;
    // Same updated_at as U1 (now): ties by id, reversed with the order.
    expect((await users(m, 'sort=updated_at')).ids).toEqual([U1, created, U3, U2]);
    expect((await users(m, 'created_since=1')).ids).toEqual([U3, created]);
  });

  it.each([
    ['sort=name', 'sort'],
    ['order=up', 'order'],
    ['created_since=-1', 'created_since'],
    ['created_since=1.5', 'created_since'],
  ])('refuses %s (400 parameter_invalid)', async (query) => {
    const m = await catalogMock();
    await catRejected(m, 'GET', `/users?${query}`, 400, ['parameter_invalid']);
  });
});

describe('GET /contacts?tag_id= and ?segment_id=', () => {
  it('lists the leads holding the tag or segment', async () => {
    const m = await catalogMock();
    for (const q of ['tag_id=1', `segment_id=${SEG_U}`]) {
      const res = await get(m, `/contacts?${q}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ type: 'contact.list', total_count: 1 });
      expect(idsOf(res.body.contacts)).toEqual([L1]);
    }
    expect((await get(m, '/contacts?tag_id=2')).body.total_count).toBe(0);
  });

  it('moves a converted visitor into the leads holding its tag', async () => {
    const m = await catalogMock();
    const res = await m.call('PUT', '/visitors', { token: TOKEN, body: { user_id: 'v1', email: 'v1@example.com' } });
    expect(res.status).toBe(200);
    expect(idsOf((await get(m, '/contacts?tag_id=1')).body.contacts)).toEqual([L1, res.body.id]);
  });
});

describe('export and seed', () => {
  it('seeding an exported state back gives the same filtered lists, sorted lists and counts', async () => {
    const m = await catalogMock();
    await m.call('POST', '/tags', { token: TOKEN, body: { name: 'C', users: [{ id: U3 }, { id: U1 }, { id: L1 }] } });
    await m.call('POST', '/users', { token: TOKEN, body: { user_id: 'u2', update_last_request_at: true } });
    const queries = ['/users?tag_id=3', '/users?tag_id=1&order=desc', '/users?sort=last_request_at', '/contacts?tag_id=3', '/companies', '/counts?type=user&count=tag', `/segments?include_count=true`];
    const read = async () => Promise.all(queries.map(async (q) => (await get(m, q)).text));
    const before = await read();
    const exported = JSON.parse((await m.call('GET', '/__admin/state?app=cat', { token: null })).text);
    expect(exported.segments.map((s: { rule_tags: string[] }) => s.rule_tags)).toEqual([[], ['2']]);
    expect((await m.call('POST', '/__admin/seed', { token: null, body: exported })).status).toBe(200);
    // Seeded holders are in list order (oldest first), so only the tag lists' order may differ.
    const after = await read();
    expect(after.slice(2)).toEqual(before.slice(2));
    expect(idsOf(JSON.parse(after[0] as string).users)).toEqual([U1, U3]);
  });
});
