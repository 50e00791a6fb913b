// A lead merged into an existing user takes its conversations along: the user replaces the lead in
// `customers` and as author, and nobody else's parts or places change.

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mock } from '../../helpers.js';

const FIXTURES = fileURLToPath(new URL('../../golden/fixtures', import.meta.url));
const USER = 'u0000000000000000000000a';
const OTHER = 'u0000000000000000000000b';
const LEAD = 'l0000000000000000000000a';
const lead = { type: 'lead', id: LEAD };
const other = { type: 'user', id: OTHER };

const doc = {
  app: { id: 'merge', tokens: ['merge-token'] },
  admins: [{ id: '1', name: 'Ann', email: 'ann@example.com' }],
  customers: [
    { id: USER, user_id: 'user-1', created_at: 1 },
    { id: OTHER, user_id: 'other-1', created_at: 2 },
    { id: LEAD, type: 'contact', user_id: 'lead-1', created_at: 3 },
  ],
  conversations: [
    // The lead and another user, the user not in it yet: the lead's place goes to the user; the
    // lead's parts move whether they name it as a lead or as a user.
    { id: 'v0000000000000000000000a', customers: [LEAD, OTHER], author: lead, parts: [{ id: '1', author: other }, { id: '2', author: lead }, { id: '3', author: { type: 'admin', id: '1' } }, { id: '4', author: { type: 'user', id: LEAD } }] },
    // Every part by the lead.
    { id: 'v0000000000000000000000b', customers: [LEAD], author: other, parts: [{ id: '1', author: lead }, { id: '2', author: lead }] },
  ],
};

describe('POST /contacts/convert into an existing user, with conversations', () => {
  it('moves the lead\'s place and authorship to the user and leaves everyone else\'s', async () => {
    const m = mock({ fixturesDir: FIXTURES });
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    const res = await m.call('POST', '/contacts/convert', { token: 'merge-token', body: { contact: { user_id: 'lead-1' }, user: { user_id: 'user-1' } } });
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    expect(res.body.id).toBe(USER);
    const state = JSON.parse((await m.call('GET', '/__admin/state?app=merge', { token: null })).text);
    const user = { type: 'user', id: USER };
    expect(state.conversations.map((c: { customers: string[]; author: object; parts: { author: object }[] }) => ({ customers: c.customers, author: c.author, parts: c.parts.map((p) => p.author) }))).toEqual([
      { customers: [USER, OTHER], author: user, parts: [other, user, { type: 'admin', id: '1' }, user] },
      { customers: [USER], author: other, parts: [user, user] },
    ]);
  });
});

describe('a customer\'s conversation list read for the first time after the writes', () => {
  it('holds what the customer joined through the API and keeps what a merge left it in', async () => {
    const m = mock({ fixturesDir: FIXTURES });
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    const started = await m.call('POST', '/messages', { token: 'merge-token', body: { from: { type: 'user', id: OTHER }, body: 'A new question' } });
    expect(started.status).toBe(200);
    const held = JSON.parse((await m.call('GET', '/__admin/state?app=merge', { token: null })).text).conversations as { id: string }[];
    const newId = held.map((c) => c.id).find((id) => !id.startsWith('v0'));
    const convert = await m.call('POST', '/contacts/convert', { token: 'merge-token', body: { contact: { user_id: 'lead-1' }, user: { user_id: 'user-1' } } });
    expect(convert.status).toBe(200);
    // Neither list was read before: each is built from the customer's log of conversations.
    const listed = async (userId: string) => {
      const res = await m.call('GET', `/conversations?type=user&user_id=${userId}&order=created_at&sort=asc`, { token: 'merge-token' });
      expect(res.status).toBe(200);
      return (res.body.conversations as { id: string }[]).map((c) => c.id).sort();
    };
    expect(await listed('other-1')).toEqual(['v0000000000000000000000a', newId].sort());
    expect(await listed('user-1')).toEqual(['v0000000000000000000000a', 'v0000000000000000000000b']);
  });
});
