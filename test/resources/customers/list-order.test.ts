// Deep pages of GET /users and GET /contacts come from the app's order index instead of a walk
// (resources/customers/order.ts). Whatever changes the app, every page must still be exactly the
// store's order: seeded records first, then new ones as they were created.

import { beforeEach, describe, expect, it } from 'vitest';
import { LIST_WALK_BUDGET } from '../../../src/resources/customers/rules.js';
import { mock, type TestMock } from '../../helpers.js';

const TOKEN = 'many-token';
const USERS = LIST_WALK_BUDGET + 500;

let m: TestMock;

/** The app's customers of one API type in store order, from the state export. */
async function expected(type: 'user' | 'contact'): Promise<string[]> {
  const state = JSON.parse((await m.call('GET', '/__admin/state?app=many', { token: null })).text) as { customers: { id: string; type?: string }[] };
  return state.customers.filter((c) => (c.type ?? 'user') === type).map((c) => c.id);
}

async function page(path: string, n: number): Promise<{ ids: string[]; total: number }> {
  const res = await m.call('GET', `${path}?per_page=60&page=${n}`, { token: TOKEN });
  expect(res.status).toBe(200);
  const list = (res.body.users ?? res.body.contacts) as { id: string }[];
  return { ids: list.map((c) => c.id), total: res.body.total_count as number };
}

/** The first page, a page past the walk budget and the last page all match the store's order. */
async function expectPagesInOrder(path: '/users' | '/contacts'): Promise<void> {
  const order = await expected(path === '/users' ? 'user' : 'contact');
  const last = Math.max(1, Math.ceil(order.length / 60));
  const deep = Math.min(last, Math.ceil(LIST_WALK_BUDGET / 60) + 2);
  for (const n of new Set([1, deep, last])) {
    const got = await page(path, n);
    expect(got.total).toBe(order.length);
    expect(got.ids).toEqual(order.slice((n - 1) * 60, n * 60));
  }
}

beforeEach(async () => {
  m = mock();
  const seeded = await m.call('POST', '/__admin/seed', {
    token: null,
    body: { app: { id: 'many', tokens: [TOKEN], rate_limit_per_minute: 1_000_000 }, generate: { users: USERS, leads: 80, visitors: 40 } },
  });
  expect(seeded.status).toBe(200);
});

describe('deep pages of the customer lists', () => {
  it('are in store order as seeded, for users and leads', async () => {
    await expectPagesInOrder('/users');
    await expectPagesInOrder('/contacts');
  });

  it('stay in order as users are created and updated', async () => {
    await expectPagesInOrder('/users');
    const first = (await page('/users', 1)).ids[0];
    for (let i = 0; i < 70; i++) {
      expect((await m.call('POST', '/users', { token: TOKEN, body: { user_id: `new-${i}`, email: `new-${i}@example.com` } })).status).toBe(200);
      if (i % 10 === 0) expect((await m.call('POST', '/users', { token: TOKEN, body: { id: first, name: `renamed ${i}` } })).status).toBe(200);
    }
    await expectPagesInOrder('/users');
    // The new users are last, in the order they were created; the renamed one kept its place.
    const last = Math.ceil((USERS + 70) / 60);
    const tail: string[] = [];
    for (const n of [last - 1, last]) {
      const res = await m.call('GET', `/users?per_page=60&page=${n}`, { token: TOKEN });
      tail.push(...(res.body.users as { user_id: string }[]).map((u) => u.user_id));
    }
    expect(tail.slice(-70)).toEqual(Array.from({ length: 70 }, (_, i) => `new-${i}`));
    expect((await page('/users', 1)).ids[0]).toBe(first);
  });

  it('stay in order when visitors become leads and users, and when a visitor merges away', async () => {
    await expectPagesInOrder('/users');
    await expectPagesInOrder('/contacts');
    const visitors = JSON.parse((await m.call('GET', '/__admin/state?app=many', { token: null })).text).customers.filter((c: { type?: string }) => c.type === 'visitor') as { id: string }[];
    const [toLead, toUser, toMerge] = visitors;
    // Each change is checked on its own: a later one (the merge removes a record) could hide an earlier mistake.
    expect((await m.call('POST', '/visitors/convert', { token: TOKEN, body: { type: 'lead', visitor: { id: toLead?.id } } })).status).toBe(200);
    await expectPagesInOrder('/contacts');
    await expectPagesInOrder('/users');
    expect(await expected('contact')).toContain(toLead?.id);

    expect((await m.call('POST', '/visitors/convert', { token: TOKEN, body: { type: 'user', visitor: { id: toUser?.id }, user: { user_id: 'from-visitor' } } })).status).toBe(200);
    await expectPagesInOrder('/users');
    await expectPagesInOrder('/contacts');
    expect(await expected('user')).toContain(toUser?.id);

    const target = (await page('/users', 3)).ids[5];
    expect((await m.call('POST', '/visitors/convert', { token: TOKEN, body: { type: 'user', visitor: { id: toMerge?.id }, user: { id: target } } })).status).toBe(200);
    await expectPagesInOrder('/users');
    await expectPagesInOrder('/contacts');
  });

  it('stay in order after a rejected write, a reset and a snapshot restore', async () => {
    await expectPagesInOrder('/users');
    expect((await m.call('POST', '/__admin/snapshots?app=many', { token: null, body: { name: 'seeded' } })).status).toBe(201);
    for (let i = 0; i < 5; i++) await m.call('POST', '/users', { token: TOKEN, body: { user_id: `before-restore-${i}` } });
    const rejected = await m.call('POST', '/users', { token: TOKEN, body: { user_id: 'rejected', custom_attributes: { 'bad.name': 1 } } });
    expect(rejected.status).toBe(400);
    await expectPagesInOrder('/users');
    expect((await m.call('POST', '/__admin/snapshots/seeded/restore?app=many', { token: null })).status).toBe(200);
    await expectPagesInOrder('/users');
    for (let i = 0; i < 5; i++) await m.call('POST', '/users', { token: TOKEN, body: { user_id: `before-reset-${i}` } });
    await expectPagesInOrder('/users');
    expect((await m.call('POST', '/__admin/reset', { token: null, body: { app: 'many' } })).status).toBe(200);
    await expectPagesInOrder('/users');
    expect((await page('/users', 1)).total).toBe(USERS);
  });
});
