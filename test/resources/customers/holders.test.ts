// The tag and segment lists come from an index the writes keep (resources/cross-resource/memberships.ts); this checks
// every list against one made from scratch over the exported state, after writes of every kind, a
// rollback, a restore, a tag deletion and a reset (as tallies.test.ts does for the counts).

import { describe, expect, it } from 'vitest';
import { mock, type TestMock } from '../../helpers.js';
import { ACME, ADA, LEAD, VISITOR_USER_ID } from '../../fixture-ids.js';

interface Rec {
  id: string;
  type?: string;
  tags: string[];
  segments: string[];
  companies?: string[];
  last_request_at: number | null;
}

async function allPages(m: TestMock, path: string, key: string): Promise<string[]> {
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const res = await m.call('GET', `${path}&per_page=60&page=${page}`);
    expect(res.status, path).toBe(200);
    out.push(...(res.body[key] as { id: string }[]).map((r) => r.id));
    if (res.body.pages.next === null) return out;
  }
}

async function expectListsTrue(m: TestMock) {
  const d = JSON.parse((await m.call('GET', '/__admin/state?app=demo', { token: null })).text) as { customers: Rec[]; companies: Rec[]; tags: { id: string }[]; segments: { id: string; person_type: string }[] };
  const people = new Set(d.customers.filter((c) => c.type !== 'visitor').flatMap((c) => c.companies ?? []));
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = (xs: string[]) => [...xs].sort(byId);
  const labels = [...d.tags.map((t) => ['tag_id', t.id, 'tags'] as const), ...d.segments.map((s) => ['segment_id', s.id, 'segments'] as const)];
  for (const [param, id, member] of labels) {
    const holding = (r: Rec) => r[member].includes(id);
    for (const [path, key, type] of [['/users', 'users', 'user'], ['/contacts', 'contacts', 'contact']] as const) {
      const want = d.customers.filter((c) => c.type === type && holding(c)).map((c) => c.id);
      expect(sorted(await allPages(m, `${path}?${param}=${id}`, key)), `${path}?${param}=${id}`).toEqual(sorted(want));
    }
    const companies = d.companies.filter((c) => holding(c) && people.has(c.id)).map((c) => c.id);
    expect(sorted(await allPages(m, `/companies?${param}=${id}`, 'companies')), `/companies?${param}=${id}`).toEqual(sorted(companies));
  }
  expect(sorted(await allPages(m, '/companies?order=asc', 'companies'))).toEqual(sorted(d.companies.filter((c) => people.has(c.id)).map((c) => c.id)));
  // A sorted list is the records sorted, whatever wrote them.
  const users = d.customers.filter((c) => c.type === 'user');
  const want = [...users].sort((a, b) => (a.last_request_at ?? -Infinity) - (b.last_request_at ?? -Infinity) || byId(a.id, b.id)).map((c) => c.id);
  expect(await allPages(m, '/users?sort=last_request_at&order=asc', 'users')).toEqual(want);
}

describe('tag and segment lists from the holders index', () => {
  it('always equal lists made from scratch', async () => {
    const m = mock({ rateLimit: 1_000_000 });
    await expectListsTrue(m);
    await m.call('POST', '/tags', { body: { name: 'VIP', users: [{ id: ADA, untag: true }, { id: LEAD }], companies: [{ id: ACME, untag: true }] } });
    await m.call('POST', '/tags', { body: { name: 'Fresh', users: [{ user_id: 'ada-1' }], companies: [{ company_id: 'globex' }] } });
    await m.call('POST', '/users', { body: { user_id: 'holder-1', update_last_request_at: true, companies: [{ company_id: 'brand-new' }] } });
    await m.call('PUT', '/visitors', { body: { user_id: VISITOR_USER_ID, email: 'visitor-now-lead@example.com' } });
    await m.call('POST', '/users', { body: { user_id: 'ada-1', companies: [{ company_id: 'acme', remove: true }] } });
    // The sorted indexes built by the first check were kept by these writes, not rebuilt.
    await expectListsTrue(m);
    await m.call('POST', '/users', { body: { user_id: 'grace-2', update_last_request_at: true, companies: [{ company_id: 'initech', remove: true }] } });
    await expectListsTrue(m);
    // A rejected write: one unknown entry, nothing changes.
    expect((await m.call('POST', '/tags', { body: { name: 'VIP', users: [{ id: ADA }, { id: 'nobody' }] } })).status).toBe(404);
    await expectListsTrue(m);
    await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'mid' } });
    const tags = (await m.call('GET', '/tags')).body.tags as { id: string; name: string }[];
    const deletable = tags.find((t) => t.name === 'Churn risk') as { id: string };
    expect((await m.call('DELETE', `/tags/${deletable.id}`)).status).toBe(200);
    await expectListsTrue(m);
    await m.call('POST', '/__admin/snapshots/mid/restore?app=demo', { token: null });
    await expectListsTrue(m);
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    await expectListsTrue(m);
  });
});
