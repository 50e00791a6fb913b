// Every index a write keeps beside the records (user_id, email and phone lookups, tag, segment and
// company-name holders, company members, a person's conversations and notes, the archive's
// lookups, tallies, the attribute registries) holds after writes of every kind exactly what a seed
// of the same records derives from scratch: nothing a write forgot to join, leave or count.

import { describe, expect, it } from 'vitest';
import { allHolders } from '../../src/resources/cross-resource/memberships.js';
import type { CowMap } from '../../src/engine/cow.js';
import type { JoinLog } from '../../src/engine/join-log.js';
import type { AppState } from '../../src/state/app-state.js';
import { ADA, GRACE, GROUP, LEAD, LINUS, VISITOR_USER_ID } from '../fixture-ids.js';
import { mock, type TestMock } from '../helpers.js';

/** The live members of each key of a join-log pair, as sets (a seed joins in record order, writes in write order). */
function members(logs: CowMap<JoinLog>, seqs: CowMap<number>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const key of logs.keys()) {
    const ids = allHolders({ logs, seqs }, key);
    if (ids.length > 0) out[key] = [...ids].sort();
  }
  return out;
}

const sortedEntries = <V>(map: CowMap<V>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

function indexes(app: AppState) {
  const d = app.data;
  return {
    byUserId: sortedEntries(d.byUserId),
    byEmail: members(d.byEmail, d.emailSeqs),
    byPhone: members(d.byPhone, d.phoneSeqs),
    holders: members(d.holders, d.holderSeqs),
    members: members(d.members, d.memberSeqs),
    byCompanyId: sortedEntries(d.byCompanyId),
    conversationsOf: members(d.conversationsOf, d.conversationSeqs),
    notesOf: members(d.notesOf, d.noteSeqs),
    archivedByUserId: sortedEntries(d.archivedByUserId),
    archivedEmails: members(d.archivedEmails, d.archivedEmailSeqs),
    tagByName: sortedEntries(d.tagByName),
    // Byte charges are the budgets' (their recount: test/engine/byte-tally-recount.test.ts).
    tallies: sortedEntries(d.tallies).filter(([k, n]) => n !== 0 && !k.startsWith('bytes:')),
    dataAttributes: [...d.dataAttributes.keys()].sort(),
    companyAttributes: [...d.companyAttributes.keys()].sort(),
  };
}

/** The indexes a seed derives from the app's exported records. */
async function seededFromExport(m: TestMock): Promise<ReturnType<typeof indexes>> {
  const doc = JSON.parse((await m.call('GET', '/__admin/state?app=demo', { token: null })).text);
  const fresh = mock();
  return indexes(fresh.store.seedApp(doc, 'replace'));
}

async function ok(m: TestMock, method: string, path: string, body?: unknown): Promise<{ id?: string }> {
  const res = await m.call(method, path, body === undefined ? {} : { body });
  expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBeLessThan(300);
  return res.body as { id?: string };
}

describe('the indexes after writes', () => {
  it('hold what a seed of the same records derives, after people and companies change every indexed member', async () => {
    const m = mock();
    const app = () => m.store.appForToken('demo-token') as AppState;
    // Created with every indexed member, then a second person sharing the email.
    const w1 = await ok(m, 'POST', '/users', { user_id: 'w-1', email: 'w1@x.io', phone: '+1 555 0101', custom_attributes: { plan: 'pro', only_w1: 1 }, companies: [{ company_id: 'acme-w', name: 'Acme W' }, { company_id: 'w-co', name: 'W Co', custom_attributes: { tier: 'gold' } }] });
    await ok(m, 'POST', '/users', { user_id: 'w-2', email: 'w1@x.io', phone: '+1 555 0101' });
    await ok(m, 'POST', '/tags', { name: 'w-tag', users: [{ user_id: 'w-1' }, { user_id: 'w-2' }], companies: [{ company_id: 'w-co' }] });
    // Each indexed member changed: user_id, email, phone, companies (one left), tags (one untagged).
    await ok(m, 'POST', '/users', { id: w1.id, user_id: 'w-1b', email: 'w1b@x.io', phone: '+1 555 0202', companies: [{ company_id: 'acme-w', remove: true }] });
    await ok(m, 'POST', '/tags', { name: 'w-tag', users: [{ user_id: 'w-2', untag: true }] });
    // An email and a phone cleared: no lookup key left for nothing.
    await ok(m, 'POST', '/users', { user_id: 'w-2', email: null, phone: '' });
    // A company renamed, with a new attribute; an attribute no one else holds goes with its archived holder and comes back with it.
    await ok(m, 'POST', '/companies', { company_id: 'w-co', name: 'W Co Renamed', custom_attributes: { seats: 9 } });
    await ok(m, 'POST', '/users', { user_id: 'w-3', email: 'w3@x.io', custom_attributes: { only_w3: 'x' } });
    await ok(m, 'DELETE', '/users?user_id=w-3');
    // Archived without a user_id, and one without an email: no null key in the archive's lookups.
    const byEmailOnly = await ok(m, 'POST', '/users', { email: 'no-user-id@x.io' });
    await ok(m, 'DELETE', `/users/${byEmailOnly.id}`);
    await ok(m, 'POST', '/users', { user_id: 'w-no-email' });
    await ok(m, 'DELETE', '/users?user_id=w-no-email');
    expect(indexes(app())).toEqual(await seededFromExport(m));
    await ok(m, 'POST', '/users', { user_id: 'w-3' });
    await ok(m, 'DELETE', '/users?user_id=w-2');
    expect(indexes(app())).toEqual(await seededFromExport(m));
  });

  it('hold what a seed derives, after leads and visitors change type, merge, and people are deleted', async () => {
    const m = mock();
    const app = () => m.store.appForToken('demo-token') as AppState;
    const lead = await ok(m, 'POST', '/contacts', { email: 'lead-w@x.io', phone: '+1 555 0303', companies: [{ company_id: 'w-co', name: 'W Co' }] });
    await ok(m, 'POST', '/tags', { name: 'lead-tag', users: [{ id: lead.id }] });
    // A lead becomes a user in place, another merges into an existing user; a visitor becomes a lead.
    await ok(m, 'POST', '/contacts/convert', { contact: { id: lead.id }, user: { user_id: 'w-conv' } });
    await ok(m, 'POST', '/contacts/convert', { contact: { id: LEAD }, user: { id: LINUS } });
    await ok(m, 'POST', '/visitors/convert', { visitor: { user_id: VISITOR_USER_ID }, type: 'lead' });
    // People in conversations and notes, then deleted for good.
    await ok(m, 'POST', `/conversations/${GROUP}/customers`, { admin_id: '814860', customer: { email: 'w-conv@x.io' } });
    await ok(m, 'POST', '/notes', { body: 'n', user: { id: ADA } });
    // A conversation started by a person, then the person goes.
    await ok(m, 'POST', '/messages', { from: { type: 'user', id: GRACE }, body: 'hi' });
    await ok(m, 'POST', '/user_delete_requests', { intercom_user_id: ADA });
    await ok(m, 'POST', '/user_delete_requests', { intercom_user_id: GRACE });
    // An attribute name only a deleted person held leaves the registry.
    const w4 = await ok(m, 'POST', '/users', { user_id: 'w-4', custom_attributes: { only_w4: true } });
    await ok(m, 'POST', '/user_delete_requests', { intercom_user_id: w4.id });
    expect(indexes(app()).dataAttributes).not.toContain('only_w4');
    expect(indexes(app())).toEqual(await seededFromExport(m));
  });
});

describe('lookups through the email index after its holders change', () => {
  it('find only the customers that hold the email now: not one that changed it, not one deleted', async () => {
    const m = mock();
    const a = await ok(m, 'POST', '/users', { user_id: 'sh-a', email: 'shared-w@x.io' });
    const b = await ok(m, 'POST', '/users', { user_id: 'sh-b', email: 'shared-w@x.io' });
    const c = await ok(m, 'POST', '/users', { user_id: 'sh-c', email: 'shared-w@x.io' });
    const byEmail = async () => ((await m.call('GET', '/users?email=shared-w@x.io')).body as { users: { id: string }[] }).users.map((u) => u.id);
    expect(await byEmail()).toEqual([a.id, b.id, c.id]);
    await ok(m, 'POST', '/users', { id: a.id, email: 'elsewhere@x.io' });
    expect(await byEmail()).toEqual([b.id, c.id]);
    await ok(m, 'POST', '/user_delete_requests', { intercom_user_id: b.id });
    expect(await byEmail()).toEqual([c.id]);
  });
});
