// GET /conversations after a reset: the whole app's lists come back as copies of the seeded base's
// (and a restore's) with the changes since laid over them, not by reading every conversation again;
// a scope of one assignee is sorted from its own conversations. Counted, not timed (order.ts buildWork).

import { describe, expect, it } from 'vitest';
import { buildWork } from '../../../src/resources/conversations/order.js';
import type { FixtureInput } from '../../../src/fixtures/fixture-doc.js';
import { mock, type TestMock } from '../../helpers.js';

const N = 40;
const T0 = 1_700_000_000;
const cid = (i: number) => `c0${i.toString(16).padStart(22, '0')}`;
const ADA = 'a00000000000000000000ada';

function app(): TestMock {
  const m = mock();
  const doc: FixtureInput = {
    app: { id: 'demo', tokens: ['demo-token'] },
    admins: [{ id: '1', name: 'Solo', email: 'solo@example.com' }],
    customers: [{ type: 'user', id: ADA, user_id: 'ada', email: 'ada@example.com' }],
    conversations: Array.from({ length: N }, (_, i) => ({
      id: cid(i), customers: [ADA], author: { type: 'user' as const, id: ADA }, assignee: { type: 'admin' as const, id: '1' },
      created_at: T0 + i, updated_at: T0 + i, open: i % 2 === 0, read: true,
    })),
  };
  m.store.seedApp(doc, 'replace');
  return m;
}

const ids = (res: { body: { conversations: { id: string }[] } }) => res.body.conversations.map((c) => c.id);
const reset = async (m: TestMock) => expect((await m.call('POST', '/__admin/reset?app=demo', { token: null })).status).toBe(200);

describe('GET /conversations after a reset', () => {
  it('reads the seeded conversations once, for the base\'s list; after every reset the list is a copy', async () => {
    const m = app();
    const read = async () => ids(await m.call('GET', '/conversations?sort=created_at&order=desc&per_page=5&page=2'));
    buildWork.rows = 0;
    const seeded = await read();
    expect(seeded).toEqual([cid(34), cid(33), cid(32), cid(31), cid(30)]);
    expect(buildWork.rows).toBe(N);
    for (let round = 0; round < 2; round++) {
      await reset(m);
      buildWork.rows = 0;
      expect(await read()).toEqual(seeded);
      expect(buildWork.rows).toBe(0);
    }
  });

  it('lays a conversation changed before the first read over the copy, and the next reset gives the seeded list again', async () => {
    const m = app();
    const read = async () => ids(await m.call('GET', '/conversations?sort=updated_at&per_page=3'));
    const seeded = await read();
    expect(seeded).toEqual([cid(39), cid(38), cid(37)]);
    await reset(m);
    const reply = await m.call('POST', `/conversations/${cid(3)}/reply`, { body: { type: 'admin', admin_id: '1', message_type: 'close', body: 'done' } });
    expect(reply.status).toBe(200);
    buildWork.rows = 0;
    expect(await read()).toEqual([cid(3), cid(39), cid(38)]);
    expect(buildWork.rows).toBe(0);
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'replied' } })).status).toBe(201);
    await reset(m);
    buildWork.rows = 0;
    expect(await read()).toEqual(seeded);
    expect(buildWork.rows).toBe(0);
    // A restore's list is a copy too, with what the snapshot had changed.
    expect((await m.call('POST', '/__admin/snapshots/replied/restore?app=demo', { token: null })).status).toBe(200);
    expect(await read()).toEqual([cid(3), cid(39), cid(38)]);
    expect(buildWork.rows).toBe(0);
  });

  it('makes the base\'s list from the base even when a conversation changed before its first read', async () => {
    const m = app();
    const read = async () => ids(await m.call('GET', '/conversations?sort=updated_at&per_page=3'));
    expect((await m.call('POST', `/conversations/${cid(3)}/reply`, { body: { type: 'admin', admin_id: '1', message_type: 'close', body: 'done' } })).status).toBe(200);
    expect(await read()).toEqual([cid(3), cid(39), cid(38)]);
    await reset(m);
    expect(await read()).toEqual([cid(39), cid(38), cid(37)]);
  });

  it('sorts one assignee\'s list from that assignee\'s conversations after every reset', async () => {
    const m = app();
    const read = async () => ids(await m.call('GET', '/conversations?type=admin&admin_id=1&per_page=2'));
    const seeded = await read();
    for (let round = 0; round < 2; round++) {
      await reset(m);
      buildWork.rows = 0;
      expect(await read()).toEqual(seeded);
      expect(buildWork.rows).toBe(N);
    }
  });
});
