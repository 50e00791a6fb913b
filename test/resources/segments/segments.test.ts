// GET /segments (S1), GET /segments/{id} (S2), and POST /segments (S3, not in API 1.x).

import { describe, expect, it } from 'vitest';
import { TEST_NOW } from '../../helpers.js';
import { BETA, CATALOG, catalogMock, catRejected, DAY, get, SEG_C, SEG_U, TOKEN, U2 } from '../customers/catalog-fixture.js';

const segU = { type: 'segment', id: SEG_U, name: 'Seg U', created_at: TEST_NOW - 30 * DAY, updated_at: TEST_NOW - 30 * DAY, person_type: 'user' };
const segC = { type: 'segment', id: SEG_C, name: 'Seg C', created_at: TEST_NOW - 30 * DAY, updated_at: TEST_NOW - 30 * DAY, person_type: 'company' };

describe('GET /segments', () => {
  it('lists the user segments, or the company segments with type=company', async () => {
    const m = await catalogMock();
    expect((await get(m, '/segments')).body).toEqual({ type: 'segment.list', segments: [segU] });
    expect((await get(m, '/segments?type=user')).body).toEqual({ type: 'segment.list', segments: [segU] });
    expect((await get(m, '/segments?type=company')).body).toEqual({ type: 'segment.list', segments: [segC] });
  });

  it('adds the live member count with include_count=true: users and leads, or companies', async () => {
    const m = await catalogMock();
    expect((await get(m, '/segments?include_count=true')).body.segments).toEqual([{ ...segU, count: 3 }]);
    expect((await get(m, '/segments?type=company&include_count=true')).body.segments).toEqual([{ ...segC, count: 1 }]);
    expect((await get(m, '/segments?include_count=false')).body.segments).toEqual([segU]);
  });

  it('refuses another type (400 bad_request) or include_count value (400 parameter_invalid)', async () => {
    const m = await catalogMock();
    await catRejected(m, 'GET', '/segments?type=lead', 400, ['bad_request']);
    // include_count=yes is read as false (with a warning) unless the app is strict.
    expect((await m.call('POST', '/__admin/seed?app=cat&mode=merge', { token: null, body: { app: { id: 'cat', tokens: ['cat-token'], strict: true } } })).status).toBe(200);
    await catRejected(m, 'GET', '/segments?include_count=yes', 400, ['parameter_invalid']);
  });

  it('counts agree with GET /counts and the segment-filtered lists', async () => {
    const m = await catalogMock();
    const counts = (await get(m, '/counts?type=user&count=segment')).body.user.segment;
    expect(counts).toEqual([{ 'Seg U': 3 }]);
    const users = (await get(m, `/users?segment_id=${SEG_U}`)).body.total_count;
    const leads = (await get(m, `/contacts?segment_id=${SEG_U}`)).body.total_count;
    expect(users + leads).toBe(3);
    expect((await get(m, `/companies?segment_id=${SEG_C}`)).body.total_count).toBe(1);
  });
});

describe('GET /segments/{id}', () => {
  it('answers the segment, with count on request', async () => {
    const m = await catalogMock();
    expect((await get(m, `/segments/${SEG_U}`)).body).toEqual(segU);
    expect((await get(m, `/segments/${SEG_U}?include_count=true`)).body).toEqual({ ...segU, count: 3 });
    expect((await get(m, `/segments/${SEG_C}?include_count=true`)).body).toEqual({ ...segC, count: 1 });
  });

  it('answers 404 not_found for an unknown id', async () => {
    const m = await catalogMock();
    await catRejected(m, 'GET', '/segments/nope', 404, ['not_found']);
  });

  it('counts companies in a company segment: a user leaving one changes its user_count only', async () => {
    const m = await catalogMock();
    await m.call('POST', '/users', { token: TOKEN, body: { user_id: 'u2', companies: [{ company_id: 'b', remove: true }] } });
    expect((await get(m, `/segments/${SEG_C}?include_count=true`)).body.count).toBe(1);
    expect((await get(m, `/companies/${BETA}`)).body.user_count).toBe(1);
    expect((await get(m, `/users/${U2}`)).body.segments.segments).toEqual([]);
  });
});

describe('POST /segments', () => {
  it('is not an operation of API 1.x: 404 not_found, nothing renamed', async () => {
    const m = await catalogMock();
    const res = await catRejected(m, 'POST', '/segments', 404, ['not_found'], { id: SEG_U, name: 'Renamed' });
    expect(res.body.errors[0].message).toBe('The requested resource does not exist; check your path and try again');
    expect((await get(m, `/segments/${SEG_U}`)).body.name).toBe('Seg U');
  });
});

describe('segment fixtures', () => {
  it('refuses rule_tags naming a tag the document does not hold, naming the member', async () => {
    const m = await catalogMock();
    const before = (await m.call('GET', '/__admin/state?app=cat', { token: null })).text;
    const doc = { ...CATALOG, segments: [{ id: 'bad', name: 'Bad', rule_tags: ['999'] }] };
    const res = await m.call('POST', '/__admin/seed', { token: null, body: doc });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'parameter_invalid', field: 'segments[0].rule_tags[0]' });
    expect((await m.call('GET', '/__admin/state?app=cat', { token: null })).text).toBe(before);
  });
});
