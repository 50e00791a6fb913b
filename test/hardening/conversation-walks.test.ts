// Filtered conversation lists never walk the app's conversations: an index is built from its own
// scope (an assignee's conversations, a customer's), then kept by the writes. Not timed: the
// conversations read to build indexes are counted (resources/conversations/order.ts buildWork), and must stay
// bounded by the scope, not by the 3000 conversations the app holds.

import { describe, expect, it } from 'vitest';
import { buildWork } from '../../src/resources/conversations/order.js';
import { partTimesWork } from '../../src/resources/conversations/view.js';
import type { FixtureInput } from '../../src/fixtures/fixture-doc.js';
import { mock, type TestMock } from '../helpers.js';

const N = 3000;
const T0 = 1_700_000_000;
const BUSY = '1';
const QUIET = '2';
const cid = (i: number) => `c0${i.toString(16).padStart(22, '0')}`;
const CROWD = 'a0000000000000000000crwd';
const FEW = 'a00000000000000000000few';

/** 3000 conversations of one customer assigned to BUSY, and 5 of another assigned to QUIET. */
function bigApp(): TestMock {
  const m = mock();
  const conversation = (i: number, customer: string, admin: string) => ({
    id: cid(i), customers: [customer], author: { type: 'user' as const, id: customer }, assignee: { type: 'admin' as const, id: admin },
    created_at: T0 + i, updated_at: T0 + i, open: i % 2 === 0, read: i % 3 === 0,
  });
  const doc: FixtureInput = {
    app: { id: 'demo', tokens: ['demo-token'], rate_limit_per_minute: 1_000_000 },
    admins: [{ id: BUSY, name: 'Busy', email: 'busy@example.com' }, { id: QUIET, name: 'Quiet', email: 'quiet@example.com' }],
    customers: [{ type: 'user', id: CROWD, user_id: 'crowd', email: 'crowd@example.com' }, { type: 'user', id: FEW, user_id: 'few', email: 'few@example.com' }],
    conversations: [...Array.from({ length: N }, (_, i) => conversation(i, CROWD, BUSY)), ...Array.from({ length: 5 }, (_, i) => conversation(N + i, FEW, QUIET))],
  };
  m.store.seedApp(doc, 'replace');
  return m;
}

const ids = (res: { body: { conversations: { id: string }[] } }) => res.body.conversations.map((c) => c.id);

describe('filtered conversation lists read their scope, not the app', () => {
  it('an admin\'s and a customer\'s lists build from their own conversations, and writes keep them without a rebuild', async () => {
    const m = bigApp();
    buildWork.rows = 0;
    const quiet = await m.call('GET', `/conversations?type=admin&admin_id=${QUIET}&open=true`);
    expect(ids(quiet)).toEqual([cid(N + 4), cid(N + 2), cid(N)]);
    const few = await m.call('GET', '/conversations?type=user&user_id=few&unread=false&order=created_at&sort=asc');
    expect(ids(few)).toEqual([0, 1, 2, 3, 4].map((i) => cid(N + i)));
    expect(buildWork.rows).toBe(10);
    // A write moves a conversation between the indexes already built: no rebuild.
    const moved = await m.call('POST', `/conversations/${cid(7)}/reply`, { body: { type: 'admin', admin_id: BUSY, message_type: 'assignment', assignee_id: QUIET } });
    expect(moved.status).toBe(200);
    expect(ids(await m.call('GET', `/conversations?type=admin&admin_id=${QUIET}&open=true`))).toEqual([cid(N + 4), cid(N + 2), cid(N)]);
    expect(ids(await m.call('GET', `/conversations?type=admin&admin_id=${QUIET}`))).toEqual([cid(7), cid(N + 4), cid(N + 3), cid(N + 2), cid(N + 1), cid(N)]);
    expect(buildWork.rows).toBe(10 + 6);
  });

  it('the deep page of the busy admin\'s open conversations costs one build of the scope, then none', async () => {
    const m = bigApp();
    buildWork.rows = 0;
    const page = await m.call('GET', `/conversations?type=admin&admin_id=${BUSY}&open=true&per_page=50&page=30`);
    expect(page.body.pages.total_pages).toBe(30);
    expect(ids(page)).toEqual(Array.from({ length: 50 }, (_, i) => cid(98 - 2 * i)));
    expect(buildWork.rows).toBe(N);
    await m.call('POST', `/conversations/${cid(0)}/reply`, { body: { type: 'admin', admin_id: BUSY, message_type: 'close' } });
    const after = await m.call('GET', `/conversations?type=admin&admin_id=${BUSY}&open=true&per_page=50&page=30`);
    expect(ids(after)).toEqual(Array.from({ length: 49 }, (_, i) => cid(98 - 2 * i)));
    expect(buildWork.rows).toBe(N);
  });
});

describe('1.1 list fields read each stored conversation\'s parts once', () => {
  it('a list page derives first/last_action_at and customer_first_reply once per stored version, not per read', async () => {
    const m = mock();
    const first = await m.call('GET', '/conversations?per_page=60');
    expect(first.status).toBe(200);
    const items = first.body.conversations as { id: string; first_action_at: number | null }[];
    const withParts = items.filter((c) => c.first_action_at !== null);
    expect(withParts.length).toBeGreaterThan(0);
    partTimesWork.parts = 0;
    expect((await m.call('GET', '/conversations?per_page=60')).body).toEqual(first.body);
    expect(partTimesWork.parts).toBe(0);
    // A reply stores a new version of one conversation: only its parts are read again.
    const id = withParts[0]!.id;
    const admin = (await m.call('GET', '/admins')).body.admins.find((a: { type: string }) => a.type === 'admin').id as string;
    partTimesWork.parts = 0;
    const reply = await m.call('POST', `/conversations/${id}/reply`, { body: { type: 'admin', admin_id: admin, message_type: 'note', body: 'seen' } });
    expect(reply.status).toBe(200);
    await m.call('GET', '/conversations?per_page=60');
    // The reply's answer derives them for the new version; the list page then reads that.
    expect(partTimesWork.parts).toBe(reply.body.conversation_parts.total_count);
  });
});
