import { describe, expect, it } from 'vitest';
import { countResponseSchema } from '../../../src/resources/counts/shapes.js';
import { validate } from '../../../src/schemas/validate.js';
import { errorCodes, mock, type TestMock } from '../../helpers.js';
import { ADA } from '../../fixture-ids.js';

const APP = { id: 'demo', tokens: ['demo-token'] };

/** `query` is a query string for /counts, or a URL (such as a `next` link) followed as it is. */
const counts = async (m: TestMock, query: string) => {
  const res = await m.call('GET', query.startsWith('http') ? query : `/counts${query}`);
  expect(res.status).toBe(200);
  expect(validate(countResponseSchema, res.body)).toEqual([]);
  return res.body;
};
/** `[{VIP: 3}, ...]` as a map; every element holds exactly one name. */
const asMap = (entries: Record<string, number>[]) => Object.fromEntries(entries.map((e) => Object.entries(e)[0] as [string, number]));

/** Adds tags until the app holds `total` (5 are seeded). */
async function seedTags(m: TestMock, total: number) {
  const tags = Array.from({ length: total - 5 }, (_, i) => ({ id: String(90000 + i), name: `bulk-${String(i).padStart(2, '0')}` }));
  const res = await m.call('POST', '/__admin/seed?mode=merge', { body: { app: APP, tags } });
  expect(res.status).toBe(200);
}

describe('GET /counts with no parameters', () => {
  it('answers the app totals as a count.hash', async () => {
    const m = mock();
    const body = await counts(m, '');
    const exported = JSON.parse((await m.call('GET', '/__admin/state?app=demo')).text);
    const ofType = (t: string) => exported.customers.filter((c: { type: string }) => c.type === t).length;
    expect(body).toEqual({
      type: 'count.hash',
      company: { count: exported.companies.length },
      segment: { count: 4 },
      tag: { count: 5 },
      user: { count: ofType('user') },
      lead: { count: ofType('contact') },
    });
  });

  it('follows writes: a new tag and a new lead are counted at once', async () => {
    const m = mock();
    const before = await counts(m, '');
    await m.call('POST', '/tags', { body: { name: 'Counted' } });
    await m.call('POST', '/conversations/5714dd359a3fd47136000501/customers', { body: { admin_id: '814860', customer: { email: 'newcomer@example.com' } } });
    const after = await counts(m, '');
    expect(after.tag.count).toBe(before.tag.count + 1);
    expect(after.lead.count).toBe(before.lead.count + 1);
    expect(after.user.count).toBe(before.user.count);
  });
});

describe('GET /counts?type=company&count=tag', () => {
  it('answers one {name: companies} element per tag with pages nested at pages.pages', async () => {
    const m = mock();
    const body = await counts(m, '?type=company&count=tag');
    expect(Object.keys(body)).toEqual(['type', 'company', 'pages']);
    expect(Object.keys(body.company)).toEqual(['tag']);
    expect(body.company.tag.map((e: object) => Object.keys(e)[0])).toEqual(['VIP', 'Churn risk', 'Beta tester', 'Enterprise', 'needs follow-up!']);
    expect(body.pages).toEqual({ pages: { type: 'pages', page: 1, per_page: 50, total_pages: 1, next: null } });
  });

  it('counts a company tagged through POST /tags and uncounts it when untagged', async () => {
    const m = mock();
    const vip = async () => asMap((await counts(m, '?type=company&count=tag')).company.tag).VIP as number;
    const start = await vip();
    await m.call('POST', '/tags', { body: { name: 'VIP', companies: [{ company_id: 'initech' }] } });
    expect(await vip()).toBe(start + 1);
    await m.call('POST', '/tags', { body: { name: 'VIP', companies: [{ company_id: 'initech', untag: true }, { company_id: 'acme', untag: true }] } });
    expect(await vip()).toBe(start - 1);
  });

  it('shows a renamed tag under its new name', async () => {
    const m = mock();
    const vip = asMap((await counts(m, '?type=company&count=tag')).company.tag).VIP;
    await m.call('POST', '/tags', { body: { id: '17513', name: 'Very important' } });
    const map = asMap((await counts(m, '?type=company&count=tag')).company.tag);
    expect(map['Very important']).toBe(vip);
    expect(map.VIP).toBeUndefined();
  });

  it('fits exactly 50 tags on one page, with a null next link', async () => {
    const m = mock();
    await seedTags(m, 50);
    const body = await counts(m, '?type=company&count=tag');
    expect(body.company.tag).toHaveLength(50);
    expect(body.pages.pages).toEqual({ type: 'pages', page: 1, per_page: 50, total_pages: 1, next: null });
  });

  it('puts the 51st tag on a second page reached by following next, which is null there', async () => {
    const m = mock();
    await seedTags(m, 51);
    const first = await counts(m, '?type=company&count=tag');
    expect(first.company.tag).toHaveLength(50);
    expect(first.pages.pages).toMatchObject({ page: 1, per_page: 50, total_pages: 2 });
    const next = new URL(first.pages.pages.next);
    expect(next.origin).toBe('http://localhost');
    expect(Object.fromEntries(next.searchParams)).toEqual({ type: 'company', count: 'tag', page: '2' });
    const second = await counts(m, first.pages.pages.next);
    expect(second.company.tag).toEqual([{ 'bulk-45': 0 }]);
    expect(second.pages.pages).toEqual({ type: 'pages', page: 2, per_page: 50, total_pages: 2, next: null });
  });

  it('builds next from the request\'s own origin', async () => {
    const m = mock({ guard: { allowedHosts: ['mock.example.test'] } });
    await seedTags(m, 51);
    const res = await m.app.request('https://mock.example.test:8443/counts?type=company&count=tag', {
      headers: { authorization: 'Bearer demo-token', accept: 'application/json' },
    });
    const body = (await res.json()) as any;
    expect(body.pages.pages.next).toBe('https://mock.example.test:8443/counts?type=company&count=tag&page=2');
  });

  it('walks every page with per_page, carrying per_page in each next link', async () => {
    const m = mock();
    await seedTags(m, 12);
    const all = (await counts(m, '?type=company&count=tag')).company.tag;
    const seen: unknown[] = [];
    let url: string | undefined = '?type=company&count=tag&per_page=5';
    let pagesSeen = 0;
    while (url) {
      const body = await counts(m, url);
      pagesSeen++;
      expect(body.pages.pages).toMatchObject({ page: pagesSeen, per_page: 5, total_pages: 3 });
      seen.push(...body.company.tag);
      url = body.pages.pages.next;
      if (url) expect(new URL(url).searchParams.get('per_page')).toBe('5');
    }
    expect(pagesSeen).toBe(3);
    expect(seen).toEqual(all);
  });

  it('answers an empty page past the last one, with a null next', async () => {
    const m = mock();
    const body = await counts(m, '?type=company&count=tag&page=3');
    expect(body.company.tag).toEqual([]);
    expect(body.pages.pages).toEqual({ type: 'pages', page: 3, per_page: 50, total_pages: 1, next: null });
  });
});

