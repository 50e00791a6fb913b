// What ConversationIndexes does outside the rollback case of conversation-index.test.ts: a
// conversation that leaves a customer leaves that customer's index, a commit ends the journal (a
// later rollback reverts nothing), and building an index reads each member once (buildWork).

import { describe, expect, it } from 'vitest';
import { buildWork, ConversationIndexes, customerScope } from '../../../src/resources/conversations/order.js';
import type { Conversation } from '../../../src/engine/types.js';

const conversation = (id: string, customers: string[], updated_at: number): Conversation => ({
  id, created_at: 1, updated_at, subject: '', body: '', author: { type: 'user', id: customers[0] ?? 'u0' }, attachments: [],
  customers, assignee: null, open: true, read: true, tags: [], parts: [], waiting_since: null,
});

describe('ConversationIndexes outside a rollback', () => {
  it('drops a conversation from the index of a customer it no longer has', () => {
    const indexes = new ConversationIndexes();
    const before = conversation('c1', ['u1'], 5);
    const u1 = indexes.get(customerScope('u1'), 'any', 'updated_at', () => [before]);
    const u2 = indexes.get(customerScope('u2'), 'any', 'updated_at', () => []);
    expect(u1.slice(0, 10, false)).toEqual(['c1']);
    indexes.saved(before, conversation('c1', ['u2'], 6));
    expect(u1.slice(0, 10, false)).toEqual([]);
    expect(u2.slice(0, 10, false)).toEqual(['c1']);
  });

  it('keeps a committed write when a rollback follows the commit', () => {
    const indexes = new ConversationIndexes();
    const first = conversation('c1', ['u1'], 5);
    const index = indexes.get(customerScope('u1'), 'any', 'updated_at', () => [first]);
    indexes.begin();
    indexes.saved(undefined, conversation('c2', ['u1'], 9));
    indexes.commit();
    indexes.rollback();
    expect(index.slice(0, 10, false)).toEqual(['c2', 'c1']);
  });

  it('reads each member once when it builds an index', () => {
    const indexes = new ConversationIndexes();
    const rows = buildWork.rows;
    indexes.get(customerScope('u1'), 'any', 'created_at', () => [conversation('c1', ['u1'], 1), conversation('c2', ['u1'], 2), conversation('c3', ['u1'], 3)]);
    expect(buildWork.rows - rows).toBe(3);
  });
});
