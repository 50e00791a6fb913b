// POST /messages edges that messages.test.ts leaves open: how a recipient or sender is named and
// typed, leads sharing an email with each other or with a user, a visitor named by id, the in-app
// message to a customer email cannot reach, the parts limit at its exact bound, and a new
// conversation's id never taking a seeded one's.

import { describe, expect, it } from 'vitest';
import { expectRejected, mock, type TestMock } from '../../helpers.js';
import { fromAnn, inbox, INBOX, L1, newest, send, U1, U2, U3, V1 } from '../conversations/inbox-fixture.js';


async function seeded(doc: typeof INBOX): Promise<TestMock> {
  const m = mock();
  const res = await m.call('POST', '/__admin/seed', { token: null, body: doc });
  expect(res.status).toBe(200);
  return m;
}

describe('POST /messages: an admin\'s in-app message', () => {
  it('reaches a user without email and an unsubscribed one, with an empty subject and no tags', async () => {
    const m = await inbox();
    for (const [who, to] of [[U3, { user_id: 'u3' }], [U2, { id: U2 }]] as const) {
      const res = await send(m, { body: 'Hi', from: fromAnn, to });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ message_type: 'inapp', subject: '', template: 'plain' });
      const c = await newest(m, who);
      expect(c.conversation_message).toEqual({ type: 'conversation', delivered_as: 'admin_initiated', subject: '', body: 'Hi', author: fromAnn, attachments: [] });
      expect(c.tags).toEqual({ type: 'tag.list', tags: [] });
    }
  });

  it('answers an email without template as the plain template', async () => {
    const m = await inbox();
    const res = await send(m, { message_type: 'email', subject: 'S', body: 'x', from: fromAnn, to: { id: U1 } });
    expect(res.status).toBe(200);
    expect(res.body.template).toBe('plain');
  });
});

describe('POST /messages: leads sharing an email', () => {
  it('picks the lead when a user has the same email', async () => {
    const m = await inbox();
    expect((await m.call('POST', '/users', { body: { user_id: 'twin', email: 'lead@example.com' } })).status).toBe(200);
    const res = await send(m, { body: 'Hi', from: fromAnn, to: { type: 'contact', email: 'lead@example.com' } });
    expect(res.status).toBe(200);
    expect((await newest(m, L1)).conversation_message.body).toBe('Hi');
  });

  it('refuses with 409 when two leads have the email', async () => {
    const m = await inbox();
    expect((await m.call('POST', '/contacts', { body: { email: 'lead@example.com' } })).status).toBe(200);
    const res = await expectRejected(m, 'POST', '/messages', { body: { body: 'Hi', from: fromAnn, to: { type: 'contact', email: 'lead@example.com' } } }, 409, ['conflict']);
    expect(res.body.errors[0].field).toBe('to.email');
  });

  it('finds a lead by user_id', async () => {
    const m = await inbox();
    expect((await send(m, { body: 'Hi', from: { type: 'contact', user_id: 'lead-1' } })).status).toBe(200);
    expect((await newest(m, L1)).conversation_message.author).toEqual({ type: 'lead', id: L1 });
  });
});

describe('POST /messages: a visitor named by id', () => {
  it('becomes a lead when it writes as a contact', async () => {
    const m = await inbox();
    expect((await send(m, { body: 'Hello?', from: { type: 'contact', id: V1 } })).status).toBe(200);
    expect((await m.call('GET', `/contacts/${V1}`)).body).toMatchObject({ type: 'contact', id: V1 });
    expect((await newest(m, V1)).conversation_message.author).toEqual({ type: 'lead', id: V1 });
  });

  it('stays a visitor when it writes as a user (404)', async () => {
    const m = await inbox();
    const res = await expectRejected(m, 'POST', '/messages', { body: { body: 'x', from: { type: 'user', id: V1 } } }, 404, ['not_found']);
    expect(res.body.errors[0].field).toBe('from.id');
    expect((await m.call('GET', `/visitors/${V1}`)).status).toBe(200);
  });
});

describe('POST /messages: refusals on how a party is named', () => {
  it.each([
    ['an email with an empty subject', { message_type: 'email', subject: '', body: 'x', from: fromAnn, to: { id: U1 } }, 422, 'parameter_not_found', 'subject'],
    ['an admin sender without id', { body: 'x', from: { type: 'admin' }, to: { id: U1 } }, 400, 'parameter_not_found', 'from.id'],
    ['a recipient of another type', { body: 'x', from: fromAnn, to: { type: 'admin', id: U1 } }, 400, 'bad_request', 'to.type'],
    ['a recipient without identifier', { body: 'x', from: fromAnn, to: { type: 'user' } }, 400, 'parameter_not_found', 'to.id'],
    ['a sender without type', { body: 'x', from: { id: U1 } }, 400, 'bad_request', 'from.type'],
    ['an unknown lead as sender', { body: 'x', from: { type: 'contact', id: 'nobody-here' } }, 404, 'not_found', 'from.id'],
  ])('%s', async (_label, body, status, code, field) => {
    const m = await inbox();
    const res = await expectRejected(m, 'POST', '/messages', { body }, status, [code]);
    expect(res.body.errors[0].field).toBe(field);
  });

  it('takes message_type inapp from a user', async () => {
    const m = await inbox();
    const res = await send(m, { message_type: 'inapp', body: 'Hi', from: { type: 'user', id: U1 } });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('user_message');
  });
});

describe('POST /messages: the parts limit', () => {
  it('counts the new conversation as one: a message fits exactly at the limit, the next is refused', async () => {
    const demo = mock().store.app('demo')!;
    const m = mock({ limits: { parts: demo.data.conversations.size + demo.partsTotal + 1 } });
    const user = [...demo.data.customers.values()].find((c) => c.type === 'user')!.id;
    const message = { body: 'Hi', from: { type: 'admin', id: '814860' }, to: { id: user } };
    expect((await send(m, message)).status).toBe(200);
    await expectRejected(m, 'POST', '/messages', { body: message }, 403, ['resource_limit_exceeded']);
  });
});

describe('POST /messages: conversation ids', () => {
  it('never gives a new conversation the id of a seeded one', async () => {
    const probe = await inbox();
    expect((await send(probe, { body: 'Hi', from: fromAnn, to: { id: U3 } })).status).toBe(200);
    const next = (await newest(probe, U3)).id as string;
    const taken = { id: next, customers: [U1], author: { type: 'user' as const, id: U1 }, body: '<p>seeded</p>', created_at: 1, updated_at: 1 };
    const m = await seeded({ ...INBOX, conversations: [...(INBOX.conversations ?? []), taken] });
    expect((await send(m, { body: 'Hi', from: fromAnn, to: { id: U3 } })).status).toBe(200);
    expect((await newest(m, U3)).id).not.toBe(next);
    expect((await m.call('GET', `/conversations/${next}`)).body.conversation_message.body).toBe('<p>seeded</p>');
  });
});
