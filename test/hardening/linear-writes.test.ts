// Writes cost time linear in what they carry and in the records they touch. Not timed: each request
// runs with the array scans (includes, indexOf, filter, ...) counted, every call adding its array's
// length, and the total must stay within a small multiple of the request's items plus the touched
// records' lists. A scan per item (the quadratic paths of issue 12) exceeds it a hundred times over.

import { afterEach, describe, expect, it } from 'vitest';
import type { FixtureInput } from '../../src/fixtures/fixture-doc.js';
import { checkContract } from '../contract.js';
import { mock, type TestMock } from '../helpers.js';

const SCANS = ['includes', 'indexOf', 'lastIndexOf', 'filter', 'some', 'every', 'find', 'findIndex'] as const;
type Scan = (typeof SCANS)[number];

let restore: (() => void) | undefined;
afterEach(() => restore?.());

/** Calls `method path` with every array scan counted; returns the response and the elements scanned. */
async function counted(m: TestMock, method: string, path: string, options: { body?: unknown } = {}) {
  let elements = 0;
  const originals = SCANS.map((name) => [name, Array.prototype[name]] as [Scan, (...args: unknown[]) => unknown]);
  restore = () => {
    for (const [name, fn] of originals) Object.defineProperty(Array.prototype, name, { value: fn, writable: true, configurable: true });
    restore = undefined;
  };
  for (const [name, fn] of originals) {
    Object.defineProperty(Array.prototype, name, {
      value(this: unknown[], ...args: unknown[]) {
        elements += this.length;
        return fn.apply(this, args);
      },
      writable: true,
      configurable: true,
    });
  }
  let res: Response;
  try {
    const body = options.body === undefined ? null : JSON.stringify(options.body);
    res = await m.app.request(path, { method, headers: { authorization: 'Bearer wide-token', 'content-type': 'application/json' }, body });
  } finally {
    restore();
  }
  // Parsed and checked against the OpenAPI document only once the counting is over.
  const body = (await res.json()) as any;
  checkContract(method, path, res.status, res.headers, body);
  return { res: { status: res.status, body }, elements };
}

const WIDE = 3000;
const hex = (prefix: string, n: number) => `${prefix}${n.toString(16).padStart(24 - prefix.length, '0')}`;
const companyId = (n: number) => hex('c0', n);
const tagId = (n: number) => String(100_000 + n);

/** An app whose records hold long lists: a user in 3000 companies, a user with 3000 tags, a visitor in the same 3000 companies. */
function wideApp(): TestMock {
  const m = mock();
  const companies = Array.from({ length: WIDE + 200 }, (_, i) => ({ id: companyId(i), company_id: `co-${i}` }));
  const inAll = Array.from({ length: WIDE }, (_, i) => companyId(i));
  const doc: FixtureInput = {
    app: { id: 'wide', tokens: ['wide-token'] },
    tags: Array.from({ length: WIDE }, (_, i) => ({ id: tagId(i), name: `t${i}` })),
    companies,
    customers: [
      { type: 'user', id: hex('a0', 1), user_id: 'wide-1', companies: inAll },
      { type: 'user', id: hex('a0', 2), user_id: 'wide-2', tags: Array.from({ length: WIDE }, (_, i) => tagId(i)) },
      { type: 'visitor', id: hex('a0', 3), user_id: 'visitor-3', companies: inAll },
    ],
  };
  m.store.seedApp(doc, 'replace');
  return m;
}

/** The budget: a few passes over what the request names and over the lists of the records it touches. */
const budget = (items: number, listed: number) => 8 * (items + listed);

