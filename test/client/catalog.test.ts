// The catalog operations through the official Node client (intercom-client 2.11) on a real
// listening mock: users.listBy by tag and segment, companies list/listBy/find by name, tags.delete,
// segments list/find, the user counts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALPHA, BETA, BETA_2, CATALOG, SEG_C, SEG_U, TOKEN, U1, U2, U3 } from '../resources/customers/catalog-fixture.js';
import { officialClientMock, type OfficialClientMock } from './official.js';

const ids = (list: { id: string }[]) => list.map((r) => r.id);

describe('official Node client: tags, segments, company and user lists', () => {
  let m: OfficialClientMock;
  let client: any;
  beforeAll(async () => {
    m = await officialClientMock();
    const seeded = await fetch(`${m.url}/__admin/seed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CATALOG) });
    expect(seeded.status).toBe(200);
    client = m.client(TOKEN);
  });
  afterAll(() => m.close());

  it('users.listBy({tag_id}) and ({segment_id})', async () => {
    const byTag = await client.users.listBy({ tag_id: '1' });
    expect(byTag.statusCode).toBe(200);
    expect(byTag.body).toMatchObject({ type: 'user.list', total_count: 3 });
    expect(ids(byTag.body.users)).toEqual([U1, U2, U3]);
    const bySegment = await client.users.listBy({ segment_id: SEG_U });
    expect(ids(bySegment.body.users)).toEqual([U1, U3]);
  });

  it('follows pages.next of a filtered list with nextPage', async () => {
    const first = await client.users.listBy({ tag_id: '1', per_page: 2 });
    expect(ids(first.body.users)).toEqual([U1, U2]);
    const second = await client.nextPage(first.body.pages);
    expect(ids(second.body.users)).toEqual([U3]);
  });

  it('companies.list(), listBy({tag_id}) and find({name})', async () => {
    const list = await client.companies.list();
    expect(list.body.type).toBe('company.list');
    expect(ids(list.body.companies)).toEqual([BETA, ALPHA, BETA_2]);
    const byTag = await client.companies.listBy({ tag_id: '1' });
    expect(ids(byTag.body.companies)).toEqual([BETA, ALPHA]);
    const bySegment = await client.companies.listBy({ segment_id: SEG_C });
    expect(ids(bySegment.body.companies)).toEqual([BETA]);
    const byName = await client.companies.find({ name: 'Alpha' });
    expect(byName.body).toMatchObject({ type: 'company', id: ALPHA });
    await expect(client.companies.find({ name: 'Nobody' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('segments.list() and find({id})', async () => {
    const list = await client.segments.list();
    expect(list.body).toMatchObject({ type: 'segment.list', segments: [{ type: 'segment', id: SEG_U, name: 'Seg U' }] });
    const one = await client.segments.find({ id: SEG_U });
    expect(one.body).toMatchObject({ type: 'segment', id: SEG_U, person_type: 'user' });
    await expect(client.segments.find({ id: 'nope' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('counts.userTagCounts() and userSegmentCounts()', async () => {
    expect((await client.counts.userTagCounts()).body).toEqual({ type: 'count', user: { tag: [{ A: 4 }, { B: 1 }, { C: 0 }] } });
    expect((await client.counts.userSegmentCounts()).body).toEqual({ type: 'count', user: { segment: [{ 'Seg U': 3 }] } });
  });

  it('tags.delete({id}), refused for a tag a segment depends on', async () => {
    await expect(client.tags.delete({ id: '2' })).rejects.toMatchObject({ statusCode: 400 });
    const res = await client.tags.delete({ id: '3' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual({ type: 'tag', id: '3', name: 'C' });
    expect((await client.tags.list()).body.tags.map((t: { name: string }) => t.name)).toEqual(['A', 'B']);
    expect((await client.counts.userTagCounts()).body.user.tag).toEqual([{ A: 4 }, { B: 1 }]);
    await expect(client.tags.delete({ id: '3' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('every answer passed the contract check', () => {
    expect(m.seen.length).toBeGreaterThan(15);
  });
});
