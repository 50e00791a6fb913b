// POST /messages (surface M1, M2): the message answered, the conversation it starts as later lists,
// reads and counts see it, the visitor that becomes a lead, and every refusal changing nothing.

import { describe, expect, it } from 'vitest';
import { expectRejected, TEST_NOW as T } from '../../helpers.js';
import { ANN, fromAnn, inbox, L1, newest, send, U1, U2, V1 } from '../conversations/inbox-fixture.js';


describe('POST /messages from an admin', () => {
  it('sends an email: answers the admin_message and starts a closed, read conversation', async () => {
    const m = await inbox();
    const res = await send(m, { message_type: 'email', subject: 'Hey', body: '<p>Ponies?</p>', template: 'personal', from: fromAnn, to: { type: 'user', id: U1 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: 'admin_message', id: res.body.id, created_at: T, message_type: 'email', subject: 'Hey', body: '<p>Ponies?</p>', template: 'personal',
      owner: { type: 'admin', id: ANN, name: 'Ann', email: 'ann@example.com' },
    });
    expect(res.body.id).toMatch(/^[0-9]+$/);
    const c = await newest(m, U1);
    expect(c.id).not.toBe(res.body.id);
    expect(c).toMatchObject({
      created_at: T, updated_at: T, open: false, state: 'closed', read: true, waiting_since: null, snoozed_until: null,
      assignee: { type: 'nobody_admin', id: null }, customers: [{ type: 'user', id: U1 }],
      conversation_message: { subject: 'Hey', body: '<p>Ponies?</p>', author: { type: 'admin', id: ANN }, attachments: [] },
    });
    expect((await m.call('GET', '/counts?type=conversation')).body.conversation).toEqual({ open: 4, closed: 2, unassigned: 1, assigned: 3 });
    // The customer's reply opens it.
    const replied = await m.call('POST', `/conversations/${c.id}/reply`, { body: { type: 'user', intercom_user_id: U1, message_type: 'comment', body: 'Yes!' } });
    expect(replied.body).toMatchObject({ open: true, state: 'open', read: false, waiting_since: T });
  });

  it('sends an in-app message by default, to a lead by user_id and to a user by email', async () => {
    const m = await inbox();
    const lead = await send(m, { body: 'Hi lead', from: fromAnn, to: { type: 'contact', user_id: 'lead-1' } });
    expect(lead.body).toMatchObject({ type: 'admin_message', message_type: 'inapp', subject: '', template: 'plain' });
    expect((await newest(m, L1)).customers).toEqual([{ type: 'lead', id: L1 }]);
    const byEmail = await send(m, { message_type: 'inapp', body: 'Hi', from: { type: 'admin', id: Number(ANN) }, to: { email: 'U1@example.com' } });
    expect(byEmail.status).toBe(200);
    expect((await newest(m, U1)).conversation_message.body).toBe('Hi');
  });
});

describe('POST /messages from a customer', () => {
  it('a user\'s message starts an open, unassigned, unread conversation waiting since now', async () => {
    const m = await inbox();
    const res = await m.call('POST', '/messages/', { body: { from: { type: 'user', user_id: 'u1' }, body: 'Is it in stock?' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'user_message', id: res.body.id, created_at: T, body: 'Is it in stock?', message_type: 'inapp' });
    const c = await newest(m, U1);
    expect(c).toMatchObject({ open: true, state: 'open', read: false, waiting_since: T, assignee: { type: 'nobody_admin', id: null }, conversation_message: { author: { type: 'user', id: U1 }, subject: '' } });
    expect((await m.call('GET', '/counts?type=conversation')).body.conversation).toEqual({ open: 5, closed: 1, unassigned: 2, assigned: 3 });
    expect((await m.call('GET', '/conversations?type=admin&admin_id=nobody')).body.conversations.map((x: { id: string }) => x.id)).toEqual([c.id, 'c00000000000000000000003']);
  });

  it('a lead\'s message is authored by the lead', async () => {
    const m = await inbox();
    expect((await send(m, { from: { type: 'contact', id: L1 }, body: 'Hello' })).status).toBe(200);
    expect((await newest(m, L1)).conversation_message.author).toEqual({ type: 'lead', id: L1 });
  });

  it('a visitor writing as a contact becomes a lead first, under the same id', async () => {
    const m = await inbox();
    const res = await send(m, { from: { type: 'contact', user_id: 'visitor-1' }, body: 'Anyone there?' });
    expect(res.status).toBe(200);
    expect((await m.call('GET', `/visitors/${V1}`)).status).toBe(404);
    expect((await m.call('GET', `/contacts/${V1}`)).body).toMatchObject({ type: 'contact', id: V1, user_id: 'visitor-1' });
    expect((await newest(m, V1)).customers).toEqual([{ type: 'lead', id: V1 }]);
  });
});

describe('POST /messages refusals change nothing', () => {
  it.each([
    ['no body', { from: fromAnn, to: { id: U1 } }, 400, 'parameter_invalid', 'body', 'Body is required'],
    ['an empty body', { body: '', from: { type: 'user', id: U1 } }, 400, 'parameter_invalid', 'body', 'Body is required'],
    ['an email without subject', { message_type: 'email', body: 'x', from: fromAnn, to: { id: U1 } }, 422, 'parameter_not_found', 'subject', 'No subject supplied for email message'],
    ['an email to an unsubscribed user', { message_type: 'email', subject: 's', body: 'x', from: fromAnn, to: { id: U2 } }, 403, 'action_forbidden', 'to', 'unsubscribed'],
    ['an email to a user without email', { message_type: 'email', subject: 's', body: 'x', from: fromAnn, to: { user_id: 'u3' } }, 400, 'parameter_invalid', 'to', 'no email'],
    ['an unknown admin', { body: 'x', from: { type: 'admin', id: '999' }, to: { id: U1 } }, 404, 'not_found', 'from.id', 'Admin'],
    ['an unknown user', { body: 'x', from: fromAnn, to: { user_id: 'ghost' } }, 404, 'not_found', 'to.user_id', 'User Not Found'],
    ['a lead addressed as a user', { body: 'x', from: fromAnn, to: { type: 'user', id: L1 } }, 404, 'not_found', 'to.id', 'User Not Found'],
    ['a user addressed as a lead', { body: 'x', from: fromAnn, to: { type: 'contact', id: U1 } }, 404, 'not_found', 'to.id', 'Lead Not Found'],
    ['a visitor writing as a user', { body: 'x', from: { type: 'user', user_id: 'visitor-1' } }, 404, 'not_found', 'from.user_id', 'User Not Found'],
    ['no recipient', { body: 'x', from: fromAnn }, 400, 'parameter_not_found', 'to', 'to'],
    ['no sender', { body: 'x', to: { id: U1 } }, 400, 'parameter_not_found', 'from', 'from'],
    ['a sender of another type', { body: 'x', from: { type: 'bot', id: '1' } }, 400, 'bad_request', 'from.type', 'from.type'],
    ['a template on an in-app message', { body: 'x', template: 'plain', from: fromAnn, to: { id: U1 } }, 400, 'parameter_invalid', 'template', 'email'],
    ['a subject on a user message', { body: 'x', subject: 's', from: { type: 'user', id: U1 } }, 400, 'parameter_invalid', 'subject', 'admin'],
    ['a user sending email', { body: 'x', message_type: 'email', from: { type: 'user', id: U1 } }, 400, 'parameter_invalid', 'message_type', 'in-app'],
    ['two identifiers naming two people', { body: 'x', from: fromAnn, to: { id: U1, user_id: 'u2' } }, 400, 'parameter_invalid', 'to.user_id', 'names someone else'],
  ])('%s: %i %s on %s', async (_label, body, status, code, field, words) => {
    const m = await inbox();
    // Under strict mode: template, subject and a second identifier are accepted otherwise, with a warning (test/http/warnings.test.ts).
    const res = await expectRejected(m, 'POST', '/messages', { body, ...{ headers: { 'x-mock-strict': 'true' } } }, status, [code]);
    expect(res.body.errors[0].field).toBe(field);
    expect(res.body.errors[0].message).toContain(words);
  });
});
