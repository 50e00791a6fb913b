// Store-wide byte budgets for records (engine/record-bytes.ts): customer and company data and
// conversation texts are refused past theirs with 403 resource_limit_exceeded (changing nothing),
// each app's tally staying equal to a recount of its records through every path that frees or moves
// data; snapshots are refused past the bytes they pin together.

import { describe, expect, it } from 'vitest';
import { ADA, GROUP } from '../fixture-ids.js';
import { errorCodes, expectRejected, mock, stateText, type TestMock } from '../helpers.js';
import { parseFixture } from '../../src/fixtures/validate.js';
import type { AppState } from '../../src/state/app-state.js';
import { appBytes, type BudgetKind } from '../../src/engine/byte-budget.js';
import { customerShare, recountRecords as recount } from '../../src/engine/record-bytes.js';

const withRoom = (room: Partial<Record<BudgetKind, number>>) => mock({ byteBudgets: room });
const OTHER = 'test_record_budget';

/** 20 attributes of 250 characters: about 11 KB kept, 12 KB with the record. */
const attrs = (value: string | null = 'v'.repeat(250)) => Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`a${k}`, value]));
const user = (m: TestMock, userId: string, extra: Record<string, unknown> = {}, token?: string) =>
  m.call('POST', '/users', { body: { user_id: userId, custom_attributes: attrs(), ...extra }, ...(token ? { token } : {}) });

const demo = (m: TestMock): AppState => m.store.app('demo') as AppState;

const tallies = (app: AppState) => ({ customers: appBytes(app, 'customers'), companies: appBytes(app, 'companies'), conversations: appBytes(app, 'conversations') });
const expectExact = (m: TestMock) => expect(tallies(demo(m))).toEqual(recount(demo(m)));

