// The parts an app keeps beside its collections (src/state/app-parts.ts), each through the engine's
// four moves: a refused write gives back what it changed in each derived index without a rebuild,
// a reset seeds each part from the base, a snapshot keeps each and a restore hands each back.

import { describe, expect, it } from 'vitest';
import { CowLog } from '../../src/engine/cow-log.js';
import { SortedIndex } from '../../src/engine/sorted-index.js';
import { enqueueEnrichment } from '../../src/engine/job-queue.js';
import type { Conversation, Customer, WebhookJob } from '../../src/engine/types.js';
import { saveConversation } from '../../src/resources/conversations/indexes.js';
import { CustomerOrder } from '../../src/resources/customers/order.js';
import { saveCustomer } from '../../src/resources/customers/indexes.js';
import { AppState } from '../../src/state/app-state.js';
import { ADA } from '../fixture-ids.js';
import { mock, TEST_NOW } from '../helpers.js';

const webhookJob = (id: number): WebhookJob => ({ id, kind: 'webhook', subscription_id: 'nsub_a', notification: { id: `notif_${id}` }, attempt: 1, due_at: TEST_NOW + 60 });

/** An app seeded with one conversation, one enrichment job and one queued webhook delivery. */
function seeded() {
  const m = mock();
  const app = m.store.seedApp(
    {
      app: { id: 'parts', tokens: ['parts-token'] },
      admins: [{ id: '1', name: 'Ann', email: 'ann@example.com' }],
      customers: [{ id: 'c1', type: 'user', user_id: 'u1', created_at: TEST_NOW - 10, updated_at: TEST_NOW - 10 }],
      conversations: [{ id: 'v1', customers: ['c1'], author: { type: 'user', id: 'c1' }, parts: [{ id: 'p1', author: { type: 'admin', id: '1' } }] }],
      subscriptions: [{ id: 'nsub_a', url: 'http://127.0.0.1:9/hook', topics: ['user.created'] }],
      jobs: [{ id: 1, kind: 'enrich_customer', customer_id: 'c1', due_at: TEST_NOW + 60 }, webhookJob(2)],
    },
    'replace',
  );
  return { m, app };
}

const withPart = (c: Conversation, id: string): Conversation => ({ ...c, parts: [...c.parts, { ...(c.parts[0] as Conversation['parts'][number]), id }] });
function refused(app: AppState, write: () => void): void {
  expect(() =>
    app.transaction(() => {
      write();
      throw new Error('refused');
    }),
  ).toThrow('refused');
}

