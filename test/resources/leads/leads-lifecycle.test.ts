// Leads beyond create: lookups by email, user_id and phone; delete; update by PUT; convert into a
// user, with the state afterwards as the other endpoints see it.

import { describe, expect, it } from 'vitest';
import { ADA, GRACE, GROUP, INITECH, LEAD, LEAD_USER_ID, LINUS, VISITOR } from '../../fixture-ids.js';
import { expectRejected, mock, stateText, type TestMock } from '../../helpers.js';

const LEAD_2 = '5714dd359a3fd47136000008';
const counts = async (m: TestMock) => {
  const body = (await m.call('GET', '/counts')).body;
  return { user: body.user.count as number, lead: body.lead.count as number };
};
const leadIds = async (m: TestMock, query = '?per_page=60') => ((await m.call('GET', `/contacts${query}`)).body.contacts as { id: string }[]).map((c) => c.id);
const userIds = async (m: TestMock, query = '?per_page=60') => ((await m.call('GET', `/users${query}`)).body.users as { id: string }[]).map((c) => c.id);

describe('GET /contacts?email=|user_id=|phone=', () => {
  it('email: always a contact.list with total_count; no match is an empty list', async () => {
    const m = mock();
    const found = await m.call('GET', '/contacts?email=LEAD@example.com');
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ type: 'contact.list', total_count: 1, pages: { type: 'pages', page: 1 } });
    expect(found.body.contacts.map((c: { id: string }) => c.id)).toEqual([LEAD]);
    const none = await m.call('GET', '/contacts?email=nobody@example.com');
    expect(none.body).toMatchObject({ type: 'contact.list', total_count: 0, contacts: [] });
  });

  it('user_id: the one lead, not a list; 404 when no lead has it (a user or visitor user_id included)', async () => {
    const m = mock();
    const res = await m.call('GET', `/contacts?user_id=${LEAD_USER_ID}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'contact', id: LEAD, user_id: LEAD_USER_ID });
    await expectRejected(m, 'GET', '/contacts?user_id=nobody', {}, 404, ['not_found']);
    await expectRejected(m, 'GET', '/contacts?user_id=ada-1', {}, 404, ['not_found']);
  });

  it('phone (API version 1.2 on): the one lead with that phone, following updates; none is a 404', async () => {
    const m = mock({ apiVersion: '1.2' });
    await m.call('POST', '/contacts', { body: { id: LEAD_2, phone: '+1 555 0100' } });
    const res = await m.call('GET', '/contacts?phone=%2B1%20555%200100');
    expect(res.body).toMatchObject({ type: 'contact', id: LEAD_2, phone: '+1 555 0100' });
    expect(res.headers.get('x-mock-warning')).toBeNull();
    await m.call('POST', '/contacts', { body: { id: LEAD_2, phone: '+1 555 0199' } });
    await expectRejected(m, 'GET', '/contacts?phone=%2B1%20555%200100', {}, 404, ['not_found']);
    expect((await m.call('GET', '/contacts?phone=%2B1%20555%200199')).body.id).toBe(LEAD_2);
    // Users with the phone are not leads.
    const user = await m.call('GET', '/contacts?phone=%2B353%201%20555%200101');
    expect(user.body.errors).toEqual([{ code: 'not_found', message: 'Lead Not Found' }]);
    // A list parameter beside it does not filter the lookup: said, not applied.
    const paged = await m.call('GET', '/contacts?phone=%2B1%20555%200199&per_page=5');
    expect(paged.body.id).toBe(LEAD_2);
    expect(paged.headers.get('x-mock-warning')).toBe('unused_field "per_page does not filter a lookup by phone: ignored."');
  });
});

describe('DELETE /contacts/{id}, DELETE /contacts?user_id=', () => {
  it('answers the full lead and takes it out of every read', async () => {
    const m = mock();
    const before = await counts(m);
    const res = await m.call('DELETE', `/contacts/${LEAD}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'contact', id: LEAD, email: 'lead@example.com' });
    expect((await m.call('GET', `/contacts/${LEAD}`)).status).toBe(404);
    expect(await leadIds(m)).not.toContain(LEAD);
    expect(await leadIds(m, '?email=lead@example.com')).toEqual([]);
    expect(await counts(m)).toEqual({ ...before, lead: before.lead - 1 });
    const members = (await m.call('GET', `/companies/${INITECH}/users`)).body.users.map((u: { id: string }) => u.id);
    expect(members).not.toContain(LEAD);
    await expectRejected(m, 'DELETE', `/contacts/${LEAD}`, {}, 404, ['not_found']);
  });

  it('by user_id in the query', async () => {
    const m = mock();
    expect((await m.call('DELETE', `/contacts?user_id=${LEAD_USER_ID}`)).body.id).toBe(LEAD);
    await expectRejected(m, 'GET', `/contacts?user_id=${LEAD_USER_ID}`, {}, 404, ['not_found']);
  });

  it('answers 404 for an unknown lead, a user or a visitor, and 400 with no identifier', async () => {
    const m = mock();
    await expectRejected(m, 'DELETE', '/contacts/nope', {}, 404, ['not_found']);
    await expectRejected(m, 'DELETE', `/contacts/${ADA}`, {}, 404, ['not_found']);
    await expectRejected(m, 'DELETE', `/contacts/${VISITOR}`, {}, 404, ['not_found']);
    await expectRejected(m, 'DELETE', '/contacts?user_id=ada-1', {}, 404, ['not_found']);
    await expectRejected(m, 'DELETE', '/contacts', {}, 400, ['parameter_not_found']);
  });
});

