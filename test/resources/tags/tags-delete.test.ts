// DELETE /tags/{id} (T1) and the client-only tag forms GET /tags/{id}, GET /tags?name=, PUT /tags/{id} (T2, T3).

import { describe, expect, it } from 'vitest';
import { ALPHA, BETA, catalogMock, catRejected, catState, CONV, get, L1, TOKEN, U1, U2, V1 } from '../customers/catalog-fixture.js';

type M = Awaited<ReturnType<typeof catalogMock>>;

const tagNames = (tags: { tags: { name: string }[] }) => tags.tags.map((t) => t.name);
const del = (m: M, id: string) => m.call('DELETE', `/tags/${id}`, { token: TOKEN });

describe('DELETE /tags/{id}', () => {
  it('answers the tag and removes it from every record, list and count', async () => {
    const m = await catalogMock();
    const totalsBefore = (await get(m, '/counts')).body;
    const u1Before = (await get(m, `/users/${U1}`)).body;
    const res = await del(m, '1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'tag', id: '1', name: 'A' });

    expect(tagNames((await get(m, '/tags')).body)).toEqual(['B', 'C']);
    const u1 = (await get(m, `/users/${U1}`)).body;
    expect(tagNames(u1.tags)).toEqual([]);
    expect(u1.updated_at).toBe(u1Before.updated_at);
    expect(tagNames((await get(m, `/users/${U2}`)).body.tags)).toEqual(['B']);
    expect(tagNames((await get(m, `/contacts/${L1}`)).body.tags)).toEqual([]);
    expect(tagNames((await get(m, `/companies/${BETA}`)).body.tags)).toEqual(['B']);
    expect(tagNames((await get(m, `/companies/${ALPHA}`)).body.tags)).toEqual([]);
    expect(tagNames((await get(m, `/conversations/${CONV}`)).body.tags)).toEqual([]);
    expect((await get(m, '/users?tag_id=1')).body.total_count).toBe(0);
    expect((await get(m, '/contacts?tag_id=1')).body.total_count).toBe(0);
    expect((await get(m, '/companies?tag_id=1')).body.total_count).toBe(0);
    expect((await get(m, '/counts?type=user&count=tag')).body.user.tag).toEqual([{ B: 1 }, { C: 0 }]);
    expect((await get(m, '/counts?type=company&count=tag')).body.company.tag).toEqual([{ B: 1 }, { C: 0 }]);
    expect((await get(m, '/counts')).body.tag.count).toBe(totalsBefore.tag.count - 1);
    // The visitor's tag went too (seen in the export).
    const state = JSON.parse(await catState(m));
    expect(state.customers.find((c: { id: string }) => c.id === V1).tags).toEqual([]);
    expect(state.tags.map((t: { id: string }) => t.id)).toEqual(['2', '3']);
  });

  it('is gone for the next requests: 404 on a second delete, and a new tag of that name starts empty', async () => {
    const m = await catalogMock();
    expect((await del(m, '1')).status).toBe(200);
    await catRejected(m, 'DELETE', '/tags/1', 404, ['not_found']);
    await catRejected(m, 'GET', '/tags/1', 404, ['not_found']);
    const again = await m.call('POST', '/tags', { token: TOKEN, body: { name: 'a' } });
    expect(again.status).toBe(200);
    expect(again.body.id).not.toBe('1');
    expect((await get(m, `/users?tag_id=${again.body.id}`)).body.total_count).toBe(0);
  });

  it('refuses a tag a segment depends on, naming the segment, and changes nothing', async () => {
    const m = await catalogMock();
    const res = await catRejected(m, 'DELETE', '/tags/2', 400, ['tag_has_dependent_objects']);
    expect(res.body.errors[0].message).toBe('Unable to delete Tag with dependent objects. Segments: Seg C.');
  });

  it('answers 404 not_found for an unknown tag', async () => {
    const m = await catalogMock();
    await catRejected(m, 'DELETE', '/tags/999', 404, ['not_found']);
  });

  it('is undone by a reset', async () => {
    const m = await catalogMock();
    const before = await catState(m);
    expect((await del(m, '1')).status).toBe(200);
    await m.call('POST', '/__admin/reset?app=cat', { token: null });
    expect(await catState(m)).toBe(before);
    expect((await get(m, '/users?tag_id=1')).body.total_count).toBe(3);
  });
});

describe('GET /tags/{id}, GET /tags?name=', () => {
  it('answer the one tag', async () => {
    const m = await catalogMock();
    expect((await get(m, '/tags/2')).body).toEqual({ type: 'tag', id: '2', name: 'B' });
    expect((await get(m, '/tags?name=b')).body).toEqual({ type: 'tag', id: '2', name: 'B' });
    expect((await get(m, '/tags?name=%20B%20')).body.id).toBe('2');
  });

  it('answer 404 not_found when there is none', async () => {
    const m = await catalogMock();
    await catRejected(m, 'GET', '/tags/999', 404, ['not_found']);
    await catRejected(m, 'GET', '/tags?name=zzz', 404, ['not_found']);
  });
});

describe('PUT /tags/{id}', () => {
  it('renames, as POST /tags {id, name} does', async () => {
    const m = await catalogMock();
    const res = await m.call('PUT', '/tags/1', { token: TOKEN, body: { id: '1', name: 'A2', type: 'tag' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'tag', id: '1', name: 'A2' });
    expect((await get(m, '/tags?name=a2')).body.id).toBe('1');
    expect(tagNames((await get(m, `/users/${U1}`)).body.tags)).toEqual(['A2']);
  });

  it('refuses an unknown id, a taken name and a missing name', async () => {
    const m = await catalogMock();
    await catRejected(m, 'PUT', '/tags/999', 404, ['tag_not_found'], { name: 'X' });
    await catRejected(m, 'PUT', '/tags/1', 409, ['conflict'], { name: 'b' });
    await catRejected(m, 'PUT', '/tags/1', 400, ['parameter_not_found'], {});
  });
});
