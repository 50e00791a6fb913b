// GET /counts?type=user&count=tag|segment (Q3, Q4): users and leads ("Count Object includes count
// for users and leads"), visitors not, every tag listed (zero included), live after every write.

import { describe, expect, it } from 'vitest';
import { catalogMock, get, L1, TOKEN, V1 } from '../customers/catalog-fixture.js';

describe('GET /counts?type=user', () => {
  it('counts users and leads per tag, zero included, visitors not', async () => {
    const m = await catalogMock();
    const res = await get(m, '/counts?type=user&count=tag');
    expect(res.status).toBe(200);
    // A: three users and the lead (the visitor holds it too, and is not counted).
    expect(res.body).toEqual({ type: 'count', user: { tag: [{ A: 4 }, { B: 1 }, { C: 0 }] } });
  });

  it('counts users and leads per user segment', async () => {
    const m = await catalogMock();
    expect((await get(m, '/counts?type=user&count=segment')).body).toEqual({ type: 'count', user: { segment: [{ 'Seg U': 3 }] } });
  });

  it('follows tagging a lead, and a visitor becoming a lead', async () => {
    const m = await catalogMock();
    await m.call('POST', '/tags', { token: TOKEN, body: { name: 'C', users: [{ id: L1 }] } });
    expect((await get(m, '/counts?type=user&count=tag')).body.user.tag).toEqual([{ A: 4 }, { B: 1 }, { C: 1 }]);
    const lead = await m.call('PUT', '/visitors', { token: TOKEN, body: { user_id: 'v1', email: 'v1@example.com' } });
    expect(lead.body.id).toBe(V1);
    expect((await get(m, '/counts?type=user&count=tag')).body.user.tag).toEqual([{ A: 5 }, { B: 1 }, { C: 1 }]);
  });

  it('keeps the company counts as they were: companies per tag', async () => {
    const m = await catalogMock();
    expect((await get(m, '/counts?type=company&count=tag')).body.company.tag).toEqual([{ A: 3 }, { B: 1 }, { C: 0 }]);
    expect((await get(m, '/counts?type=company&count=segment')).body.company.segment).toEqual([{ 'Seg C': 1 }]);
  });
});
