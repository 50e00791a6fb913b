// The official Node client's messages, conversations and conversation counts (issue 14) against a
// real listening mock: messages.create, conversations.list/reply/markAsRead, counts.conversationCounts
// and conversationAdminCounts, each answer checked against the document (official.ts) and read back.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADA, GRACE, GROUP } from '../fixture-ids.js';
import { TEST_NOW } from '../helpers.js';
import { officialClientMock, type OfficialClientMock } from './official.js';

const ADMIN = '814860';
const LONG = '5714dd359a3fd47136000503';

let m: OfficialClientMock;
beforeAll(async () => (m = await officialClientMock()));
afterAll(() => m.close());

describe('the official client sends messages and works conversations', () => {
  it('messages.create: an admin email, listed as the user\'s newest conversation, closed until they reply', async () => {
    const sent = await m.client().messages.create({ message_type: 'email', subject: 'Hey', body: 'Ponies?', template: 'plain', from: { type: 'admin', id: ADMIN }, to: { type: 'user', id: ADA } });
    expect(sent.body).toMatchObject({ type: 'admin_message', message_type: 'email', subject: 'Hey', body: 'Ponies?', owner: { type: 'admin', id: ADMIN } });
    const listed = await m.client().conversations.list({ type: 'user', intercom_user_id: ADA });
    expect(listed.body.conversations[0]).toMatchObject({ open: false, state: 'closed', conversation_message: { subject: 'Hey', author: { type: 'admin', id: ADMIN } } });
  });

  it('messages.create: a user\'s message starts an open, unassigned conversation', async () => {
    const before = (await m.client().counts.conversationCounts()).body.conversation;
    const sent = await m.client().messages.create({ from: { type: 'user', id: GRACE }, body: 'Is it in stock?' });
    expect(sent.body).toMatchObject({ type: 'user_message', body: 'Is it in stock?', message_type: 'inapp', created_at: TEST_NOW });
    const after = (await m.client().counts.conversationCounts()).body.conversation;
    expect(after).toEqual({ ...before, open: before.open + 1, unassigned: before.unassigned + 1 });
    const unassigned = await m.client().conversations.list({ type: 'admin', admin_id: 'nobody', open: true });
    expect(unassigned.body.conversations[0]).toMatchObject({ customers: [{ type: 'user', id: GRACE }], waiting_since: TEST_NOW });
  });

  it('conversations.list: an admin\'s open conversations, newest first, and the plain list', async () => {
    const mine = await m.client().conversations.list({ type: 'admin', admin_id: ADMIN, open: true, per_page: 60 });
    expect(mine.body.conversations.length).toBeGreaterThan(0);
    for (const c of mine.body.conversations) expect([c.assignee, c.open]).toEqual([{ type: 'admin', id: ADMIN }, true]);
    const times = mine.body.conversations.map((c: { updated_at: number }) => c.updated_at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const all = await m.client().conversations.list({ order: 'asc', sort: 'created_at' });
    expect(all.body.type).toBe('conversation.list');
  });

  it('conversations.reply: a comment, an assignment, a close and a snooze, each with its part', async () => {
    const client = m.client();
    const comment = await client.conversations.reply({ id: GROUP, type: 'admin', admin_id: ADMIN, message_type: 'comment', body: 'On it', attachment_urls: ['https://files.example.com/a.png'] });
    expect(comment.body.conversation_parts.conversation_parts.at(-1)).toMatchObject({ part_type: 'comment', body: 'On it', attachments: [{ name: 'a.png' }] });
    const assigned = await client.conversations.reply({ id: GROUP, type: 'admin', admin_id: ADMIN, message_type: 'assignment', assignee_id: '991267' });
    expect(assigned.body.assignee).toEqual({ type: 'admin', id: '991267' });
    const closed = await client.conversations.reply({ id: GROUP, type: 'admin', admin_id: ADMIN, message_type: 'close', body: 'Done' });
    expect([closed.body.open, closed.body.state]).toEqual([false, 'closed']);
    const snoozed = await client.conversations.reply({ id: GROUP, type: 'admin', admin_id: ADMIN, message_type: 'snoozed', snoozed_until: TEST_NOW + 3600 });
    expect([snoozed.body.open, snoozed.body.state, snoozed.body.snoozed_until]).toEqual([true, 'snoozed', TEST_NOW + 3600]);
    const admins = (await client.counts.conversationAdminCounts()).body.conversation.admin as { id: string; open: number }[];
    expect(admins.map((a) => a.id)).toEqual(['814860', '991267', '1295']);
  });

  it('conversations.reply: a snoozed_until in milliseconds rejects with the 400 the client surfaces', async () => {
    await expect(m.client().conversations.reply({ id: GROUP, type: 'admin', admin_id: ADMIN, message_type: 'snoozed', snoozed_until: (TEST_NOW + 3600) * 1000 })).rejects.toMatchObject({ statusCode: 400 });
  });

  it('conversations.markAsRead: the conversation reads as read', async () => {
    const res = await m.client().conversations.markAsRead({ id: LONG });
    expect(res.body.read).toBe(true);
    expect((await m.client().conversations.find({ id: LONG })).body.read).toBe(true);
  });

  it('counts.conversationCounts and conversationAdminCounts agree with each other', async () => {
    const totals = (await m.client().counts.conversationCounts()).body;
    expect(totals.type).toBe('count');
    expect(totals.conversation.assigned + totals.conversation.unassigned).toBe(totals.conversation.open);
    const admins = (await m.client().counts.conversationAdminCounts()).body.conversation.admin as { open: number; closed: number }[];
    expect(admins.reduce((n, a) => n + a.open, 0)).toBeLessThanOrEqual(totals.conversation.assigned);
    expect(admins.reduce((n, a) => n + a.closed, 0)).toBeLessThanOrEqual(totals.conversation.closed);
  });
});
