// Many simultaneous requests against one app. Each request awaits its body before the handler
// runs, so a burst really interleaves; a mutation must not leave a gap in which another one runs.

import { describe, expect, it } from 'vitest';
import { errorCodes, mock, type CallResult, type TestMock } from '../helpers.js';
import { ACME, GROUP, VISITOR } from '../fixture-ids.js';

const ADMIN = '814860';
const N = 200;

const burst = (n: number, send: (i: number) => Promise<CallResult>) => Promise.all(Array.from({ length: n }, (_, i) => send(i)));
const statuses = (results: CallResult[]) => results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
const totals = async (m: TestMock) => (await m.call('GET', '/counts')).body as Record<string, { count: number }>;
const wide = () => mock({ rateLimit: 1_000_000_000 });

describe('simultaneous writes to one app', () => {
  it(`${N} parallel POST /users with one new email make exactly one user, and every answer is that user`, async () => {
    const m = wide();
    const before = await totals(m);
    const results = await burst(N, (i) => m.call('POST', '/users', { body: { email: i % 2 ? 'Same@Example.com' : 'same@example.com', name: `try ${i}` } }));
    expect(statuses(results)).toEqual({ 200: N });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const list = await m.call('GET', '/users?email=same@example.com');
    expect(list.body.total_count).toBe(1);
    expect(list.body.users[0].id).toBe(results[0]?.body.id);
    // The last write wins, as the writes were applied one after the other.
    expect(list.body.users[0].name).toBe(`try ${N - 1}`);
    const after = await totals(m);
    expect(after.user?.count).toBe((before.user?.count ?? 0) + 1);
    expect((await m.call('GET', '/users?per_page=1')).body.total_count).toBe(after.user?.count);
  });

  it(`${N} parallel POST /users with one new user_id make exactly one user`, async () => {
    const m = wide();
    const before = await totals(m);
    const results = await burst(N, (i) => m.call('POST', '/users', { body: { user_id: 'same-user', custom_attributes: { attempt: i } } }));
    expect(statuses(results)).toEqual({ 200: N });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await m.call('GET', '/users?user_id=same-user')).status).toBe(200);
    expect((await totals(m)).user?.count).toBe((before.user?.count ?? 0) + 1);
  });

  it(`${N} parallel creations of distinct users all succeed with distinct ids, and counts add up`, async () => {
    const m = wide();
    const before = await totals(m);
    const results = await burst(N, (i) => m.call('POST', '/users', { body: { user_id: `parallel-${i}`, email: `parallel-${i}@example.com`, companies: [{ company_id: 'parallel-co' }] } }));
    expect(statuses(results)).toEqual({ 200: N });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(N);
    for (const i of [0, 1, N / 2, N - 1]) {
      const found = await m.call('GET', `/users?email=parallel-${i}@example.com`);
      expect(found.body.users.map((u: any) => u.user_id)).toEqual([`parallel-${i}`]);
    }
    expect((await totals(m)).user?.count).toBe((before.user?.count ?? 0) + N);
    // One company, created once, with every user in it.
    const company = await m.call('GET', '/companies?company_id=parallel-co');
    expect(company.body.user_count).toBe(N);
    expect((await totals(m)).company?.count).toBe((before.company?.count ?? 0) + 1);
  });

  it(`${N} parallel POST /contacts make ${N} leads with distinct ids and user_ids`, async () => {
    const m = wide();
    const before = await totals(m);
    const results = await burst(N, () => m.call('POST', '/contacts'));
    expect(statuses(results)).toEqual({ 200: N });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(N);
    expect(new Set(results.map((r) => r.body.user_id)).size).toBe(N);
    expect((await totals(m)).lead?.count).toBe((before.lead?.count ?? 0) + N);
  });

  it('parallel tagging of one company with one tag creates the tag once and counts the company once', async () => {
    const m = wide();
    const results = await burst(100, () => m.call('POST', '/tags', { body: { name: 'Parallel', companies: [{ id: ACME }] } }));
    expect(statuses(results)).toEqual({ 200: 100 });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await m.call('GET', '/tags')).body.tags.filter((t: any) => t.name === 'Parallel')).toHaveLength(1);
    const counts = (await m.call('GET', '/counts?type=company&count=tag')).body.company.tag as Record<string, number>[];
    expect(counts.find((e) => 'Parallel' in e)).toEqual({ Parallel: 1 });
    expect((await m.call('GET', `/companies/${ACME}`)).body.tags.tags.filter((t: any) => t.name === 'Parallel')).toHaveLength(1);
  });

  it('parallel tagging of one company with 50 different tags loses none of them', async () => {
    const m = wide();
    const before = (await m.call('GET', `/companies/${ACME}`)).body.tags.tags.length as number;
    const results = await burst(50, (i) => m.call('POST', '/tags', { body: { name: `Wave ${i}`, companies: [{ company_id: 'acme' }] } }));
    expect(statuses(results)).toEqual({ 200: 50 });
    const tags = (await m.call('GET', `/companies/${ACME}`)).body.tags.tags.map((t: any) => t.name);
    expect(tags).toHaveLength(before + 50);
    for (let i = 0; i < 50; i++) expect(tags).toContain(`Wave ${i}`);
    const counts = (await m.call('GET', '/counts?type=company&count=tag&per_page=60')).body.company.tag as Record<string, number>[];
    expect(counts.filter((e) => Object.keys(e)[0]?.startsWith('Wave ')).map((e) => Object.values(e)[0])).toEqual(Array(50).fill(1));
  });

  it('parallel tag and untag of many users with one tag leaves exactly the tagged ones counted', async () => {
    const m = wide();
    const users = await burst(40, (i) => m.call('POST', '/users', { body: { user_id: `tagged-${i}` } }));
    const results = await burst(80, (i) =>
      // Every user is tagged once; the odd ones are also untagged (in either order of arrival).
      m.call('POST', '/tags', { body: { name: 'Flip', users: [{ id: users[i % 40]?.body.id, ...(i >= 40 && i % 2 ? { untag: true } : {}) }] } }),
    );
    expect(statuses(results)).toEqual({ 200: 80 });
    const counts = (await m.call('GET', '/counts?type=user&count=tag')).body.user.tag as Record<string, number>[];
    const tagged = await burst(40, (i) => m.call('GET', `/users/${users[i]?.body.id}`));
    const holding = tagged.filter((r) => r.body.tags.tags.some((t: any) => t.name === 'Flip')).length;
    expect(counts.find((e) => 'Flip' in e)).toEqual({ Flip: holding });
    // Each even user was only ever tagged; an odd user's state is whichever request came last.
    for (let i = 0; i < 40; i += 2) expect(tagged[i]?.body.tags.tags.map((t: any) => t.name)).toContain('Flip');
  });

  it('parallel replies to one conversation stop at exactly 60 parts a minute, with distinct part ids', async () => {
    const m = wide();
    const before = (await m.call('GET', `/conversations/${GROUP}`)).body.conversation_parts.total_count as number;
    const results = await burst(100, (i) => m.call('POST', `/conversations/${GROUP}/reply`, { body: { type: 'admin', admin_id: ADMIN, message_type: 'note', body: `note ${i}` } }));
    expect(statuses(results)).toEqual({ 200: 60, 429: 40 });
    for (const r of results.filter((x) => x.status === 429)) expect(errorCodes(r)).toEqual(['rate_limit_exceeded']);
    const parts = (await m.call('GET', `/conversations/${GROUP}`)).body.conversation_parts.conversation_parts as { id: string; body: string }[];
    expect(parts).toHaveLength(before + 60);
    expect(new Set(parts.map((p) => p.id)).size).toBe(parts.length);
  });

  it('parallel conversions of one visitor into a lead convert it once; the others find no visitor', async () => {
    const m = wide();
    const before = await totals(m);
    const results = await burst(20, () => m.call('POST', '/visitors/convert', { body: { type: 'lead', visitor: { id: VISITOR } } }));
    expect(statuses(results)).toEqual({ 200: 1, 404: 19 });
    expect((await totals(m)).lead?.count).toBe((before.lead?.count ?? 0) + 1);
    expect((await m.call('GET', `/contacts/${VISITOR}`)).body.type).toBe('contact');
  });

  it('parallel additions of one new email to a conversation create one lead and add it once', async () => {
    const m = wide();
    const before = await totals(m);
    const results = await burst(30, () => m.call('POST', `/conversations/${GROUP}/customers`, { body: { admin_id: ADMIN, customer: { email: 'joiner@example.com' } } }));
    expect(statuses(results)).toEqual({ 200: 30 });
    expect((await m.call('GET', '/contacts?email=joiner@example.com')).body.total_count).toBe(1);
    expect((await totals(m)).lead?.count).toBe((before.lead?.count ?? 0) + 1);
    const customers = (await m.call('GET', `/conversations/${GROUP}`)).body.customers as { id: string }[];
    expect(new Set(customers.map((c) => c.id)).size).toBe(customers.length);
  });
});

