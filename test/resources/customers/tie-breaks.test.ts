// The documented tie-breaks, with records that really tie: no other test has two records sharing a
// timestamp, so an order that ignored its tie-break (or reversed it) would pass everywhere else.
// Each document lists the tied records in the opposite of their expected order.

import { describe, expect, it } from 'vitest';
import { mock, TEST_NOW, type TestMock } from '../../helpers.js';

const T = 1_750_000_000;
const TOKEN = 'tie-token';
const ONE = { id: 'u00000000000000000000001', user_id: 'one', email: 'one@example.com', created_at: T - 1000 };

async function seeded(over: Record<string, unknown>): Promise<TestMock> {
  const m = mock();
  const doc = { app: { id: 'tie', tokens: [TOKEN] }, admins: [{ id: '1', name: 'Solo', email: 'solo@example.com' }], ...over };
  const res = await m.call('POST', '/__admin/seed', { token: null, body: doc });
  expect(res.status).toBe(200);
  return m;
}

const get = (m: TestMock, path: string) => m.call('GET', path, { token: TOKEN });

describe('GET /users?email=: users sharing an email, oldest first', () => {
  it('orders equal created_at by id, after the older record', async () => {
    const m = await seeded({
      customers: [
        { id: 'u0000000000000000000000c', user_id: 'c', email: 'same@example.com', created_at: T },
        { id: 'u0000000000000000000000a', user_id: 'a', email: 'same@example.com', created_at: T },
        { id: 'u0000000000000000000000b', user_id: 'b', email: 'same@example.com', created_at: T },
        { id: 'u0000000000000000000000z', user_id: 'z', email: 'same@example.com', created_at: T - 1 },
      ],
    });
    const res = await get(m, '/users?email=same@example.com');
    expect(res.status).toBe(200);
    expect(res.body.users.map((u: { user_id: string }) => u.user_id)).toEqual(['z', 'a', 'b', 'c']);
    expect(res.body.total_count).toBe(4);
  });
});

describe('GET /users?email=: a user created through the API in the same second as a seeded one', () => {
  it('comes first when its id is smaller, though the seeded one was stored first', async () => {
    const m = await seeded({ customers: [{ id: 'fffffffffffffffffffffff1', user_id: 'seeded', email: 'same@example.com', created_at: TEST_NOW }] });
    const created = await m.call('POST', '/users', { token: TOKEN, body: { user_id: 'created', email: 'same@example.com' } });
    expect(created.status).toBe(200);
    expect(created.body.created_at).toBe(TEST_NOW);
    const res = await get(m, '/users?email=same@example.com');
    expect(res.body.users.map((u: { user_id: string }) => u.user_id)).toEqual(['created', 'seeded']);
  });
});

describe('GET /conversations: most recently updated first', () => {
  const conversation = (id: string, updatedAt: number) => ({
    id,
    created_at: T - 100,
    updated_at: updatedAt,
    subject: '',
    body: `<p>${id}</p>`,
    author: { type: 'admin', id: '1' },
    customers: [ONE.id],
  });

  it('orders equal updated_at by id, after the more recent one', async () => {
    const m = await seeded({
      customers: [ONE],
      conversations: [conversation('v00000000000000000000003', T), conversation('v00000000000000000000001', T), conversation('v00000000000000000000000', T - 5), conversation('v00000000000000000000002', T), conversation('v00000000000000000000009', T + 5)],
    });
    const res = await get(m, '/conversations');
    expect(res.status).toBe(200);
    expect(res.body.conversations.map((c: { id: string }) => c.id)).toEqual([
      'v00000000000000000000009',
      'v00000000000000000000001',
      'v00000000000000000000002',
      'v00000000000000000000003',
      'v00000000000000000000000',
    ]);
  });
});

describe('GET /conversations/{id}: parts oldest first', () => {
  it('keeps parts that share a created_at in their stored order', async () => {
    const part = (id: string, at: number) => ({ id, part_type: 'comment', body: `<p>${id}</p>`, created_at: at, author: { type: 'admin', id: '1' } });
    const m = await seeded({
      customers: [ONE],
      conversations: [
        {
          id: 'v00000000000000000000001',
          created_at: T - 100,
          subject: '',
          body: '<p>start</p>',
          author: { type: 'admin', id: '1' },
          customers: [ONE.id],
          parts: [part('late-1', T), part('early', T - 10), part('late-2', T), part('late-3', T), part('mid', T - 5)],
        },
      ],
    });
    const res = await get(m, '/conversations/v00000000000000000000001');
    expect(res.status).toBe(200);
    expect(res.body.conversation_parts.conversation_parts.map((p: { id: string }) => p.id)).toEqual(['early', 'mid', 'late-1', 'late-2', 'late-3']);
  });
});