describe('writes scan each list once, not once per item', () => {
  it('adds 100 companies to a user already in 3000: exactly those appended, in order', async () => {
    const m = wideApp();
    const added = Array.from({ length: 100 }, (_, i) => ({ company_id: `co-${WIDE + i}` }));
    const { res, elements } = await counted(m, 'POST', '/users', { body: { user_id: 'wide-1', companies: added } });
    expect(res.status).toBe(200);
    const ids = (res.body.companies.companies as { company_id: string }[]).map((c) => c.company_id);
    expect(ids).toEqual(Array.from({ length: WIDE + 100 }, (_, i) => `co-${i}`));
    expect(elements).toBeLessThan(budget(100, WIDE));
    const members = await m.call('GET', `/companies/${companyId(WIDE + 99)}/users`, { token: 'wide-token' });
    expect(members.body.users.map((u: { user_id: string }) => u.user_id)).toEqual(['wide-1']);
  });

  it('removes one company of 3000 and keeps the others, members updated on both sides', async () => {
    const m = wideApp();
    const { res, elements } = await counted(m, 'POST', '/users', { body: { user_id: 'wide-1', companies: [{ company_id: 'co-5', remove: true }] } });
    expect(res.status).toBe(200);
    const ids = (res.body.companies.companies as { company_id: string }[]).map((c) => c.company_id);
    expect(ids).toEqual(Array.from({ length: WIDE }, (_, i) => `co-${i}`).filter((x) => x !== 'co-5'));
    expect(elements).toBeLessThan(budget(1, WIDE));
    const left = await m.call('GET', `/companies/${companyId(5)}/users`, { token: 'wide-token' });
    expect(left.body.users).toEqual([]);
    const kept = await m.call('GET', `/companies/${companyId(6)}/users`, { token: 'wide-token' });
    expect(kept.body.users.map((u: { user_id: string }) => u.user_id)).toEqual(['wide-1']);
  });

  it('tags a user with 3000 tags, named 1000 times in one request, once', async () => {
    const m = wideApp();
    const users = Array.from({ length: 1000 }, () => ({ user_id: 'wide-2' }));
    const { res, elements } = await counted(m, 'POST', '/tags', { body: { name: 'fresh', users } });
    expect(res.status).toBe(200);
    expect(elements).toBeLessThan(budget(1000, WIDE));
    const user = await m.call('GET', `/users/${hex('a0', 2)}`, { token: 'wide-token' });
    const tags = (user.body.tags.tags as { id: string }[]).map((t) => t.id);
    expect(tags).toHaveLength(WIDE + 1);
    expect(tags.at(-1)).toBe(res.body.id);
  });

  it('merges a visitor in 3000 companies into a user in the same 3000: the union, once each', async () => {
    const m = wideApp();
    const body = { type: 'user', visitor: { user_id: 'visitor-3' }, user: { user_id: 'wide-1' } };
    const { res, elements } = await counted(m, 'POST', '/visitors/convert', { body });
    expect(res.status).toBe(200);
    const ids = (res.body.companies.companies as { company_id: string }[]).map((c) => c.company_id);
    expect(ids).toEqual(Array.from({ length: WIDE }, (_, i) => `co-${i}`));
    expect(elements).toBeLessThan(budget(2 * WIDE, 2 * WIDE));
  });
});

describe('the customer lifecycle scans a record\'s own lists once', () => {
  it('archives a user in 3000 companies, restores it and deletes it for good, each within a few passes over its lists', async () => {
    const m = wideApp();
    const archived = await counted(m, 'DELETE', '/users?user_id=wide-1');
    expect(archived.res.status).toBe(200);
    expect(archived.elements).toBeLessThan(budget(1, WIDE));
    expect((await m.call('GET', `/companies/${companyId(7)}/users`, { token: 'wide-token' })).body.users).toEqual([]);
    const restored = await counted(m, 'POST', '/users', { body: { user_id: 'wide-1' } });
    expect(restored.res.body.companies.companies).toHaveLength(WIDE);
    expect(restored.elements).toBeLessThan(budget(1, WIDE));
    const deleted = await counted(m, 'POST', '/user_delete_requests', { body: { intercom_user_id: hex('a0', 1) } });
    expect(deleted.res.body).toEqual({ id: 1 });
    expect(deleted.elements).toBeLessThan(budget(1, WIDE));
    expect((await m.call('GET', `/companies/${companyId(7)}`, { token: 'wide-token' })).body.user_count).toBe(0);
  });

  it('merges a lead into a user with 3000 tags: the union, once each', async () => {
    const m = wideApp();
    const lead = (await m.call('POST', '/contacts', { token: 'wide-token', body: { name: 'Wide lead' } })).body;
    const tags = await m.call('POST', '/tags', { token: 'wide-token', body: { name: 'lead-tag', users: [{ id: lead.id }] } });
    expect(tags.status).toBe(200);
    const { res, elements } = await counted(m, 'POST', '/contacts/convert', { body: { contact: { id: lead.id }, user: { user_id: 'wide-2' } } });
    expect(res.status).toBe(200);
    expect(res.body.tags.tags).toHaveLength(WIDE + 1);
    expect(elements).toBeLessThan(budget(2 * WIDE, 2 * WIDE));
  });
});

