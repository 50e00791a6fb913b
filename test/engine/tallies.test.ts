// The counts come from running tallies kept by every write; this checks them against a count made
// from scratch over the exported state, after writes of every kind, a rollback, a restore and a reset.

import { describe, expect, it } from 'vitest';
import { mock } from '../helpers.js';

type M = ReturnType<typeof mock>;

async function fromScratch(m: M) {
  const d = JSON.parse((await m.call('GET', '/__admin/state?app=demo', { token: null })).text);
  const users = d.customers.filter((c: any) => c.type === 'user');
  // User tag and segment counts are over users and leads (surface Q3/Q4).
  const people = d.customers.filter((c: any) => c.type !== 'visitor');
  const count = (records: any[], key: string, id: string) => records.filter((r) => r[key].includes(id)).length;
  return {
    totals: { company: d.companies.length, segment: d.segments.length, tag: d.tags.length, user: users.length, lead: d.customers.filter((c: any) => c.type === 'contact').length },
    userTags: d.tags.map((t: any) => ({ [t.name]: count(people, 'tags', t.id) })),
    userSegments: d.segments.filter((s: any) => s.person_type === 'user').map((s: any) => ({ [s.name]: count(people, 'segments', s.id) })),
    companyTags: d.tags.map((t: any) => ({ [t.name]: count(d.companies, 'tags', t.id) })),
    companySegments: d.segments.filter((s: any) => s.person_type === 'company').map((s: any) => ({ [s.name]: count(d.companies, 'segments', s.id) })),
    companyUsers: d.companies.map((co: any) => ({
      [co.name]: d.customers.filter((c: any) => c.type !== 'visitor' && c.companies.includes(co.id)).length,
      remote_company_id: co.company_id,
    })),
  };
}

async function served(m: M) {
  const get = async (q: string) => (await m.call('GET', `/counts${q}`)).body;
  const allTagPages = async () => {
    const out: unknown[] = [];
    let url: string | undefined = '/counts?type=company&count=tag&per_page=60';
    while (url) {
      const body: any = (await m.call('GET', url)).body;
      out.push(...body.company.tag);
      url = body.pages.pages.next;
    }
    return out;
  };
  const totals = await get('');
  return {
    totals: { company: totals.company.count, segment: totals.segment.count, tag: totals.tag.count, user: totals.user.count, lead: totals.lead.count },
    userTags: (await get('?type=user&count=tag')).user.tag,
    userSegments: (await get('?type=user&count=segment')).user.segment,
    companyTags: await allTagPages(),
    companySegments: (await get('?type=company&count=segment')).company.segment,
    companyUsers: (await get('?type=company&count=user')).company.user,
  };
}

describe('counts from running tallies', () => {
  it('always equal a count made from scratch', async () => {
    const m = mock({ rateLimit: 1_000_000 });
    const check = async () => expect(await served(m)).toEqual(await fromScratch(m));
    await check();
    await m.call('POST', '/users', { body: { user_id: 'tally-1', email: 't1@example.com', companies: [{ company_id: 'acme' }, { company_id: 'fresh-co', name: 'Fresh' }] } });
    await m.call('POST', '/tags', { body: { name: 'VIP', users: [{ user_id: 'tally-1' }, { user_id: 'grace-2' }], companies: [{ company_id: 'fresh-co' }] } });
    await m.call('POST', '/tags', { body: { name: 'VIP', users: [{ user_id: 'ada-1', untag: true }] } });
    await m.call('POST', '/tags', { body: { name: 'Brand new', companies: [{ company_id: 'acme' }] } });
    await m.call('POST', '/users', { body: { user_id: 'tally-1', companies: [{ company_id: 'acme', remove: true }] } });
    await m.call('POST', '/contacts', { body: { email: 'lead-tally@example.com', companies: [{ company_id: 'globex' }] } });
    await m.call('PUT', '/visitors', { body: { id: '5714dd359a3fd47136000009', email: 'was-visitor@example.com' } });
    await m.call('POST', '/visitors/convert', { body: { type: 'user', visitor: { id: '5714dd359a3fd4713600000a' }, user: { user_id: 'from-visitor' } } });
    await check();
    await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 's' } });
    const snapshot = await served(m);
    await m.call('POST', '/tags', { body: { name: 'Later', users: [{ user_id: 'grace-2' }] } });
    await m.call('POST', '/__admin/snapshots/s/restore?app=demo', { token: null });
    expect(await served(m)).toEqual(snapshot);
    await check();
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    await check();
  });

  it('roll back with a rejected write', async () => {
    const m = mock({ rateLimit: 1_000_000, limits: { customers: mock().store.app('demo')!.data.customers.size } });
    const before = await served(m);
    const res = await m.call('POST', '/users', { body: { user_id: 'over', companies: [{ company_id: 'acme' }] } });
    expect(res.status).toBe(403);
    expect(await served(m)).toEqual(before);
  });
});
