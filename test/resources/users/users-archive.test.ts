// Archiving users (DELETE /users) and permanent deletion requests (POST /user_delete_requests),
// with the state afterwards as every other endpoint sees it.

import { describe, expect, it } from 'vitest';
import { ACME, ADA, GRACE, GROUP, LEAD, LINUS, VISITOR } from '../../fixture-ids.js';
import { errorCodes, expectRejected, mock, stateText, type TestMock } from '../../helpers.js';

const userIds = async (m: TestMock, query: string) => ((await m.call('GET', `/users${query}`)).body.users as { id: string }[]).map((u) => u.id);
const userCount = async (m: TestMock) => (await m.call('GET', '/counts')).body.user.count as number;
const acme = async (m: TestMock) => {
  const company = await m.call('GET', `/companies/${ACME}`);
  const members = await m.call('GET', `/companies/${ACME}/users?per_page=60`);
  return { user_count: company.body.user_count as number, ids: (members.body.users as { id: string }[]).map((u) => u.id), total: members.body.total_count as number };
};
/** Ada's tag (VIP) among user tag counts, and Acme's users and leads among company user counts. */
const tagAndCompanyCounts = async (m: TestMock) => {
  const tags = (await m.call('GET', '/counts?type=user&count=tag')).body.user.tag as Record<string, number>[];
  const companies = (await m.call('GET', '/counts?type=company&count=user')).body.company.user as Record<string, unknown>[];
  return { vip: tags.find((t) => 'VIP' in t)?.VIP ?? 0, acme: companies.find((c) => c.remote_company_id === 'acme')?.['Acme Corp'] as number | undefined };
};
const exported = async (m: TestMock) => JSON.parse(await stateText(m)) as { customers: { id: string }[]; archived_customers: { id: string }[]; user_delete_requests: number; former_customers: string[] };

