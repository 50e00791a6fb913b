// Every reply variant (surface K3–K8), mark as read (K2, with the Go and Python forms), running the
// assignment rules (K9) and adding a customer without email to a group conversation, on the inbox of
// inbox-fixture.ts: each answer, the part it adds, and the state later reads see.

import { describe, expect, it } from 'vitest';
import { expectRejected, TEST_NOW as T, type TestMock } from '../../helpers.js';
import { ANN, BO, C1, C2, C3, C4, C5, inbox, L1, SUPPORT, U1, U2, U3 } from './inbox-fixture.js';

const reply = (m: TestMock, id: string, body: Record<string, unknown>) => m.call('POST', `/conversations/${id}/reply`, { body });
const admin = (message_type: string, extra: Record<string, unknown> = {}) => ({ type: 'admin', admin_id: ANN, message_type, ...extra });
const lastPart = (res: { body: { conversation_parts: { conversation_parts: unknown[] } } }) => res.body.conversation_parts.conversation_parts.at(-1);
const lifecycle = (c: Record<string, unknown>) => ({ open: c.open, state: c.state, read: c.read, snoozed_until: c.snoozed_until, waiting_since: c.waiting_since, assignee: c.assignee, updated_at: c.updated_at });
const part = (part_type: string, author: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  type: 'conversation_part', id: '1', part_type, body: null, created_at: T, updated_at: T, notified_at: T, assigned_to: null, author, attachments: [], ...extra,
});
const ann = { type: 'admin', id: ANN };

/** The answer is the conversation as a later GET shows it. */
async function replied(m: TestMock, id: string, body: Record<string, unknown>) {
  const res = await reply(m, id, body);
  expect(res.status).toBe(200);
  expect((await m.call('GET', `/conversations/${id}`)).body).toEqual(res.body);
  return res;
}

describe('POST /conversations/{id}/reply by an admin', () => {
  it('comment: adds the part with its attachments and ends the customer\'s wait', async () => {
    const m = await inbox();
    const res = await replied(m, C1, admin('comment', { body: '<p>Fixed</p>', attachment_urls: ['https://files.example.com/fix.png'] }));
    expect(lastPart(res)).toEqual(part('comment', ann, { body: '<p>Fixed</p>', attachments: [{ name: 'fix.png', url: 'https://files.example.com/fix.png' }] }));
    expect(lifecycle(res.body)).toEqual({ open: true, state: 'open', read: false, snoozed_until: null, waiting_since: null, assignee: ann, updated_at: T });
  });

  it('note: adds the part and leaves the wait alone', async () => {
    const m = await inbox();
    const res = await replied(m, C1, admin('note', { body: 'internal' }));
    expect(lastPart(res)).toEqual(part('note', ann, { body: 'internal' }));
    expect(res.body.waiting_since).toBe(T - 4000);
  });

  it('assignment: to an admin, to a team, and "0" unassigns', async () => {
    const m = await inbox();
    let res = await replied(m, C3, admin('assignment', { assignee_id: BO, body: 'Bo takes it' }));
    expect(lastPart(res)).toEqual(part('assignment', ann, { body: 'Bo takes it', assigned_to: { type: 'admin', id: BO } }));
    expect(res.body.assignee).toEqual({ type: 'admin', id: BO });
    res = await replied(m, C3, admin('assignment', { assignee_id: Number(SUPPORT) }));
    expect(res.body.assignee).toEqual({ type: 'team', id: SUPPORT });
    res = await replied(m, C3, admin('assignment', { assignee_id: '0', body: 'Reassigning to no-one!' }));
    expect(lastPart(res)).toEqual(part('assignment', ann, { id: '3', body: 'Reassigning to no-one!' }));
    expect(res.body.assignee).toEqual({ type: 'nobody_admin', id: null });
  });

  it('close, then open: open, state and the wait move, each with its part', async () => {
    const m = await inbox();
    let res = await replied(m, C1, admin('close', { body: 'Closing' }));
    expect(lastPart(res)).toEqual(part('close', ann, { body: 'Closing' }));
    expect(lifecycle(res.body)).toMatchObject({ open: false, state: 'closed', snoozed_until: null, waiting_since: null });
    res = await replied(m, C1, admin('open'));
    expect(lastPart(res)).toEqual(part('open', ann, { id: '2' }));
    expect(lifecycle(res.body)).toMatchObject({ open: true, state: 'open', snoozed_until: null });
  });

  it('snoozed with snoozed_until in seconds (text or number), then unsnoozed by an open without type', async () => {
    const m = await inbox();
    let res = await replied(m, C1, admin('snoozed', { snoozed_until: String(T + 600) }));
    expect(lastPart(res)).toEqual(part('snoozed', ann));
    expect(lifecycle(res.body)).toMatchObject({ open: true, state: 'snoozed', snoozed_until: T + 600, waiting_since: T - 4000 });
    expect((await m.call('GET', '/counts?type=conversation')).body.conversation.open).toBe(4);
    res = await replied(m, C1, { admin_id: ANN, message_type: 'open' });
    expect(lifecycle(res.body)).toMatchObject({ open: true, state: 'open', snoozed_until: null });
    res = await replied(m, C2, admin('snoozed', { snoozed_until: T + 60 }));
    expect(lifecycle(res.body)).toMatchObject({ open: true, state: 'snoozed', snoozed_until: T + 60 });
  });
});

