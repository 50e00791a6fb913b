// A list by tag or segment that is also sorted (or limited by created_since) reads a sorted index
// of that tag's or segment's holders, kept by the writes, instead of sorting every holder per
// request. Not timed: the records a request reads are counted, and must stay bounded by the page,
// not by the 1000 holders; answers are compared with an app that never built the index.

import { describe, expect, it, vi } from 'vitest';
import type { FixtureInput } from '../../src/fixtures/fixture-doc.js';
import { SortedIndex } from '../../src/engine/sorted-index.js';
import { mock, TEST_NOW, type TestMock } from '../helpers.js';

const N = 1000;
const TAG = '7001';
const SEGMENT = 'seg0000000000000000000001';
const id = (i: number) => `a0${i.toString(16).padStart(22, '0')}`;
const co = (i: number) => `c0${i.toString(16).padStart(22, '0')}`;
const DAY = 86_400;

/** 1000 users created a day apart up to now, all holding the tag and the segment, each in its own company; every company holds the tag. */
function app(): TestMock {
  const m = mock();
  const doc: FixtureInput = {
    app: { id: 'demo', tokens: ['demo-token'] },
    tags: [{ id: TAG, name: 'everyone' }],
    segments: [{ id: SEGMENT, name: 'All', person_type: 'user' }],
    companies: Array.from({ length: N }, (_, i) => ({ id: co(i), company_id: `co-${i}`, name: `Co ${i}`, tags: [TAG], last_request_at: TEST_NOW - 10 * N + i })),
    customers: Array.from({ length: N }, (_, i) => ({
      type: 'user' as const,
      id: id(i),
      user_id: `u-${i}`,
      created_at: TEST_NOW - (N - i) * DAY,
      updated_at: TEST_NOW - (N - i) * DAY,
      tags: [TAG],
      segments: [SEGMENT],
      companies: [co(i)],
    })),
  };
  m.store.seedApp(doc, 'replace');
  return m;
}

const LISTS = [
  `/users?tag_id=${TAG}&sort=updated_at&per_page=20`,
  `/users?tag_id=${TAG}&sort=created_at&order=asc&per_page=20&page=3`,
  `/users?segment_id=${SEGMENT}&created_since=100&per_page=20&page=2`,
  `/users?segment_id=${SEGMENT}&sort=last_request_at&per_page=20`,
  `/companies?tag_id=${TAG}&per_page=20`,
  `/companies?tag_id=${TAG}&order=asc&per_page=20&page=4`,
];

/** Writes that move holders in and out of the lists and change their keys. */
async function change(m: TestMock): Promise<void> {
  const ok = async (method: string, path: string, body: unknown) => expect((await m.call(method, path, { body })).status).toBe(200);
  await ok('POST', '/users', { user_id: 'u-5', last_request_at: TEST_NOW - 5, companies: [{ company_id: 'co-7', remove: true }] });
  await ok('POST', '/tags', { name: 'everyone', users: [{ id: id(N - 10), untag: true }, { id: id(N - 9), untag: true }], companies: [{ id: co(N - 1), untag: true }] });
  await ok('POST', '/tags', { name: 'everyone', users: [{ id: id(N - 9) }] });
  await ok('DELETE', `/users/${id(N - 5)}`, undefined);
  await ok('POST', '/users', { user_id: 'new-one', companies: [{ company_id: 'co-1' }] });
  await ok('POST', '/tags', { name: 'everyone', users: [{ user_id: 'new-one' }] });
  await ok('POST', '/companies', { company_id: 'co-2', name: 'Renamed' });
}

describe('lists by tag or segment with sort or created_since', () => {
  it('answer as an app that never sorted them, after writes that move holders and keys, reading records bounded by the page', async () => {
    const kept = app();
    const fresh = app();
    for (const path of LISTS) expect((await kept.call('GET', path)).status).toBe(200);
    await change(kept);
    await change(fresh);
    const state = kept.store.app('demo');
    if (state === undefined) throw new Error('no app');
    const customers = vi.spyOn(state.data.customers, 'get');
    const companies = vi.spyOn(state.data.companies, 'get');
    for (const path of LISTS) {
      customers.mockClear();
      companies.mockClear();
      const res = await kept.call('GET', path);
      expect(res.status).toBe(200);
      expect(customers.mock.calls.length + companies.mock.calls.length).toBeLessThan(100);
      expect(res.text).toBe((await fresh.call('GET', path)).text);
    }
    // Two untagged, one tagged again, one archived, one new holder.
    expect((await kept.call('GET', LISTS[0] as string)).body.total_count).toBe(N - 1);
  });

  it('limit by created_at whatever the sort: created_since with sort=updated_at leaves out an old user updated now', async () => {
    const m = app();
    expect((await m.call('POST', '/users', { body: { user_id: 'u-5', name: 'Touched' } })).status).toBe(200);
    const recent = Array.from({ length: 10 }, (_, k) => id(N - 1 - k));
    for (const filter of ['', `&tag_id=${TAG}`, `&segment_id=${SEGMENT}`]) {
      const res = await m.call('GET', `/users?created_since=10&sort=updated_at&per_page=20${filter}`);
      expect(res.body.total_count).toBe(10);
      expect(res.body.users.map((u: { id: string }) => u.id)).toEqual(recent);
      const asc = await m.call('GET', `/users?created_since=10&sort=updated_at&order=asc&per_page=20${filter}`);
      expect(asc.body.users.map((u: { id: string }) => u.id)).toEqual([...recent].reverse());
    }
  });

  it('keep nothing for tags and segments the app does not hold', async () => {
    const m = app();
    const builds = SortedIndex.builds;
    for (let i = 0; i < 5; i++) {
      for (const path of [`/users?tag_id=no-${i}&sort=created_at`, `/users?segment_id=no-${i}&created_since=3`, `/companies?tag_id=no-${i}`]) {
        const res = await m.call('GET', path);
        expect(res.status).toBe(200);
        expect(res.body.total_count).toBe(0);
      }
    }
    expect(SortedIndex.builds).toBe(builds);
  });

  it('keep a tag\'s sorted list through a refused write, and answer an empty list once the tag is deleted', async () => {
    const m = app();
    const before = await m.call('GET', LISTS[0] as string);
    const refused = await m.call('POST', '/tags', { body: { name: 'everyone', users: [{ id: id(1), untag: true }, { id: 'a0nobody00000000000000000', untag: true }] } });
    expect(refused.status).toBe(404);
    expect((await m.call('GET', LISTS[0] as string)).text).toBe(before.text);
    expect((await m.call('DELETE', `/tags/${TAG}`)).status).toBe(200);
    const gone = await m.call('GET', LISTS[0] as string);
    expect(gone.status).toBe(200);
    expect(gone.body.total_count).toBe(0);
  });
});
