// The company list counts users and leads only: a visitor's company joins the list when the
// visitor becomes a lead or a user, whether or not the list was read before (its sorted index built).

import { describe, expect, it } from 'vitest';
import { VISITOR } from '../../fixture-ids.js';
import { mock, type TestMock } from '../../helpers.js';

const listed = async (m: TestMock) => {
  const res = await m.call('GET', '/companies?per_page=60');
  return { total: res.body.total_count as number, names: (res.body.companies as { name: string; user_count: number }[]).map((c) => `${c.name}:${c.user_count}`) };
};

describe('a visitor that becomes a lead or a user', () => {
  it.each([
    ['converted into a user', { method: 'POST', path: '/visitors/convert', body: { visitor: { id: VISITOR }, user: { user_id: 'vv-1' }, type: 'user' } }],
    ['made a lead by an email', { method: 'PUT', path: '/visitors', body: { id: VISITOR, email: 'v@example.com' } }],
    ['made a lead by an email in the write that adds a company', { method: 'PUT', path: '/visitors', body: { id: VISITOR, email: 'v@example.com', companies: [{ company_id: 'second-co', name: 'Second' }] } }],
  ] as const)('%s brings its company into the list, as a list never read before shows it', async (_what, change) => {
    const read = mock();
    const fresh = mock();
    for (const m of [read, fresh]) {
      expect((await m.call('PUT', '/visitors', { body: { id: VISITOR, companies: [{ company_id: 'newco', name: 'NewCo' }] } })).status).toBe(200);
    }
    // Reading the list first builds its sorted index; the other mock never reads it before the change.
    expect((await listed(read)).names).not.toContain('NewCo:0');
    for (const m of [read, fresh]) expect((await m.call(change.method, change.path, { body: change.body })).status).toBe(200);
    const after = await listed(read);
    expect(after.names).toContain('NewCo:1');
    expect(after).toEqual(await listed(fresh));
  });
});