describe('POST /conversations/{id}/reply by a customer', () => {
  it('reopens a closed conversation, unread and waiting since now', async () => {
    const m = await inbox();
    const res = await replied(m, C2, { type: 'user', user_id: 'u1', message_type: 'comment', body: 'Still broken' });
    expect(lastPart(res)).toEqual(part('comment', { type: 'user', id: U1 }, { body: 'Still broken' }));
    expect(lifecycle(res.body)).toEqual({ open: true, state: 'open', read: false, snoozed_until: null, waiting_since: T, assignee: ann, updated_at: T });
  });

  it('keeps the wait of a customer already waiting, and wakes a snoozed conversation', async () => {
    const m = await inbox();
    expect((await replied(m, C1, { type: 'user', email: 'u1@example.com', message_type: 'comment', body: 'Any news?' })).body.waiting_since).toBe(T - 4000);
    const res = await replied(m, C5, { type: 'user', intercom_user_id: L1, message_type: 'comment', body: 'Hello?' });
    expect(lastPart(res)).toMatchObject({ author: { type: 'lead', id: L1 } });
    expect(lifecycle(res.body)).toMatchObject({ open: true, state: 'open', snoozed_until: null, read: false, waiting_since: T });
  });
});

describe('POST /conversations/{id}/reply refusals change nothing', () => {
  it.each([
    ['a snoozed_until in milliseconds', admin('snoozed', { snoozed_until: (T + 600) * 1000 }), 400, 'parameter_invalid', 'snoozed_until', 'milliseconds'],
    ['a snoozed_until in the past', admin('snoozed', { snoozed_until: T }), 400, 'parameter_invalid', 'snoozed_until', 'future'],
    ['a snoozed_until that is not a time', admin('snoozed', { snoozed_until: 'tomorrow' }), 400, 'parameter_invalid', 'snoozed_until', 'seconds'],
    ['a snooze without snoozed_until', admin('snoozed'), 400, 'parameter_not_found', 'snoozed_until', 'snoozed_until'],
    ['an assignment without assignee_id', admin('assignment'), 400, 'parameter_not_found', 'assignee_id', 'assignee_id'],
    ['an assignment to an unknown admin', admin('assignment', { assignee_id: '999' }), 404, 'admin_not_found', 'assignee_id', '999'],
    ['assignee_id on a comment', admin('comment', { body: 'x', assignee_id: BO }), 400, 'parameter_invalid', 'assignee_id', 'assignment'],
    ['snoozed_until on a close', admin('close', { snoozed_until: T + 60 }), 400, 'parameter_invalid', 'snoozed_until', 'snoozed'],
    ['attachment_urls on an open', admin('open', { attachment_urls: ['https://x.example/a.png'] }), 400, 'parameter_invalid', 'attachment_urls', 'comment'],
    ['six attachment_urls', admin('note', { body: 'x', attachment_urls: Array.from({ length: 6 }, (_, i) => `https://x.example/${i}.png`) }), 400, 'parameter_invalid', 'attachment_urls', '5'],
    ['a comment without body', admin('comment'), 400, 'parameter_not_found', 'body', 'body'],
    ['no type and no admin_id', { message_type: 'open' }, 400, 'parameter_not_found', 'type', 'admin_id'],
    ['a customer closing', { type: 'user', user_id: 'u1', message_type: 'close' }, 400, 'parameter_invalid', 'message_type', 'comment'],
  ])('%s: %i %s on %s', async (_label, body, status, code, field, words) => {
    const m = await inbox();
    // Under strict mode: a member another message_type uses is otherwise ignored, with a warning.
    const res = await expectRejected(m, 'POST', `/conversations/${C1}/reply`, { body, ...{ headers: { 'x-mock-strict': 'true' } } }, status, [code]);
    expect(res.body.errors[0].field).toBe(field);
    expect(res.body.errors[0].message).toContain(words);
  });

  it('ignores, with a warning, a member another message_type uses (Java sends snoozed_until 0 with every reply)', async () => {
    const m = await inbox();
    const res = await m.call('POST', `/conversations/${C1}/reply`, { body: admin('comment', { body: 'x', assignee_id: BO, attachment_urls: [] }) });
    expect(res.status).toBe(200);
    expect(res.body.conversation_parts.conversation_parts.at(-1)).toMatchObject({ part_type: 'comment', assigned_to: null, attachments: [] });
    expect(res.headers.get('x-mock-warning')).toBe('unused_field "assignee_id goes with message_type assignment, not comment: ignored."');
  });

  it('keeps the 60 new parts a minute for state changes too', async () => {
    const m = await inbox();
    for (let i = 0; i < 60; i++) expect((await reply(m, C4, admin(i % 2 === 0 ? 'close' : 'open'))).status).toBe(200);
    await expectRejected(m, 'POST', `/conversations/${C4}/reply`, { body: admin('close') }, 429, ['rate_limit_exceeded']);
  });
});