describe('PUT /contacts/{id}, PUT /contacts', () => {
  it('updates the lead the path names, as POST /contacts with an id does', async () => {
    const m = mock();
    const res = await m.call('PUT', `/contacts/${LEAD}`, { body: { name: 'Lena Updated', custom_attributes: { plan_tier: 'pro' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'contact', id: LEAD, name: 'Lena Updated', custom_attributes: { plan_tier: 'pro' } });
    expect((await m.call('GET', `/contacts/${LEAD}`)).body.name).toBe('Lena Updated');
  });

  it('updates the lead the body names by id or user_id', async () => {
    const m = mock();
    expect((await m.call('PUT', '/contacts', { body: { id: LEAD, name: 'By id' } })).body).toMatchObject({ id: LEAD, name: 'By id' });
    expect((await m.call('PUT', '/contacts', { body: { user_id: LEAD_USER_ID, name: 'By user_id' } })).body).toMatchObject({ id: LEAD, name: 'By user_id' });
  });

  it('never creates: 400 with no identifier, 404 for an unknown or non-lead id; leads have no signed_up_at', async () => {
    const m = mock();
    await expectRejected(m, 'PUT', '/contacts', { body: { name: 'Nobody' } }, 400, ['parameter_not_found']);
    await expectRejected(m, 'PUT', '/contacts/nope', { body: { name: 'x' } }, 404, ['not_found']);
    await expectRejected(m, 'PUT', `/contacts/${ADA}`, { body: { name: 'x' } }, 404, ['not_found']);
    await expectRejected(m, 'PUT', `/contacts/${LEAD}`, { body: { signed_up_at: 1 } }, 400, ['parameter_invalid']);
  });
});

describe('POST /contacts/convert', () => {
  it('no such user: the lead becomes the user, same id, new user_id, its email kept; a user everywhere', async () => {
    const m = mock();
    const before = await counts(m);
    const res = await m.call('POST', '/contacts/convert', { body: { contact: { user_id: LEAD_USER_ID }, user: { user_id: 'lena-1' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'user', id: LEAD, user_id: 'lena-1', email: 'lead@example.com', anonymous: false, pseudonym: null });
    expect(await counts(m)).toEqual({ user: before.user + 1, lead: before.lead - 1 });
    expect((await m.call('GET', `/contacts/${LEAD}`)).status).toBe(404);
    expect(await leadIds(m)).not.toContain(LEAD);
    expect((await m.call('GET', '/users?user_id=lena-1')).body.id).toBe(LEAD);
    expect(await userIds(m, '?email=lead@example.com')).toEqual([LEAD]);
    expect((await m.call('GET', `/users/${LEAD}`)).body.type).toBe('user');
    // The lead's UUID is not kept.
    await expectRejected(m, 'GET', `/contacts?user_id=${LEAD_USER_ID}`, {}, 404, ['not_found']);
    expect((await m.call('GET', '/users?user_id=' + LEAD_USER_ID)).status).toBe(404);
  });

  it('no such user, with an email: the given email replaces the lead\'s', async () => {
    const m = mock();
    const res = await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { email: 'Lena@Example.com' } } });
    expect(res.body).toMatchObject({ type: 'user', id: LEAD, user_id: null, email: 'lena@example.com' });
  });

  it('the user exists: the lead is merged into it and deleted; the user\'s values and identifiers win', async () => {
    const m = mock();
    await m.call('PUT', `/contacts/${LEAD}`, { body: { phone: '+1 555 0100', custom_attributes: { plan_tier: 'lead-plan', lead_only: 'x' } } });
    const before = await counts(m);
    const res = await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { user_id: 'grace-2' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'user', id: GRACE, user_id: 'grace-2', email: 'grace@example.com', name: 'Grace Hopper', phone: '+1 555 0100' });
    expect(res.body.custom_attributes).toMatchObject({ plan_tier: 'pro', lead_only: 'x' });
    expect(res.body.companies.companies.map((c: { id: string }) => c.id)).toContain(INITECH);
    expect(res.body.tags.tags.map((t: { id: string }) => t.id)).toEqual(['17515', '17514']);
    expect((await m.call('GET', `/contacts/${LEAD}`)).status).toBe(404);
    expect(await counts(m)).toEqual({ user: before.user, lead: before.lead - 1 });
    const members = (await m.call('GET', `/companies/${INITECH}/users`)).body.users.map((u: { id: string }) => u.id);
    expect(members).toContain(GRACE);
    expect(members).not.toContain(LEAD);
  });

  it('a merge moves the lead\'s conversations onto the user: customers (once), author, part authors', async () => {
    const m = mock();
    const LEAD_CONVERSATION = '5714dd359a3fd47136000502';
    await m.call('POST', `/conversations/${GROUP}/customers`, { body: { admin_id: '814860', customer: { intercom_user_id: LEAD } } });
    await m.call('POST', `/conversations/${GROUP}/reply`, { body: { type: 'user', intercom_user_id: LEAD, message_type: 'comment', body: '<p>From the lead</p>' } });
    await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { id: GRACE } } });
    const own = (await m.call('GET', `/conversations/${LEAD_CONVERSATION}`)).body;
    expect(own.customers).toEqual([{ type: 'user', id: GRACE }]);
    expect(own.user).toEqual({ type: 'user', id: GRACE });
    expect(own.conversation_message.author).toEqual({ type: 'user', id: GRACE });
    const group = (await m.call('GET', `/conversations/${GROUP}`)).body;
    expect(group.customers.map((c: { id: string }) => c.id)).toEqual([ADA, GRACE]);
    expect(group.conversation_parts.conversation_parts.at(-1).author).toEqual({ type: 'user', id: GRACE });
    // Grace can reply in the lead's conversation now; the export seeds back.
    expect((await m.call('POST', `/conversations/${LEAD_CONVERSATION}/reply`, { body: { type: 'user', user_id: 'grace-2', message_type: 'comment', body: 'Hi' } })).status).toBe(200);
    const doc = await stateText(m);
    expect(JSON.parse(doc).former_customers).toEqual([]);
    expect((await m.call('POST', '/__admin/seed?mode=replace', { token: null, raw: doc, headers: { 'content-type': 'application/json' } })).status).toBe(200);
    expect(await stateText(m)).toBe(doc);
  });

  it('a user that lacks an email does not get the lead\'s', async () => {
    const m = mock();
    const noEmail = (await m.call('POST', '/users', { body: { user_id: 'no-email' } })).body;
    const res = await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { id: noEmail.id } } });
    expect(res.body).toMatchObject({ id: noEmail.id, email: null, name: 'Lena Lead' });
  });

  it('an archived user named by the keys comes back and absorbs the lead', async () => {
    const m = mock();
    await m.call('DELETE', `/users/${LINUS}`);
    const res = await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { email: 'linus@example.com' } } });
    expect(res.body.id).toBe(LINUS);
    expect((await m.call('GET', `/users/${LINUS}`)).status).toBe(200);
  });

  it('answers every error without changing anything', async () => {
    const m = mock();
    const convert = (body: unknown, status: number, codes: string[]) => expectRejected(m, 'POST', '/contacts/convert', { body }, status, codes);
    await convert({ user: { email: 'x@example.com' } }, 400, ['parameter_not_found']);
    await convert({ contact: { id: LEAD } }, 400, ['parameter_not_found']);
    await convert({ contact: { id: LEAD }, user: { email: ' ' } }, 400, ['parameter_not_found']);
    await convert({ contact: { id: 'nope' }, user: { email: 'x@example.com' } }, 404, ['not_found']);
    await convert({ contact: { id: VISITOR }, user: { email: 'x@example.com' } }, 404, ['not_found']);
    await convert({ contact: { id: LEAD }, user: { id: 'nope' } }, 404, ['not_found']);
    await convert({ contact: { id: LEAD }, user: { email: 'shared@example.com' } }, 409, ['conflict']);
    const taken = await convert({ contact: { id: LEAD }, user: { user_id: LEAD_USER_ID } }, 400, ['unique_user_constraint']);
    expect(taken.body.errors[0]).toEqual({ code: 'unique_user_constraint', message: 'User already exists.', field: 'user.user_id' });
    await convert({ contact: { id: LEAD }, user: { id: ADA, user_id: 'grace-2' } }, 400, ['unique_user_constraint']);
    await convert({ contact: { id: LEAD }, user: { email: 5 } }, 400, ['parameter_invalid']);
  });

  it('a merge whose custom attributes would pass the limit is refused and changes nothing', async () => {
    const m = mock();
    const many = (prefix: string) => Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`${prefix}_${i}`, i]));
    await m.call('PUT', `/contacts/${LEAD}`, { body: { custom_attributes: many('lead') } });
    await m.call('POST', '/users', { body: { user_id: 'grace-2', custom_attributes: many('user') } });
    const before = await stateText(m);
    const res = await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { user_id: 'grace-2' } } });
    expect(res.status).toBe(400);
    expect(await stateText(m)).toBe(before);
  });
});