const CROWD = 3000;
const CROWDED = companyId(0);

/** An app whose one company already holds `size` users (and a visitor, listed nowhere), joined in creation order. */
function crowdedApp(size = CROWD): TestMock {
  const m = mock();
  const customers: NonNullable<FixtureInput['customers']> = Array.from({ length: size }, (_, i) => ({ type: 'user', id: hex('a0', i), user_id: `member-${i}`, created_at: 1_500_000_000 + i, companies: [CROWDED] }));
  customers.push({ type: 'visitor', id: hex('b0', 1), user_id: 'visitor-1', created_at: 1_500_000_000, companies: [CROWDED] });
  m.store.seedApp({ app: { id: 'wide', tokens: ['wide-token'], rate_limit_per_minute: 1_000_000 }, companies: [{ id: CROWDED, company_id: 'crowded' }], customers }, 'replace');
  return m;
}

/** Well under one pass over the members: what any such request scans of its own body and records. */
const UNDER_ONE_PASS = CROWD / 4;

const userIds = (res: { body: { users: { user_id: string }[] } }) => res.body.users.map((u) => u.user_id);

describe('a company of thousands costs nothing per member', () => {
  it('lets a user join, leave and rejoin without reading the members, and lists them in join order', async () => {
    const m = crowdedApp();
    const join = { user_id: 'newcomer', companies: [{ company_id: 'crowded' }] };
    const joined = await counted(m, 'POST', '/users', { body: join });
    expect(joined.res.status).toBe(200);
    expect(joined.elements).toBeLessThan(UNDER_ONE_PASS);
    const left = await counted(m, 'POST', '/users', { body: { user_id: 'member-5', companies: [{ company_id: 'crowded', remove: true }] } });
    expect(left.res.status).toBe(200);
    expect(left.elements).toBeLessThan(UNDER_ONE_PASS);
    // Rejoining goes last; the count is the company's users, the visitor not among them.
    const rejoined = await counted(m, 'POST', '/users', { body: { user_id: 'member-0', companies: [{ company_id: 'crowded', remove: true }] } });
    expect(rejoined.res.status).toBe(200);
    expect(rejoined.elements).toBeLessThan(UNDER_ONE_PASS);
    expect((await m.call('POST', '/users', { token: 'wide-token', body: { user_id: 'member-0', companies: [{ company_id: 'crowded' }] } })).status).toBe(200);
    const company = await m.call('GET', `/companies/${CROWDED}`, { token: 'wide-token' });
    expect(company.body.user_count).toBe(CROWD);
    const first = await counted(m, 'GET', `/companies/${CROWDED}/users?per_page=3`);
    expect(first.elements).toBeLessThan(UNDER_ONE_PASS);
    expect(userIds(first.res)).toEqual(['member-1', 'member-2', 'member-3']);
    expect(first.res.body.total_count).toBe(CROWD);
    const last = await m.call('GET', `/companies/${CROWDED}/users?per_page=3&page=${CROWD / 3}`, { token: 'wide-token' });
    expect(userIds(last)).toEqual([`member-${CROWD - 1}`, 'newcomer', 'member-0']);
    const sixth = await m.call('GET', `/companies/${CROWDED}/users?per_page=3&page=2`, { token: 'wide-token' });
    expect(userIds(sixth)).toEqual(['member-4', 'member-6', 'member-7']);
  });

  it('keeps each version its own join order when a snapshot, its restores and a reset share the members', async () => {
    const m = crowdedApp();
    const joinAs = (userId: string) => m.call('POST', '/users', { token: 'wide-token', body: { user_id: userId, companies: [{ company_id: 'crowded' }] } });
    const tail = async () => userIds(await m.call('GET', `/companies/${CROWDED}/users?per_page=2&page=${CROWD / 2 + 1}`, { token: 'wide-token' }));
    expect((await joinAs('a')).status).toBe(200);
    expect((await m.call('POST', '/__admin/snapshots?app=wide', { token: null, body: { name: 'after-a' } })).status).toBe(201);
    expect((await joinAs('b')).status).toBe(200);
    expect(await tail()).toEqual(['a', 'b']);
    expect((await m.call('POST', '/__admin/snapshots/after-a/restore?app=wide', { token: null })).status).toBe(200);
    expect((await joinAs('c')).status).toBe(200);
    expect(await tail()).toEqual(['a', 'c']);
    expect((await m.call('POST', '/__admin/snapshots/after-a/restore?app=wide', { token: null })).status).toBe(200);
    expect(await tail()).toEqual(['a']);
    expect((await joinAs('d')).status).toBe(200);
    expect(await tail()).toEqual(['a', 'd']);
    expect((await m.call('POST', '/__admin/reset?app=wide', { token: null })).status).toBe(200);
    expect((await joinAs('e')).status).toBe(200);
    expect(await tail()).toEqual(['e']);
  });

  it('keeps the order through most members leaving and some rejoining (the join log compacted on the way)', async () => {
    const size = 200;
    const m = crowdedApp(size);
    const move = (n: number, remove: boolean) => m.call('POST', '/users', { token: 'wide-token', body: { user_id: `member-${n}`, companies: [{ company_id: 'crowded', remove }] } });
    for (let n = 0; n < 60; n++) expect((await move(n, true)).status).toBe(200);
    // member-7 leaves twice before the log is compacted, so two of its entries are dead at once.
    expect((await move(7, false)).status).toBe(200);
    expect((await move(7, true)).status).toBe(200);
    for (let n = 60; n < size - 2; n++) if (n % 50 !== 0) expect((await move(n, true)).status).toBe(200);
    expect((await move(3, false)).status).toBe(200);
    const expected = [...Array.from({ length: size - 60 }, (_, i) => 60 + i).filter((n) => n % 50 === 0 || n >= size - 2), 3].map((n) => `member-${n}`);
    const listed = await m.call('GET', `/companies/${CROWDED}/users?per_page=60`, { token: 'wide-token' });
    expect(listed.body.total_count).toBe(expected.length);
    expect(userIds(listed)).toEqual(expected);
    // Marks of who left stay within the log's entries (under 32 here, a log too short to compact),
    // not one per leave ever made (196).
    expect(m.store.app('wide')?.data.memberSeqs.size).toBeLessThan(32);
  });

  it('lets leads take and give up an email 3000 others share without reading them, and still finds them all', async () => {
    const m = mock();
    const customers: NonNullable<FixtureInput['customers']> = Array.from({ length: CROWD }, (_, i) => ({ type: 'contact', id: hex('a0', i), user_id: `lead-${i}`, email: 'shared@example.com', created_at: 1_500_000_000 + i }));
    m.store.seedApp({ app: { id: 'wide', tokens: ['wide-token'] }, customers }, 'replace');
    // The process's first POST /contacts compiles its body schema (ajv scans arrays of its own): not counted.
    expect((await m.call('POST', '/contacts', { token: 'wide-token', body: { email: 'first@example.com' } })).status).toBe(200);
    const taken = await counted(m, 'POST', '/contacts', { body: { email: 'Shared@Example.com' } });
    expect(taken.res.status).toBe(200);
    expect(taken.elements).toBeLessThan(UNDER_ONE_PASS);
    const given = await counted(m, 'POST', '/contacts', { body: { user_id: 'lead-7', email: 'own@example.com' } });
    expect(given.res.status).toBe(200);
    expect(given.elements).toBeLessThan(UNDER_ONE_PASS);
    expect((await m.call('POST', '/contacts', { token: 'wide-token', body: { user_id: 'lead-7', email: 'shared@example.com' } })).status).toBe(200);
    const listed = await m.call('GET', '/contacts?email=shared@example.com&per_page=2&page=1501', { token: 'wide-token' });
    expect(listed.body.total_count).toBe(CROWD + 1);
    expect(listed.body.contacts.map((c: { id: string }) => c.id)).toEqual([taken.res.body.id]);
    const seventh = await m.call('GET', '/contacts?email=shared@example.com&per_page=3&page=3', { token: 'wide-token' });
    expect(seventh.body.contacts.map((c: { user_id: string }) => c.user_id)).toEqual(['lead-6', 'lead-7', 'lead-8']);
    const own = await m.call('GET', '/contacts?email=own@example.com', { token: 'wide-token' });
    expect(own.body.contacts).toEqual([]);
  });
});
