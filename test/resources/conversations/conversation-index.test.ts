// A transaction's changes to the conversation indexes are reverted on undo (one splice each), and
// an index built during it is dropped: the next list reads each index exactly as before.

import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/core/random.js';
import { ConversationIndexes, customerScope, assigneeScope, ALL_SCOPE } from '../../../src/resources/conversations/order.js';
import type { Conversation } from '../../../src/engine/types.js';

const conversation = (i: number, random: Random): Conversation => ({
  id: `c${i}`, created_at: random.int(50), updated_at: random.int(50), subject: '', body: '', author: { type: 'user', id: 'u0' }, attachments: [],
  customers: [`u${random.int(3)}`], assignee: random.int(3) === 0 ? null : { type: 'admin', id: String(random.int(2)) },
  open: random.int(2) === 0, read: random.int(2) === 0, tags: [], parts: [], waiting_since: random.int(3) === 0 ? null : random.int(50),
});

describe('ConversationIndexes journal', () => {
  it('rolls back moves between scopes and drops an index built during the transaction', () => {
    const random = new Random(7);
    const records = new Map(Array.from({ length: 30 }, (_, i) => [`c${i}`, conversation(i, random)]));
    const indexes = new ConversationIndexes();
    const all = [...records.values()];
    const of = (pred: (c: Conversation) => boolean) => () => all.filter(pred);
    const views = [
      indexes.get(ALL_SCOPE, 'any', 'updated_at', of(() => true)),
      indexes.get(assigneeScope('admin:1'), 'open', 'created_at', of((c) => c.assignee?.id === '1')),
      indexes.get(assigneeScope('nobody'), 'closed', 'waiting_since', of((c) => c.assignee === null)),
      indexes.get(customerScope('u1'), 'unread', 'updated_at', of((c) => c.customers.includes('u1'))),
    ];
    const before = views.map((v) => v.slice(0, 100, false));
    indexes.begin();
    for (let step = 0; step < 200; step++) {
      const prev = records.get(`c${random.int(35)}`);
      const next = conversation(Number((prev?.id ?? `c${30 + random.int(5)}`).slice(1)), random);
      indexes.saved(prev, next);
      records.set(next.id, next);
    }
    const built = indexes.get(customerScope('u2'), 'any', 'created_at', of(() => true));
    indexes.rollback();
    expect(views.map((v) => v.slice(0, 100, false))).toEqual(before);
    expect(indexes.get(customerScope('u2'), 'any', 'created_at', of(() => false))).not.toBe(built);
  });
});