describe('POST /conversations/last/reply', () => {
  it('replies to the customer\'s most recently updated conversation, as an admin or as the customer', async () => {
    const m = await inbox();
    let res = await m.call('POST', '/conversations/last/reply', { body: { ...admin('comment', { body: 'About your last question' }), intercom_user_id: U1 } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(C4);
    expect(lastPart(res)).toMatchObject({ part_type: 'comment', author: ann, body: 'About your last question' });
    res = await m.call('POST', '/conversations/last/reply', { body: { type: 'user', user_id: 'u2', message_type: 'comment', body: 'Thanks' } });
    expect(res.body.id).toBe(C4);
  });

  it.each([
    ['a customer without conversations', { ...admin('comment', { body: 'x' }), user_id: 'u3' }, 404, 'not_found'],
    ['an unknown customer', { ...admin('comment', { body: 'x' }), user_id: 'ghost' }, 404, 'not_found'],
    ['no customer', admin('comment', { body: 'x' }), 400, 'parameter_not_found'],
  ])('answers %s with %i %s and changes nothing', async (_label, body, status, code) => {
    const m = await inbox();
    await expectRejected(m, 'POST', '/conversations/last/reply', { body }, status, [code]);
  });
});

describe('marking a conversation read', () => {
  it.each([
    ['PUT', `/conversations/${C1}`],
    ['POST', `/conversations/${C1}`],
    ['PUT', `/conversations/${C1}/reply`],
  ])('%s %s {"read": true} marks it read and changes nothing else', async (method, path) => {
    const m = await inbox();
    const before = (await m.call('GET', `/conversations/${C1}`)).body;
    const res = await m.call(method, path, { body: { read: true, id: C1, conversation_parts: {} } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, read: true });
    expect((await m.call('GET', `/conversations/${C1}`)).body).toEqual(res.body);
  });

  it('read false marks it unread; no read is 400 parameter_not_found; an unknown id 404', async () => {
    const m = await inbox();
    expect((await m.call('PUT', `/conversations/${C4}`, { body: { read: false } })).body.read).toBe(false);
    await expectRejected(m, 'PUT', `/conversations/${C1}`, { body: {} }, 400, ['parameter_not_found']);
    await expectRejected(m, 'PUT', '/conversations/nope', { body: { read: true } }, 404, ['not_found']);
  });
});

describe('POST /conversations/{id}/run_assignment_rules', () => {
  it('reopens a closed conversation, keeping its assignee and parts', async () => {
    const m = await inbox();
    const res = await m.call('POST', `/conversations/${C2}/run_assignment_rules`);
    expect(res.status).toBe(200);
    expect(lifecycle(res.body)).toEqual({ open: true, state: 'open', read: true, snoozed_until: null, waiting_since: null, assignee: ann, updated_at: T });
    expect(res.body.conversation_parts.total_count).toBe(0);
  });

  it('leaves an open conversation as it is, and answers 404 for an unknown one', async () => {
    const m = await inbox();
    const before = (await m.call('GET', `/conversations/${C1}`)).body;
    expect((await m.call('POST', `/conversations/${C1}/run_assignment_rules`)).body).toEqual(before);
    await expectRejected(m, 'POST', '/conversations/nope/run_assignment_rules', {}, 404, ['not_found']);
  });
});

describe('POST /conversations/{id}/customers: a customer without email', () => {
  it.each([
    ['user_id', 'u3'],
    ['intercom_user_id', U3],
  ])('named by %s is refused with 400 parameter_invalid and changes nothing', async (field, value) => {
    const m = await inbox();
    const res = await expectRejected(m, 'POST', `/conversations/${C1}/customers`, { body: { admin_id: ANN, customer: { [field]: value } } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe(`customer.${field}`);
    expect(res.body.errors[0].message).toContain('no email');
  });

  it('with an email is still added by user_id', async () => {
    const m = await inbox();
    const res = await m.call('POST', `/conversations/${C3}/customers`, { body: { admin_id: ANN, customer: { user_id: 'u1' } } });
    expect(res.status).toBe(200);
    expect(res.body.customers.map((c: { id: string }) => c.id)).toEqual([U2, U1]);
  });
});

describe('a user\'s open reply (Go\'s README: "User reply that opens")', () => {
  it('reopens a closed conversation with an open part authored by the user', async () => {
    const m = await inbox();
    expect((await m.call('POST', `/conversations/${C1}/reply`, { body: admin('close') })).body.state).toBe('closed');
    const res = await m.call('POST', `/conversations/${C1}/reply`, { body: { type: 'user', user_id: 'u1', message_type: 'open', body: 'me again' } });
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('open');
    expect(res.body.conversation_parts.conversation_parts.at(-1)).toMatchObject({ part_type: 'open', body: 'me again', author: { type: 'user' } });
  });
});
