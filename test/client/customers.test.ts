// The customer lifecycle through the official Node client (intercom-client 2.11) on a real
// listening mock: archive, permanent deletion, lead lookups, convert, delete, update, visitors.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADA, GRACE, LEAD, LEAD_USER_ID, LINUS, VISITOR, VISITOR_2, VISITOR_USER_ID } from '../fixture-ids.js';
import { officialClientMock, type OfficialClientMock } from './official.js';

const LEAD_2 = '5714dd359a3fd47136000008';

describe('official Node client: the customer lifecycle', () => {
  let m: OfficialClientMock;
  beforeAll(async () => (m = await officialClientMock()));
  afterAll(() => m.close());

  /** One app per test, so the tests do not see each other's archives and deletions. */
  const client = (name: string) => m.client(`test_customers_${name}`);

  it('users.archive by id, user_id and email; the user is gone from find and comes back with users.create', async () => {
    const c = client('archive');
    expect((await c.users.archive({ id: ADA })).body).toMatchObject({ type: 'user', id: ADA });
    expect((await c.users.archive({ user_id: 'grace-2' })).body.id).toBe(GRACE);
    expect((await c.users.archive({ email: 'linus@example.com' })).body.id).toBe(LINUS);
    await expect(c.users.find({ id: ADA })).rejects.toMatchObject({ statusCode: 404 });
    await expect(c.users.find({ user_id: 'grace-2' })).rejects.toMatchObject({ statusCode: 404, message: 'User Not Found' });
    expect((await c.users.create({ user_id: 'ada-1' })).body.id).toBe(ADA);
    await expect(c.users.archive({ id: 'nope' })).rejects.toMatchObject({ statusCode: 404, message: 'User Not Found' });
  });

  it('users.requestPermanentDeletion answers increasing ids; ByParams with an email looks the one user up (1.0, the default) and deletes it', async () => {
    const c = client('deletion');
    expect((await c.users.requestPermanentDeletion(ADA)).body).toEqual({ id: 1 });
    expect((await c.users.requestPermanentDeletionByParams({ id: GRACE })).body).toEqual({ id: 2 });
    // The client looks the email up first and posts the id it finds: 1.0 answers the one user. (Under
    // 1.1 the lookup is a user.list and the client posts {}: test/resources/users/users-archive.test.ts.)
    expect((await c.users.requestPermanentDeletionByParams({ email: 'linus@example.com' })).body).toEqual({ id: 3 });
    await expect(c.users.find({ id: ADA })).rejects.toMatchObject({ statusCode: 404 });
    await expect(c.users.find({ email: 'linus@example.com' })).rejects.toMatchObject({ statusCode: 404, message: 'User Not Found' });
  });

  it('leads.find by user_id, leads.listBy email, leads.update, leads.delete', async () => {
    const c = client('leads');
    expect((await c.leads.find({ user_id: LEAD_USER_ID })).body).toMatchObject({ type: 'contact', id: LEAD });
    const listed = (await c.leads.listBy({ email: 'lead@example.com' })).body;
    expect(listed).toMatchObject({ type: 'contact.list', total_count: 1 });
    expect((await c.leads.update({ id: LEAD_2, name: 'Renamed' })).body).toMatchObject({ id: LEAD_2, name: 'Renamed' });
    expect((await c.leads.delete({ id: LEAD_2 })).body).toMatchObject({ type: 'contact', id: LEAD_2, name: 'Renamed' });
    await expect(c.leads.find({ id: LEAD_2 })).rejects.toMatchObject({ statusCode: 404 });
    await expect(c.leads.find({ user_id: 'nobody' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('leads.convert makes the lead a user, or merges it into the user the keys name', async () => {
    const c = client('convert');
    const made = (await c.leads.convert({ contact: { user_id: LEAD_USER_ID }, user: { user_id: 'lena-1' } })).body;
    expect(made).toMatchObject({ type: 'user', id: LEAD, user_id: 'lena-1', email: 'lead@example.com' });
    expect((await c.users.find({ id: LEAD })).body.type).toBe('user');
    const merged = (await c.leads.convert({ contact: { id: LEAD_2 }, user: { email: 'grace@example.com' } })).body;
    expect(merged).toMatchObject({ type: 'user', id: GRACE });
    await expect(c.leads.find({ id: LEAD_2 })).rejects.toMatchObject({ statusCode: 404 });
    await expect(c.leads.convert({ contact: { id: 'nope' }, user: { email: 'x@example.com' } })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('visitors.find by id and user_id, visitors.update, visitors.delete', async () => {
    const c = client('visitors');
    expect((await c.visitors.find({ id: VISITOR })).body).toMatchObject({ type: 'visitor', id: VISITOR });
    expect((await c.visitors.find({ user_id: VISITOR_USER_ID })).body.id).toBe(VISITOR);
    expect((await c.visitors.update({ id: VISITOR_2, name: 'Seen' })).body).toMatchObject({ type: 'visitor', id: VISITOR_2, name: 'Seen' });
    expect((await c.visitors.delete({ id: VISITOR })).body).toMatchObject({ type: 'visitor', id: VISITOR });
    await expect(c.visitors.find({ id: VISITOR })).rejects.toMatchObject({ statusCode: 404, message: 'Visitor Not Found' });
    await expect(c.visitors.convert({ visitor: { id: VISITOR }, type: 'lead' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('customers.search under Intercom-Version: Unstable (its README sets the header by useRequestOpts); without it, 400 intercom_version_invalid', async () => {
    const c = client('search');
    const query = { query: { field: 'email', operator: '=', value: 'ada@example.com' }, pagination: { per_page: 5 } };
    await expect(c.customers.search(query)).rejects.toMatchObject({ statusCode: 400, body: { errors: [{ code: 'intercom_version_invalid' }] } });
    c.useRequestOpts({ headers: { 'Intercom-Version': 'Unstable' } });
    const found = await c.customers.search(query);
    expect(found.body).toMatchObject({ type: 'customer.list', total_count: 1, customers: [{ type: 'user', id: ADA }], pages: { type: 'pages', page: 1, per_page: 5, next: null } });
  });

  it('every answer passed the contract check', () => {
    expect(m.seen.length).toBe(32);
    expect(m.seen.every((s) => s.status < 500)).toBe(true);
  });
});