describe('customer data', () => {
  it('refuses a write past the budget, changing nothing; an update that shrinks a record frees room', async () => {
    // About 12 KB a user: two fit in 30,000 bytes, a third does not.
    const m = withRoom({ customers: 30_000 });
    expect((await user(m, 'big-0')).status).toBe(200);
    expect((await user(m, 'big-1')).status).toBe(200);
    const res = await expectRejected(m, 'POST', '/users', { body: { user_id: 'big-2', custom_attributes: attrs() } }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors[0].message).toContain('custom attributes');
    // A provisioned app shares the budget.
    expect((await user(m, 'big-2', {}, OTHER)).status).toBe(403);
    // Updates replace: nulls in place of 250 characters give most of a user's room back.
    expect((await user(m, 'big-0', { custom_attributes: attrs(null) })).status).toBe(200);
    expectExact(m);
    expect((await user(m, 'big-2')).status).toBe(200);
    expectExact(m);
  });

  it('keeps an archived user\'s bytes, frees them on a permanent deletion, and counts a restore once', async () => {
    const m = withRoom({ customers: 30_000 });
    const id = (await user(m, 'big-0')).body.id as string;
    await user(m, 'big-1');
    const full = appBytes(demo(m), 'customers');
    expect((await m.call('DELETE', '/users?user_id=big-0')).status).toBe(200);
    expect(appBytes(demo(m), 'customers')).toBe(full);
    expectExact(m);
    await expectRejected(m, 'POST', '/users', { body: { user_id: 'big-2', custom_attributes: attrs() } }, 403, ['resource_limit_exceeded']);
    // Back from the archive as it was: the same bytes, counted once.
    expect((await m.call('POST', '/users', { body: { user_id: 'big-0' } })).body.id).toBe(id);
    expect(appBytes(demo(m), 'customers')).toBe(full);
    expect((await m.call('DELETE', '/users?user_id=big-0')).status).toBe(200);
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: id } })).status).toBe(200);
    expectExact(m);
    expect((await user(m, 'big-2')).status).toBe(200);
  });

  it('moves a lead\'s data into the user it is converted into, and a deleted lead frees its own', async () => {
    const m = withRoom({});
    const lead = (await m.call('POST', '/contacts', { body: { custom_attributes: attrs() } })).body;
    const own = appBytes(demo(m), 'customers');
    expect(own).toBeGreaterThan(11_000);
    expectExact(m);
    expect((await m.call('POST', '/contacts/convert', { body: { contact: { user_id: lead.user_id }, user: { user_id: 'ada-1' } } })).status).toBe(200);
    // Ada (seeded) now holds the lead's attributes; the lead's record is gone.
    expectExact(m);
    expect(customerShare(demo(m), demo(m).data.customers.get(ADA) as never)).toBe(appBytes(demo(m), 'customers'));
    const other = (await m.call('POST', '/contacts', { body: { custom_attributes: attrs('w'.repeat(10)) } })).body;
    expect((await m.call('DELETE', `/contacts/${other.id}`)).status).toBe(200);
    expectExact(m);
    const visitorless = (await m.call('POST', '/contacts', { body: { custom_attributes: attrs() } })).body;
    expect((await m.call('POST', '/contacts/convert', { body: { contact: { user_id: visitorless.user_id }, user: { user_id: 'new-from-lead' } } })).status).toBe(200);
    expectExact(m);
  });

  it('frees no room when a seeded customer goes: its seeded data stays in the base', async () => {
    const m = withRoom({ customers: 30_000 });
    const doc = JSON.parse(await stateText(m));
    const ada = (doc.customers as { id: string; custom_attributes: object }[]).find((c) => c.id === ADA);
    if (ada) ada.custom_attributes = attrs();
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    expect(appBytes(demo(m), 'customers')).toBe(0);
    await user(m, 'big-0');
    await user(m, 'big-1');
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: ADA } })).status).toBe(200);
    expectExact(m);
    await expectRejected(m, 'POST', '/users', { body: { user_id: 'big-2', custom_attributes: attrs() } }, 403, ['resource_limit_exceeded']);
  });

  it('keeps the tally exact through a rolled-back write, a snapshot restore, a reset and an export seeded back', async () => {
    const m = withRoom({ customers: 30_000 });
    await user(m, 'big-0');
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'one' } })).status).toBe(201);
    const one = tallies(demo(m));
    await user(m, 'big-1');
    // The company is saved before the user is refused: the whole request is undone, its bytes too.
    const companiesBefore = appBytes(demo(m), 'companies');
    const before = await stateText(m);
    const res = await m.call('POST', '/users', { body: { user_id: 'big-2', custom_attributes: attrs(), companies: [{ company_id: 'co-new', custom_attributes: attrs() }] } });
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect(await stateText(m)).toBe(before);
    expect(appBytes(demo(m), 'companies')).toBe(companiesBefore);
    expectExact(m);
    expect((await m.call('POST', '/__admin/snapshots/one/restore?app=demo', { token: null })).status).toBe(200);
    expect(tallies(demo(m))).toEqual(one);
    expectExact(m);
    expect((await m.call('POST', '/__admin/reset?app=demo', { token: null })).status).toBe(200);
    expect(tallies(demo(m))).toEqual({ customers: 0, companies: 0, conversations: 0 });
    // Exported and seeded back, the API's records become seeded ones: they count for nothing.
    await user(m, 'big-0');
    await user(m, 'big-1');
    const doc = JSON.parse(await stateText(m));
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    expect(tallies(demo(m))).toEqual({ customers: 0, companies: 0, conversations: 0 });
    expect((await user(m, 'big-2')).status).toBe(200);
  });

  it('counts a state loaded from --data-dir over the fixtures as the API\'s writes counted it', async () => {
    // What a restart does (data-dir/state-files.ts): the saved export becomes the app's state, the fixtures its base.
    const m = withRoom({ customers: 30_000 });
    await user(m, 'big-0');
    const saved = parseFixture(JSON.parse(await stateText(m)));
    const held = appBytes(demo(m), 'customers');
    m.store.loadSaved(saved, demo(m).streams());
    expect(appBytes(demo(m), 'customers')).toBe(held);
    expectExact(m);
    await user(m, 'big-1');
    await expectRejected(m, 'POST', '/users', { body: { user_id: 'big-2', custom_attributes: attrs() } }, 403, ['resource_limit_exceeded']);
  });
});

describe('company data', () => {
  const company = (m: TestMock, id: string, value: string | null = 'v'.repeat(250)) => m.call('POST', '/companies', { body: { company_id: id, name: id, custom_attributes: attrs(value) } });

  it('refuses a company write past the budget, changing nothing; an update that shrinks frees room', async () => {
    // About 11.5 KB a company: two fit in 28,000 bytes.
    const m = withRoom({ companies: 28_000 });
    expect((await company(m, 'co-0')).status).toBe(200);
    expect((await company(m, 'co-1')).status).toBe(200);
    const res = await expectRejected(m, 'POST', '/companies', { body: { company_id: 'co-2', custom_attributes: attrs() } }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors[0].message).toContain('bytes of company data');
    expect((await company(m, 'co-0', null)).status).toBe(200);
    expectExact(m);
    expect((await company(m, 'co-2')).status).toBe(200);
    expectExact(m);
  });
});

