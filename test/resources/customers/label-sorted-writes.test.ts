// A list by tag that is sorted (users) or always sorted (companies) reads an index built on its
// first read and then kept by the writes (customers/indexes.ts tells the index of every tag and segment a
// record held or holds). Each list is read before the writes, so the index exists, and after each,
// so a write that forgets to tell it shows as a stale answer.

import { describe, expect, it } from 'vitest';
import { ALPHA, BETA, CATALOG, catalogMock, GAMMA, get, idsOf, L1, TOKEN, U1, U2, U3, V1 } from './catalog-fixture.js';
import type { TestMock } from '../../helpers.js';

const usersByTag = async (m: TestMock) => idsOf((await get(m, '/users?tag_id=1&sort=created_at')).body.users);
const companiesByTag = async (m: TestMock) => idsOf((await get(m, '/companies?tag_id=1')).body.companies);
const write = async (m: TestMock, method: string, path: string, body?: unknown) => {
  expect((await m.call(method, path, { token: TOKEN, ...(body === undefined ? {} : { body }) })).status).toBe(200);
};

describe('a sorted list of a tag\'s users, read before the writes', () => {
  it('drops a user untagged or deleted and takes in a lead converted into a user', async () => {
    const m = await catalogMock();
    expect(await usersByTag(m)).toEqual([U3, U2, U1]);
    await write(m, 'POST', '/tags', { name: 'A', users: [{ id: U2, untag: true }] });
    expect(await usersByTag(m)).toEqual([U3, U1]);
    await write(m, 'DELETE', `/users/${U1}`);
    expect(await usersByTag(m)).toEqual([U3]);
    // The lead holds tag 1 too; as a user (created three days ago) it joins the users' list.
    await write(m, 'POST', '/contacts/convert', { contact: { user_id: 'l1' }, user: { user_id: 'l1-user' } });
    expect(await usersByTag(m)).toEqual([U3, L1]);
    await write(m, 'POST', '/tags', { name: 'A', users: [{ id: U2 }] });
    expect(await usersByTag(m)).toEqual([U3, L1, U2]);
  });
});

describe('the list of a tag\'s companies, read before the writes', () => {
  it('drops a company untagged and takes in a tagged company once it has a user', async () => {
    const m = await catalogMock();
    // Gamma holds the tag but no user or lead, so it is left out until one joins it.
    expect(await companiesByTag(m)).toEqual([BETA, ALPHA]);
    await write(m, 'POST', '/tags', { name: 'A', companies: [{ id: ALPHA, untag: true }] });
    expect(await companiesByTag(m)).toEqual([BETA]);
    await write(m, 'POST', '/users', { user_id: 'u3', companies: [{ company_id: 'g' }] });
    // Gamma has no last_request_at: last, newest first.
    expect(await companiesByTag(m)).toEqual([BETA, GAMMA]);
    await write(m, 'POST', '/users', { user_id: 'u3', companies: [{ company_id: 'g', remove: true }] });
    expect(await companiesByTag(m)).toEqual([BETA]);
  });
});

describe('the company list when a person changes type', () => {
  it('lists a company once a visitor in it becomes a lead (the company\'s people count)', async () => {
    const m = await catalogMock();
    const visitorInGamma = { ...CATALOG, customers: CATALOG.customers.map((c) => (c.id === V1 ? { ...c, companies: [GAMMA] } : c)) };
    expect((await m.call('POST', '/__admin/seed?mode=replace', { token: null, body: visitorInGamma })).status).toBe(200);
    const companies = async () => idsOf((await get(m, '/companies')).body.companies);
    // Gamma's only member is a visitor, who is none of its people: left out, and not among its users.
    expect(await companies()).not.toContain(GAMMA);
    const members = async () => idsOf((await get(m, `/companies/${GAMMA}/users`)).body.users);
    expect(await members()).toEqual([]);
    await write(m, 'POST', '/visitors/convert', { visitor: { user_id: 'v1' }, type: 'lead' });
    expect(await companies()).toContain(GAMMA);
    expect(await members()).toEqual([V1]);
  });
});
