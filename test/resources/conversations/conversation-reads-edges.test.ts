// Edges of two conversation reads the inbox tests leave open: GET /counts?type=conversation with an
// empty count (the totals) and the choices a wrong count names, and a seeded snoozed_until that
// only a snoozed conversation reads (a closed one keeps its state; a snooze without an end stays).

import { describe, expect, it } from 'vitest';
import { errorCodes, mock, TEST_NOW as T } from '../../helpers.js';
import { ANN, INBOX, inbox } from './inbox-fixture.js';

describe('GET /counts?type=conversation edges', () => {
  it('reads an empty count as no count: the totals', async () => {
    const m = await inbox();
    const res = await m.call('GET', '/counts?type=conversation&count=');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'count', conversation: { open: 4, closed: 1, unassigned: 1, assigned: 3 } });
  });

  it('names admin as the one count there is', async () => {
    const m = await inbox();
    const res = await m.call('GET', '/counts?type=conversation&count=tag');
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['bad_request']);
    expect(res.body.errors[0]).toMatchObject({ field: 'count', message: "bad 'count' parameter: with type=conversation use admin" });
  });
});

describe('a seeded snoozed_until', () => {
  const U = 'a00000000000000000000011';
  const seeded = async (extra: Record<string, unknown>) => {
    const m = mock();
    const doc = {
      ...INBOX,
      customers: [{ id: U, type: 'user', user_id: 'seeded', email: 'seeded@example.com', created_at: T - 100 }],
      conversations: [{ id: 'c00000000000000000000011', customers: [U], author: { type: 'user', id: U }, body: 'x', assignee: { type: 'admin', id: ANN }, created_at: T - 50, updated_at: T - 50, ...extra }],
    };
    const res = await m.call('POST', '/__admin/seed', { token: null, body: doc });
    expect(res.status).toBe(200);
    const c = (await m.call('GET', '/conversations/c00000000000000000000011')).body;
    return [c.open, c.state, c.snoozed_until];
  };

  it('is read only on a snoozed conversation: a closed one stays closed once the time has passed', async () => {
    expect(await seeded({ open: false, state: 'closed', snoozed_until: T - 10 })).toEqual([false, 'closed', T - 10]);
  });

  it('leaves a snooze without an end snoozed', async () => {
    expect(await seeded({ open: true, state: 'snoozed' })).toEqual([true, 'snoozed', null]);
  });

  it('ends a snooze whose end has passed', async () => {
    expect(await seeded({ open: true, state: 'snoozed', snoozed_until: T - 10 })).toEqual([true, 'open', null]);
  });
});