describe('conversation texts', () => {
  const note = (m: TestMock, body: string, urls: string[] = []) =>
    m.call('POST', `/conversations/${GROUP}/reply`, { body: { type: 'admin', admin_id: '814860', message_type: 'note', body, attachment_urls: urls } });
  const urls = Array.from({ length: 5 }, (_, i) => `https://files.example.com/${'u'.repeat(1900)}/${i}.png`);
  const parts = async (m: TestMock) => (await m.call('GET', `/conversations/${GROUP}`)).body.conversation_parts.total_count as number;

  it('refuses a reply or a message past the budget, changing nothing, until a reset frees the room', async () => {
    // A 20,000-character body and five 1,900-character URLs: about 60 KB a part; two fit in 130,000 bytes.
    const m = withRoom({ conversations: 130_000 });
    const start = await parts(m);
    expect((await note(m, 'x'.repeat(20_000), urls)).status).toBe(200);
    expect((await note(m, 'x'.repeat(20_000), urls)).status).toBe(200);
    expectExact(m);
    // The attachment URLs count: without them (about 40 KB a part) a third part would fit.
    const res = await expectRejected(m, 'POST', `/conversations/${GROUP}/reply`, { body: { type: 'admin', admin_id: '814860', message_type: 'note', body: 'x'.repeat(20_000) } }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors[0].message).toContain('shorter messages');
    await expectRejected(m, 'POST', '/messages', { body: { from: { type: 'user', id: ADA }, body: 'y'.repeat(20_000) } }, 403, ['resource_limit_exceeded']);
    expect(await parts(m)).toBe(start + 2);
    expect((await m.call('POST', '/__admin/reset?app=demo', { token: null })).status).toBe(200);
    expect((await m.call('POST', '/messages', { body: { from: { type: 'user', id: ADA }, body: 'y'.repeat(20_000) } })).status).toBe(200);
    expectExact(m);
  });

  it('keeps the tally exact when a lead\'s conversations move to the user it is merged into', async () => {
    const m = withRoom({});
    const lead = (await m.call('POST', '/contacts', { body: { name: 'Lena' } })).body;
    expect((await m.call('POST', '/messages', { body: { from: { type: 'contact', id: lead.id }, body: 'z'.repeat(5000) } })).status).toBe(200);
    const held = appBytes(demo(m), 'conversations');
    expect((await m.call('POST', '/contacts/convert', { body: { contact: { user_id: lead.user_id }, user: { user_id: 'ada-1' } } })).status).toBe(200);
    expect(appBytes(demo(m), 'conversations')).toBe(held);
    expectExact(m);
  });
});

describe('snapshots', () => {
  const snap = (m: TestMock, name: string, app = 'demo') => m.call('POST', `/__admin/snapshots?app=${app}`, { token: null, body: { name } });

  it('refuses a snapshot past the bytes every app\'s snapshots pin together, until one is deleted', async () => {
    // A snapshot of an app holding one 12 KB user pins 12 KB: one fits in 20,000 bytes, a second does not.
    const m = withRoom({ snapshots: 20_000 });
    // One that pins nothing (the seeded state) always fits.
    expect((await snap(m, 'seeded')).status).toBe(201);
    const id = (await user(m, 'big-0')).body.id as string;
    expect((await snap(m, 'one')).status).toBe(201);
    // Overwriting a snapshot with one as big adds nothing.
    expect((await snap(m, 'one')).status).toBe(201);
    // Data deleted from the live app stays pinned by the snapshot.
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: id } })).status).toBe(200);
    await user(m, 'big-1');
    const res = await snap(m, 'two');
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect(res.body.errors[0].message).toContain('delete snapshots');
    // Another app (a provisioned one) shares the allowance.
    await user(m, 'big-9', {}, OTHER);
    expect((await m.call('POST', '/__admin/snapshots', { token: OTHER, body: { name: 'mine' } })).status).toBe(403);
    const names = (await m.call('GET', '/__admin/snapshots?app=demo', { token: null })).body.snapshots.map((s: { name: string }) => s.name);
    expect(names).toEqual(['seeded', 'one']);
    expect((await m.call('DELETE', '/__admin/snapshots/one?app=demo', { token: null })).status).toBe(200);
    expect((await snap(m, 'two')).status).toBe(201);
  });
});