describe('the rate limit under a burst', () => {
  it('lets exactly floor(limit/6) of a mixed burst through in one window, whatever the endpoints and outcomes', async () => {
    const m = mock(); // demo: 500/min → 83 per window
    const before = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
    m.clock.advance(10); // a fresh window, the state read above having been free
    const sends: ((i: number) => Promise<CallResult>)[] = [
      () => m.call('GET', '/users?per_page=1'),
      (i) => m.call('POST', '/users', { body: { user_id: `burst-${i}` } }),
      () => m.call('GET', '/counts'),
      (i) => m.call('POST', '/tags', { body: { name: `Burst ${i}`, companies: [{ id: ACME }] } }),
      () => m.call('GET', `/conversations/${GROUP}?display_as=plaintext`),
      () => m.call('POST', '/users', { body: {} }), // 400: counted all the same
      () => m.call('GET', '/users/no-such-user'), // 404: counted all the same
      () => m.call('POST', '/companies', { raw: '{', headers: { 'content-type': 'application/json' } }), // 400
    ];
    const results = await burst(160, (i) => (sends[i % sends.length] as (i: number) => Promise<CallResult>)(i));
    const limited = results.filter((r) => r.status === 429);
    expect(results.length - limited.length).toBe(83);
    for (const r of limited) {
      expect(errorCodes(r)).toEqual(['rate_limit_exceeded']);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    // Writes refused by the limit changed nothing: only the allowed ones are in the state.
    const created = results.filter((r, i) => i % sends.length === 1 && r.status === 200).length;
    m.clock.advance(10);
    const users = (await m.call('GET', '/users?per_page=1')).body.total_count as number;
    expect(users).toBe(JSON.parse(before).customers.filter((c: any) => c.type === 'user').length + created);
  });

  it('keeps each app\'s allowance separate inside one interleaved burst (demo 83, other 20)', async () => {
    const m = mock();
    const results = await burst(300, (i) => m.call('GET', i % 3 === 0 ? '/tags' : '/admins', { token: i % 2 ? 'other-token' : 'demo-token' }));
    const ok = (token: number) => results.filter((r, i) => i % 2 === token && r.status === 200).length;
    expect(ok(0)).toBe(83);
    expect(ok(1)).toBe(20);
  });
});
