// A byte budget at its edge (src/engine/byte-budget.ts): a write that brings every app together to
// exactly the budget is taken, one byte less refuses it and changes nothing, and room another app
// freed (a reset) is found by the recount the refusal runs first. The figure is worked out from the
// record as GET shows it (test/kept-estimate.ts's rules; README "Byte budgets").

import { describe, expect, it } from 'vitest';
import { mock, type TestMock } from '../helpers.js';
import { estimate } from '../kept-estimate.js';

const USER = { user_id: 'edge-1', email: 'e@x.io', custom_attributes: { k: 'v' } };
const OTHER = 'test_budget_edge';
const TEXTS = ['user_id', 'email', 'phone', 'name', 'pseudonym', 'last_seen_ip', 'user_agent_data', 'referrer', 'utm_campaign', 'utm_content', 'utm_medium', 'utm_source', 'utm_term'];

/** A new user's share: 1,024, its custom attributes, its texts, a slot a company, tag and segment. */
function userFigure(view: Record<string, any>): number {
  let bytes = 1024 + estimate(view.custom_attributes);
  for (const k of TEXTS) if (view[k] !== null) bytes += 16 + 2 * String(view[k]).length;
  return bytes + 8 * (view.companies.companies.length + view.tags.tags.length + view.segments.segments.length);
}

async function figure(): Promise<number> {
  const m = mock();
  const res = await m.call('POST', '/users', { body: USER });
  expect(res.status).toBe(200);
  return userFigure(res.body);
}

const post = (m: TestMock, token = 'demo-token', user = USER) => m.call('POST', '/users', { token, body: user });

describe('a byte budget at its edge', () => {
  it('takes the write that reaches the budget exactly, then refuses the next byte', async () => {
    const f = await figure();
    // edge-1, e@x.io, {k: 'v'}: 1,024 + 76 + 28 + 28.
    expect(f).toBe(1156);
    const m = mock({ byteBudgets: { customers: f } });
    expect((await post(m)).status).toBe(200);
    const again = await post(m, 'demo-token', { ...USER, user_id: 'edge-2' });
    expect(again.status).toBe(403);
    expect(again.body.errors[0].code).toBe('resource_limit_exceeded');
    expect((await m.call('GET', '/users?user_id=edge-2')).status).toBe(404);
  });

  it('refuses it one byte under, changing nothing', async () => {
    const f = await figure();
    const m = mock({ byteBudgets: { customers: f - 1 } });
    const res = await post(m);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('resource_limit_exceeded');
    expect((await m.call('GET', '/users?user_id=edge-1')).status).toBe(404);
  });

  it("finds the room another app's reset freed, to the byte", async () => {
    const f = await figure();
    const m = mock({ byteBudgets: { customers: f } });
    expect((await post(m, OTHER)).status).toBe(200);
    expect((await post(m)).status).toBe(403);
    const app = m.store.appForToken(OTHER)?.id as string;
    expect((await m.call('POST', `/__admin/reset?app=${app}`, { token: null })).status).toBe(200);
    // The cached sum still holds the other app's user: only the recount sees the room, exactly f.
    expect((await post(m)).status).toBe(200);
    expect((await post(m, OTHER)).status).toBe(403);
  });

  it('never refuses a write that adds nothing or shrinks, even while a restore left every app over the budget', async () => {
    const f = await figure();
    const m = mock({ byteBudgets: { customers: f } });
    const admin = (path: string, body?: unknown) => m.call('POST', path, { token: null, ...(body === undefined ? {} : { body }) });
    expect((await post(m)).status).toBe(200);
    expect((await admin('/__admin/snapshots?app=demo', { name: 'full' })).status).toBe(201);
    expect((await admin('/__admin/reset?app=demo')).status).toBe(200);
    expect((await post(m, OTHER)).status).toBe(200);
    // The restore brings demo's user back beside the other app's: 2f kept, over the budget f.
    expect((await admin('/__admin/snapshots/full/restore?app=demo')).status).toBe(200);
    const grow = await post(m, 'demo-token', { ...USER, user_id: 'edge-3' });
    expect(grow.status).toBe(403);
    expect(grow.body.errors[0].code).toBe('resource_limit_exceeded');
    // The same user again adds nothing; a shorter attribute gives bytes back: both stand.
    expect((await post(m, OTHER)).status).toBe(200);
    const shrink = await post(m, OTHER, { ...USER, custom_attributes: { k: '' } });
    expect(shrink.status).toBe(200);
    expect(shrink.body.custom_attributes).toEqual({ k: '' });
  });
});
