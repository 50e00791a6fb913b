// The customers/companies/conversations byte tallies (src/engine/record-bytes.ts, the rooms' indexes.ts,
// archive.ts) equal a recount of the records after every kind of write.

import { describe, expect, it } from 'vitest';
import { appBytes } from '../../src/engine/byte-budget.js';
import { recountRecords } from '../../src/engine/record-bytes.js';
import { mock, type TestMock } from '../helpers.js';

function drift(m: TestMock): Record<string, number> {
  const app = m.store.appForToken('demo-token');
  if (!app) throw new Error('no demo app');
  const counted = recountRecords(app);
  return {
    customers: appBytes(app, 'customers') - counted.customers,
    companies: appBytes(app, 'companies') - counted.companies,
    conversations: appBytes(app, 'conversations') - counted.conversations,
  };
}
const NONE = { customers: 0, companies: 0, conversations: 0 };
const big = (n: number) => 'x'.repeat(Math.min(n, 250));

describe('byte tallies equal a recount after each write', () => {
  it('users, leads, convert, archive, restore, delete, tags, companies, conversations', async () => {
    const m = mock();
    const step = async (label: string, method: string, path: string, body?: unknown) => {
      const res = await m.call(method, path, body === undefined ? {} : { body });
      expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(300);
      expect({ label, drift: drift(m) }, `${label}: ${res.status} ${res.text.slice(0, 200)}`).toEqual({ label, drift: NONE });
      return res;
    };
    const u = await step('create user', 'POST', '/users', { user_id: 'rv1', email: 'rv1@example.com', custom_attributes: { notes_a: big(500) }, companies: [{ company_id: 'rvco', name: 'RV', custom_attributes: { blurb: big(300) } }] });
    expect(u.status, u.text).toBe(200);
    await step('update user', 'POST', '/users', { user_id: 'rv1', custom_attributes: { notes_a: big(50), other: big(900) } });
    const lead = await step('create lead', 'POST', '/contacts', { email: 'rvlead@example.com', custom_attributes: { lead_note: big(700) } });
    await step('convert lead into new user', 'POST', '/contacts/convert', { contact: { id: lead.body.id }, user: { user_id: 'rv2' } });
    const lead2 = await step('create lead 2', 'POST', '/contacts', { email: 'rvlead2@example.com', custom_attributes: { lead_note: big(400) } });
    await step('convert lead into existing user (merge)', 'POST', '/contacts/convert', { contact: { id: lead2.body.id }, user: { user_id: 'rv1' } });
    await step('tag user', 'POST', '/tags', { name: 'rvtag', users: [{ user_id: 'rv1' }] });
    const tags = await m.call('GET', '/tags');
    const tag = (tags.body.tags as { id: string; name: string }[]).find((t) => t.name === 'rvtag');
    await step('delete tag', 'DELETE', `/tags/${tag?.id}`);
    await step('message from user', 'POST', '/messages', { from: { type: 'user', user_id: 'rv1' }, body: big(1000) });
    await step('archive user', 'DELETE', '/users?user_id=rv1');
    await step('restore by upsert', 'POST', '/users', { user_id: 'rv1', email: 'rv1@example.com', custom_attributes: { again: big(200) } });
    await step('archive again', 'DELETE', '/users?user_id=rv1');
    const archived = m.store.appForToken('demo-token')?.data.archived;
    const id = [...(archived?.values() ?? [])].find((c) => c.user_id === 'rv1')?.id;
    await step('permanent delete', 'POST', '/user_delete_requests', { intercom_user_id: id });
    // A seeded user edited, then shrunk below its seeded size.
    const seeded = [...(m.store.appForToken('demo-token')?.data.customers.values() ?? [])].find((c) => c.type === 'user' && c.user_id !== null);
    await step('grow seeded user', 'POST', '/users', { user_id: seeded?.user_id, custom_attributes: { grown: big(2000) } });
    await step('archive seeded user', 'DELETE', `/users?user_id=${seeded?.user_id}`);
    await step('reset', 'POST', '/__admin/reset?app=demo');
  });
});