describe('an app\'s parts', () => {
  it('start from the base: the seeded jobs without webhook deliveries, which queue apart, and the seeded parts total', () => {
    const { app } = seeded();
    expect(app.jobs.map((j) => j.kind)).toEqual(['enrich_customer']);
    expect(app.deliveries.size).toBe(1);
    expect(app.deliveries.peek()?.id).toBe(2);
    expect(app.partsTotal).toBe(1);
    // The events are a log by place: their collection is a CowLog, every other a map.
    expect(app.data.events).toBeInstanceOf(CowLog);
    expect(app.data.customers).not.toBeInstanceOf(CowLog);
  });

  it('are seeded again by a reset, kept by a snapshot and handed back by a restore', () => {
    const { app } = seeded();
    const conversation = app.data.conversations.get('v1') as Conversation;
    app.transaction(() => saveConversation(app, withPart(conversation, 'p2')));
    app.transaction(() => enqueueEnrichment(app, 'c1', 30));
    app.deliveries.add(webhookJob(90));
    app.scroll = { kind: 'users', param: 'x' } as unknown as AppState['scroll'];
    const snapshot = app.snapshot(TEST_NOW);
    app.transaction(() => saveConversation(app, withPart(app.data.conversations.get('v1') as Conversation, 'p3')));
    app.transaction(() => enqueueEnrichment(app, 'c1', 40));
    app.deliveries.add(webhookJob(91));
    app.scroll = null;
    expect(app.partsTotal).toBe(3);

    app.reset('rewind');
    expect(app.partsTotal).toBe(1);
    expect(app.jobs.map((j) => j.id)).toEqual([1]);
    expect(app.deliveries.size).toBe(1);
    expect(app.scroll).toBeNull();

    app.restore(snapshot, 'rewind');
    expect(app.partsTotal).toBe(2);
    expect(app.jobs).toHaveLength(2);
    expect(app.deliveries.size).toBe(2);
    expect(app.scroll).toEqual({ kind: 'users', param: 'x' });
    // The snapshot's queue is a copy: what the restored app queues does not reach the snapshot.
    app.deliveries.add(webhookJob(92));
    app.restore(snapshot, 'rewind');
    expect(app.deliveries.size).toBe(2);
  });

  it('give back what a refused write changed in the sorted lists, the conversation lists and the list order, without a rebuild', async () => {
    const { m, app } = seeded();
    const users = '/users?sort=updated_at&per_page=60';
    const conversations = '/conversations?per_page=60';
    const token = { token: 'parts-token' };
    const before = [(await m.call('GET', users, token)).text, (await m.call('GET', conversations, token)).text];
    const order = [...app.order.ids(app.data.customers, 'user')];
    const sortedBuilds = SortedIndex.builds;
    const orderBuilds = CustomerOrder.builds;
    const c1 = app.data.customers.get('c1') as Customer;
    const conversation = app.data.conversations.get('v1') as Conversation;
    refused(app, () => {
      saveCustomer(app, { ...c1, updated_at: TEST_NOW + 999 });
      saveCustomer(app, { ...c1, id: 'c2', user_id: 'u2', updated_at: TEST_NOW + 998 });
      saveConversation(app, { ...withPart(conversation, 'p9'), updated_at: TEST_NOW + 999 });
    });
    expect(app.partsTotal).toBe(1);
    expect(app.order.known(app.data.customers, 'user')).toEqual(order);
    expect([(await m.call('GET', users, token)).text, (await m.call('GET', conversations, token)).text]).toEqual(before);
    expect(SortedIndex.builds).toBe(sortedBuilds);
    expect(CustomerOrder.builds).toBe(orderBuilds);
    // A write that stands is kept by the same indexes.
    app.transaction(() => saveCustomer(app, { ...c1, id: 'c3', user_id: 'u3', updated_at: TEST_NOW + 5 }));
    expect(app.order.known(app.data.customers, 'user')).toEqual([...order, 'c3']);
    expect((await m.call('GET', users, token)).body.users.map((u: { id: string }) => u.id)).toEqual(['c3', 'c1']);
    expect(SortedIndex.builds).toBe(sortedBuilds);
  });

  it('place a user the app created, archived and brought back, last in the list order, as the map does', async () => {
    const { m, app } = seeded();
    const token = { token: 'parts-token' };
    app.order.ids(app.data.customers, 'user');
    for (const user_id of ['u-a', 'u-b']) expect((await m.call('POST', '/users', { ...token, body: { user_id } })).status).toBe(200);
    expect((await m.call('DELETE', '/users?user_id=u-a', token)).status).toBe(200);
    expect((await m.call('POST', '/users', { ...token, body: { user_id: 'u-a' } })).status).toBe(200);
    const inMap = [...app.data.customers.values()].filter((c) => c.type === 'user').map((c) => c.user_id);
    expect(inMap).toEqual(['u1', 'u-b', 'u-a']);
    expect(app.order.known(app.data.customers, 'user')?.map((id) => app.data.customers.get(id)?.user_id)).toEqual(inMap);
  });

  it('take a saved state as the current one, streams where it left them; a reset rewinds them to the seed, or to that state when it is adopted as seeded', () => {
    const { m, app } = seeded();
    const saved = m.store.seedApp({ app: { id: 'saved', tokens: ['saved-token'] }, customers: [{ id: 's1', type: 'user', user_id: 'saved-user' }] }, 'replace').base;
    const start = app.streams();
    app.newNumericId(() => false);
    const moved = app.streams();
    expect(moved).not.toEqual(start);
    app.adopt({ ...saved, config: app.config }, moved, false);
    expect([...app.data.customers.keys()]).toEqual(['s1']);
    expect(app.jobs).toEqual([]);
    expect(app.deliveries.size).toBe(0);
    expect(app.streams()).toEqual(moved);
    app.reset('rewind');
    expect([...app.data.customers.keys()]).toEqual(['c1']);
    expect(app.streams()).toEqual(start);
    app.adopt({ ...saved, config: app.config }, moved, true);
    app.newNumericId(() => false);
    app.reset('rewind');
    expect(app.streams()).toEqual(moved);
  });

  it('stop recording the delivery queue\'s steps once a write stands', () => {
    const { app } = seeded();
    app.transaction(() => app.deliveries.add(webhookJob(50)));
    expect(Reflect.get(app.deliveries, 'steps')).toBeNull();
    // A step outside any write (a due delivery taken) is not kept for a rollback that will never come.
    app.deliveries.shift();
    expect(Reflect.get(app.deliveries, 'steps')).toBeNull();
  });

  it('recount the app\'s budgeted bytes after a refused write', () => {
    const m = mock({ byteBudgets: { customers: 1_000_000 } });
    const app = m.store.app('demo') as AppState;
    const budgets = m.store.budgets;
    const used = budgets.used('customers');
    const ada = app.data.customers.get(ADA) as Customer;
    refused(app, () => saveCustomer(app, { ...ada, name: 'x'.repeat(10_000) }));
    // The refused write had been counted as standing; the recount took it back.
    expect(Reflect.get(budgets, 'sums').customers).toBe(used);
    // An app of no store has no budgets: its refused write is refused all the same.
    const bare = new AppState(app.base, 1);
    refused(bare, () => saveCustomer(bare, { ...ada, name: 'y' }));
    expect(bare.data.customers.get(ADA)?.name).toBe(ada.name);
  });
});