describe('DELETE /users/{id}, DELETE /users?user_id=|email=: archive', () => {
  it('answers the full user and takes it out of every read', async () => {
    const m = mock();
    const before = { count: await userCount(m), acme: await acme(m), counts: await tagAndCompanyCounts(m) };
    expect(before.acme.ids).toContain(ADA);
    const res = await m.call('DELETE', `/users/${ADA}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'user', id: ADA, user_id: 'ada-1', email: 'ada@example.com', name: 'Ada Lovelace' });
    expect(res.body.tags.tags.map((t: { name: string }) => t.name)).toEqual(['VIP']);
    expect(res.body.companies.companies.map((c: { id: string }) => c.id)).toEqual([ACME]);

    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(404);
    expect((await m.call('GET', '/users?user_id=ada-1')).status).toBe(404);
    expect(await userIds(m, '?email=ada@example.com')).toEqual([]);
    expect(await userIds(m, '?per_page=60')).not.toContain(ADA);
    expect(await userCount(m)).toBe(before.count - 1);
    const after = await acme(m);
    expect(after.ids).not.toContain(ADA);
    expect(after.user_count).toBe(before.acme.user_count - 1);
    expect(after.total).toBe(before.acme.total - 1);
    expect(await tagAndCompanyCounts(m)).toEqual({ vip: before.counts.vip - 1, acme: (before.counts.acme ?? 0) - 1 });
    // A second archive finds nobody.
    await expectRejected(m, 'DELETE', `/users/${ADA}`, {}, 404, ['not_found']);
  });

  it('finds the user by user_id, by email (case-insensitive), and by id in the query', async () => {
    const m = mock();
    expect((await m.call('DELETE', '/users?user_id=grace-2')).body.id).toBe(GRACE);
    expect((await m.call('DELETE', '/users?email=LINUS@Example.com')).body.id).toBe(LINUS);
    expect((await m.call('DELETE', `/users?id=${ADA}`)).body.id).toBe(ADA);
    expect(await userIds(m, '?per_page=60')).not.toEqual(expect.arrayContaining([ADA]));
  });

  it('resolves by user_id when user_id and email are both sent', async () => {
    const m = mock();
    expect((await m.call('DELETE', '/users?user_id=ada-1&email=grace@example.com')).body.id).toBe(ADA);
    expect(await userIds(m, '?email=grace@example.com')).toEqual([GRACE]);
  });

  it('answers 404 "User Not Found" for an unknown user, a lead or a visitor, changing nothing', async () => {
    const m = mock();
    const res = await expectRejected(m, 'DELETE', '/users/nope', {}, 404, ['not_found']);
    expect(res.body.errors[0].message).toBe('User Not Found');
    await expectRejected(m, 'DELETE', `/users/${LEAD}`, {}, 404, ['not_found']);
    await expectRejected(m, 'DELETE', `/users/${VISITOR}`, {}, 404, ['not_found']);
    await expectRejected(m, 'DELETE', '/users?user_id=nobody', {}, 404, ['not_found']);
    await expectRejected(m, 'DELETE', '/users?email=lead@example.com', {}, 404, ['not_found']);
  });

  it('answers 409 conflict for an email several users share and 400 parameter_not_found for no identifier', async () => {
    const m = mock();
    await expectRejected(m, 'DELETE', '/users?email=shared@example.com', {}, 409, ['conflict']);
    await expectRejected(m, 'DELETE', '/users', {}, 400, ['parameter_not_found']);
    await expectRejected(m, 'DELETE', '/users?email=%20', {}, 400, ['parameter_not_found']);
  });
});

describe('POST /users after an archive: the user comes back', () => {
  it('by user_id: same id, companies and tags, in every read again', async () => {
    const m = mock();
    const count = await userCount(m);
    const archived = (await m.call('DELETE', `/users/${ADA}`)).body;
    const back = await m.call('POST', '/users', { body: { user_id: 'ada-1', name: 'Ada again' } });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ id: ADA, user_id: 'ada-1', email: 'ada@example.com', name: 'Ada again' });
    expect(back.body.tags).toEqual(archived.tags);
    expect(back.body.companies).toEqual(archived.companies);
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(200);
    expect(await userCount(m)).toBe(count);
    expect((await acme(m)).ids).toContain(ADA);
    // The conversation never stopped naming it.
    expect((await m.call('GET', `/conversations/${GROUP}`)).body.customers.map((c: { id: string }) => c.id)).toContain(ADA);
  });

  it('by email alone, and by id', async () => {
    const m = mock();
    await m.call('DELETE', `/users/${LINUS}`);
    expect((await m.call('POST', '/users', { body: { email: 'linus@example.com' } })).body.id).toBe(LINUS);
    await m.call('DELETE', `/users/${GRACE}`);
    expect((await m.call('POST', '/users', { body: { id: GRACE } })).body).toMatchObject({ id: GRACE, user_id: 'grace-2' });
  });

  it('a live user with the email wins over an archived one', async () => {
    const m = mock();
    await m.call('DELETE', `/users/${LINUS}`);
    const fresh = (await m.call('POST', '/users', { body: { user_id: 'new-linus', email: 'linus@example.com' } })).body;
    expect(fresh.id).not.toBe(LINUS);
    expect((await m.call('POST', '/users', { body: { email: 'linus@example.com' } })).body.id).toBe(fresh.id);
  });

  it('an archived user keeps its user_id: another customer cannot take it (400 unique_user_constraint)', async () => {
    const m = mock();
    await m.call('DELETE', `/users/${ADA}`);
    const res = await expectRejected(m, 'POST', '/users', { body: { id: GRACE, user_id: 'ada-1' } }, 400, ['unique_user_constraint']);
    expect(res.body.errors[0].message).toBe('User already exists.');
  });

  it('a rejected POST /users leaves the user archived', async () => {
    const m = mock();
    await m.call('DELETE', `/users/${ADA}`);
    await expectRejected(m, 'POST', '/users', { body: { user_id: 'ada-1', custom_attributes: { 'bad.name': 1 } } }, 400, ['parameter_invalid']);
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(404);
  });
});

describe('POST /user_delete_requests', () => {
  it('deletes a user for good and answers increasing ids; a later POST /users makes a new user', async () => {
    const m = mock();
    const count = await userCount(m);
    const first = await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: ADA } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: 1 });
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(404);
    expect(await userCount(m)).toBe(count - 1);
    expect((await acme(m)).ids).not.toContain(ADA);
    const again = await m.call('POST', '/users', { body: { user_id: 'ada-1' } });
    expect(again.body.id).not.toBe(ADA);
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: GRACE } })).body).toEqual({ id: 2 });
  });

  it('deletes a lead and an archived user', async () => {
    const m = mock();
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: LEAD } })).body).toEqual({ id: 1 });
    expect((await m.call('GET', `/contacts/${LEAD}`)).status).toBe(404);
    await m.call('DELETE', `/users/${ADA}`);
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: ADA } })).body).toEqual({ id: 2 });
    expect((await m.call('POST', '/users', { body: { user_id: 'ada-1' } })).body.id).not.toBe(ADA);
  });

  it('answers 400 parameter_not_found for {} (what the Node client sends after an email lookup) and 404 for an unknown id', async () => {
    const m = mock();
    const res = await expectRejected(m, 'POST', '/user_delete_requests', { body: {} }, 400, ['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('intercom_user_id');
    await expectRejected(m, 'POST', '/user_delete_requests', { body: { intercom_user_id: '' } }, 400, ['parameter_not_found']);
    await expectRejected(m, 'POST', '/user_delete_requests', { body: { intercom_user_id: 'nope' } }, 404, ['not_found']);
    await expectRejected(m, 'POST', '/user_delete_requests', { body: { intercom_user_id: VISITOR } }, 404, ['not_found']);
    await expectRejected(m, 'POST', '/user_delete_requests', { body: { intercom_user_id: 5 } }, 404, ['not_found']);
    await expectRejected(m, 'POST', '/user_delete_requests', { body: { intercom_user_id: 5 }, ...{ headers: { 'x-mock-strict': 'true' } } }, 400, ['parameter_invalid']);
  });
});

describe('archived users and delete requests in the control plane', () => {
  it('export then seed gives back the archive, the request counter and conversations naming deleted people', async () => {
    const m = mock();
    await m.call('DELETE', `/users/${ADA}`);
    await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: LEAD } });
    const doc = await exported(m);
    expect(doc.archived_customers.map((c) => c.id)).toEqual([ADA]);
    expect(doc.customers.map((c) => c.id)).not.toContain(ADA);
    expect(doc.user_delete_requests).toBe(1);
    expect(doc.former_customers).toEqual([LEAD]);
    const before = await stateText(m);
    const seeded = await m.call('POST', '/__admin/seed?mode=replace', { token: null, raw: before, headers: { 'content-type': 'application/json' } });
    expect(seeded.status).toBe(200);
    expect(await stateText(m)).toBe(before);
    // The seeded archive still restores, and the counter continues.
    expect((await m.call('POST', '/users', { body: { user_id: 'ada-1' } })).body.id).toBe(ADA);
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: GRACE } })).body).toEqual({ id: 2 });
  });

  it('a reset brings the archived user back; a snapshot restore gives the archive and counter exactly', async () => {
    const m = mock();
    await m.call('DELETE', `/users/${ADA}`);
    await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: GRACE } });
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'archived' } })).status).toBe(201);
    const saved = await stateText(m);
    await m.call('POST', '/users', { body: { user_id: 'ada-1' } });
    await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: LINUS } });
    expect((await m.call('POST', '/__admin/snapshots/archived/restore?app=demo', { token: null })).status).toBe(200);
    expect(await stateText(m)).toBe(saved);
    expect((await m.call('POST', '/__admin/reset?app=demo', { token: null })).status).toBe(200);
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(200);
    expect((await exported(m)).user_delete_requests).toBe(0);
  });

  it('a per-test app archives on its own', async () => {
    const m = mock();
    expect((await m.call('DELETE', `/users/${ADA}`, { token: 'test_archive_a' })).status).toBe(200);
    expect((await m.call('GET', `/users/${ADA}`, { token: 'test_archive_b' })).status).toBe(200);
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(200);
  });

  it('refuses a seed whose archived user is also live, naming the member', async () => {
    const m = mock();
    const doc = await exported(m);
    const ada = doc.customers.find((c) => c.id === ADA);
    const res = await m.call('POST', '/__admin/seed?mode=replace', { token: null, body: { ...doc, archived_customers: [ada] } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('archived_customers[0].id');
  });
});

describe('a refused restore', () => {
  it('leaves the archive exactly as it was, in its order (review finding: undo kept no place)', async () => {
    const m = mock();
    await m.call('DELETE', `/users/${ADA}`);
    await m.call('DELETE', `/users/${GRACE}`);
    // Restoring Ada by id would give her alan-3, which Alan holds: refused after the restore began.
    await expectRejected(m, 'POST', '/users', { body: { id: ADA, user_id: 'alan-3' } }, 400, ['unique_user_constraint']);
    await expectRejected(m, 'POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { id: ADA, user_id: 'alan-3' } } }, 400, ['unique_user_constraint']);
    expect((await exported(m)).archived_customers.map((c) => c.id)).toEqual([ADA, GRACE]);
  });
});