describe('GET /counts?type=company&count=segment|user', () => {
  it('counts companies per company segment only, with an empty pages object', async () => {
    const m = mock();
    const body = await counts(m, '?type=company&count=segment');
    expect(body.pages).toEqual({});
    expect(body.company.segment.map((e: object) => Object.keys(e)[0])).toEqual(['Enterprise accounts', 'Trialing']);
    const exported = JSON.parse((await m.call('GET', '/__admin/state?app=demo')).text);
    const inTrialing = exported.companies.filter((c: { segments: string[] }) => c.segments.includes('5714dd359a3fd47136000904')).length;
    expect(asMap(body.company.segment).Trialing).toBe(inTrialing);
  });

  it('answers one element per company with its users and leads and remote_company_id', async () => {
    const m = mock();
    const body = await counts(m, '?type=company&count=user');
    expect(body.pages).toEqual({});
    const initech = body.company.user.find((e: { remote_company_id: string }) => e.remote_company_id === 'initech');
    expect(Object.keys(initech).sort()).toEqual(['Initech', 'remote_company_id']);
    const exported = JSON.parse((await m.call('GET', '/__admin/state?app=demo')).text);
    const members = exported.customers.filter(
      (c: { type: string; companies: string[] }) => c.type !== 'visitor' && c.companies.includes('5714dd359a3fd47136000103'),
    ).length;
    expect(initech.Initech).toBe(members);
  });

  it('follows a customer joining a company', async () => {
    const m = mock();
    const initech = async () =>
      (await counts(m, '?type=company&count=user')).company.user.find((e: { remote_company_id: string }) => e.remote_company_id === 'initech').Initech;
    const start = await initech();
    const newcomer = { id: '5714dd359a3fd4713600aaaa', type: 'user', user_id: 'newcomer', companies: ['5714dd359a3fd47136000103'] };
    await m.call('POST', '/__admin/seed?mode=merge', { body: { app: APP, customers: [newcomer] } });
    expect(await initech()).toBe(start + 1);
  });
});

describe('GET /counts?type=user', () => {
  it('counts users and leads per tag with no pages member, following tagging', async () => {
    const m = mock();
    const body = await counts(m, '?type=user&count=tag');
    expect(Object.keys(body)).toEqual(['type', 'user']);
    const before = asMap(body.user.tag);
    await m.call('POST', '/tags', { body: { name: 'Beta tester', users: [{ id: ADA }] } });
    await m.call('POST', '/tags', { body: { name: 'Beta tester', users: [{ id: '5714dd359a3fd47136000007' }] } });
    const after = asMap((await counts(m, '?type=user&count=tag')).user.tag);
    // "Count Object includes count for users and leads": the lead counts too.
    expect(after['Beta tester']).toBe((before['Beta tester'] as number) + 2);
  });

  it('counts users per user segment only', async () => {
    const m = mock();
    const body = await counts(m, '?type=user&count=segment');
    expect(body.user.segment.map((e: object) => Object.keys(e)[0])).toEqual(['Active', 'New']);
  });
});

describe('GET /counts errors', () => {
  it.each([
    ['?count=tag', 'type'],
    ['?type=company', 'count'],
    ['?type=&count=tag', 'type'],
    ['?type=company&count=', 'count'],
  ])('answers 400 parameter_not_found for %s', async (query, field) => {
    const m = mock();
    const res = await m.call('GET', `/counts${query}`);
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_not_found']);
    expect(res.body.errors[0].field).toBe(field);
  });

  it.each([
    ['?type=companies&count=tag', "bad 'type' parameter: use company, user or conversation"],
    ['?type=company&count=tags', "bad 'count' parameter: with type=company use segment, tag or user"],
    ['?type=user&count=user', "bad 'count' parameter: with type=user use segment or tag"],
  ])('answers 400 bad_request for %s', async (query, message) => {
    const m = mock();
    const res = await m.call('GET', `/counts${query}`);
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['bad_request']);
    expect(res.body.errors[0].message).toBe(message);
  });

  it.each(['per_page=ten', 'per_page=2.5', 'per_page=0', 'per_page=61', 'page=0', 'page=x'])(
    'answers 400 parameter_invalid for %s',
    async (param) => {
      const m = mock();
      const res = await m.call('GET', `/counts?type=company&count=tag&${param}`);
      expect(res.status).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_invalid']);
      expect(res.body.errors[0].field).toBe(param.split('=')[0]);
    },
  );
});
