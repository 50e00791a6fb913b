// Store-wide byte budgets (engine/byte-budget.ts): pending bulk items and error feeds, and notes, are
// refused past theirs with 403 resource_limit_exceeded (changing nothing); events give up the app's
// oldest first, and an app with none left to give is refused. Each budget covers every app,
// provisioned ones included, and a reset or a run of the queue frees the room.

import { describe, expect, it } from 'vitest';
import { ADA, GRACE } from '../fixture-ids.js';
import { errorCodes, expectRejected, mock, stateText, TEST_NOW } from '../helpers.js';
import type { BudgetKind } from '../../src/engine/byte-budget.js';
import { noteBytes } from '../../src/resources/notes/indexes.js';

// Seeded records are the fixtures', not counted: the budget is what the API adds.
const withRoom = (kind: BudgetKind, room: number) => mock({ byteBudgets: { [kind]: room } });

const TEXT = 'x'.repeat(2000);
const OTHER = 'test_byte_budget';
const bulkItems = (tag: string, valid = true) =>
  Array.from({ length: 2 }, (_, i) => ({ method: 'post', data_type: 'user', data: valid ? { user_id: `${tag}-${i}`, ignored: TEXT } : { user_id: `${tag}-${i}`, custom_attributes: { n: { deep: TEXT } } } }));

describe('pending bulk items and error feeds', () => {
  it('refuses a task past the budget, changing nothing, and takes it once the queue has run', async () => {
    // Two tasks of two 2,000-character items (about 8.4 KB each) fit in 20,000 bytes; a third does not.
    const m = withRoom('bulk', 20_000);
    const first = await m.call('POST', '/bulk/users', { body: { items: bulkItems('a') } });
    expect(first.status).toBe(202);
    expect((await m.call('POST', '/bulk/users', { body: { items: bulkItems('b'), job: { id: first.body.id } } })).status).toBe(202);
    const res = await expectRejected(m, 'POST', '/bulk/users', { body: { items: bulkItems('c') } }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors[0].message).toContain('run the queue');
    // Another app (a provisioned one) shares the budget.
    await expectRejected(m, 'POST', '/bulk/users', { token: OTHER, body: { items: bulkItems('c') } }, 403, ['resource_limit_exceeded']);
    expect((await m.call('GET', `/jobs/${first.body.id}`)).body.tasks).toHaveLength(2);
    // The items ran and were dropped: the room is free again.
    expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
    expect((await m.call('POST', '/bulk/users', { token: OTHER, body: { items: bulkItems('c') } })).status).toBe(202);
  });

  it('counts the error feed: failed items keep their room until the job is gone or the app reset', async () => {
    const m = withRoom('bulk', 20_000);
    const job = (await m.call('POST', '/bulk/users', { body: { items: bulkItems('bad', false) } })).body;
    await m.call('POST', '/bulk/users', { body: { items: bulkItems('bad2', false), job: { id: job.id } } });
    await m.call('POST', '/__admin/jobs/run?app=demo', { token: null });
    expect((await m.call('GET', `/jobs/${job.id}/error`)).body.items).toHaveLength(4);
    await expectRejected(m, 'POST', '/bulk/users', { body: { items: bulkItems('c') } }, 403, ['resource_limit_exceeded']);
    expect((await m.call('POST', '/__admin/reset?app=demo', { token: null })).status).toBe(200);
    expect((await m.call('POST', '/bulk/users', { body: { items: bulkItems('c') } })).status).toBe(202);
  });

  it('gives no room for running a seeded task: its items stay in the base', async () => {
    const source = withRoom('bulk', 20_000);
    expect((await source.call('POST', '/bulk/users', { body: { items: bulkItems('seeded') } })).status).toBe(202);
    const doc = JSON.parse(await stateText(source));
    const m = withRoom('bulk', 10_000);
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
    // One task of about 8.4 KB fits in 10,000 bytes, a second does not.
    expect((await m.call('POST', '/bulk/users', { body: { items: bulkItems('a') } })).status).toBe(202);
    await expectRejected(m, 'POST', '/bulk/users', { body: { items: bulkItems('b') } }, 403, ['resource_limit_exceeded']);
  });
});

describe('events', () => {
  const event = (name: string, at: number, person: Record<string, string> = { user_id: 'ada-1' }) => ({ event_name: name, created_at: at, ...person, metadata: { text: TEXT } });
  const names = async (m: ReturnType<typeof mock>, token?: string) =>
    ((await m.call('GET', '/events?type=user&user_id=ada-1', token ? { token } : {})).body.events as { event_name: string }[]).map((e) => e.event_name);

  it('gives up the app\'s oldest events past the budget, as past the count', async () => {
    // About 4.5 KB an event: two fit in 10,000 bytes, the third pushes out the first.
    const m = withRoom('events', 10_000);
    for (const [i, name] of ['one', 'two', 'three'].entries()) {
      expect((await m.call('POST', '/events', { body: event(name, TEST_NOW - 100 + i) })).status).toBe(202);
    }
    expect(await names(m)).toEqual(['three', 'two']);
  });

  it('refuses an app with no event left to give while other apps hold the budget, changing nothing', async () => {
    const m = withRoom('events', 10_000);
    await m.call('POST', '/events', { body: event('one', TEST_NOW - 10) });
    await m.call('POST', '/events', { body: event('two', TEST_NOW - 9) });
    // The demo app's events are not the provisioned app's to give up.
    const other = await m.call('POST', '/events', { token: OTHER, body: event('mine', TEST_NOW - 5) });
    expect(other.status).toBe(403);
    expect(errorCodes(other)).toEqual(['resource_limit_exceeded']);
    expect(await names(m, OTHER)).toEqual([]);
    expect(await names(m)).toEqual(['two', 'one']);
    // A reset of the demo app frees the room.
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    expect((await m.call('POST', '/events', { token: OTHER, body: event('mine', TEST_NOW - 5) })).status).toBe(202);
  });

  it('gives no room for evicting seeded events: they stay in the base, so only the app\'s own go', async () => {
    const m = withRoom('events', 10_000);
    const doc = JSON.parse(await stateText(m));
    const ada = (doc.customers as { id: string; user_id: string }[]).find((c) => c.user_id === 'ada-1');
    doc.events = Array.from({ length: 4 }, (_, i) => ({ id: `seed-${i}`, customer_id: ada?.id, event_name: `seeded-${i}`, created_at: TEST_NOW - 1000 + i, metadata: { text: TEXT } }));
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await m.call('POST', '/events', { body: event(`own-${i}`, TEST_NOW - 100 + i) })).status).toBe(202);
    // Two of ~4.5 KB fit in 10,000 bytes: the seeded ones went first (oldest), then the app's own.
    expect(await names(m)).toEqual(['own-3', 'own-2']);
  });
});

describe('notes', () => {
  const note = (m: ReturnType<typeof mock>, id: string) => m.call('POST', '/notes', { body: { body: TEXT, user: { id } } });

  it('refuses a note past the budget, changing nothing, until a deletion frees the room', async () => {
    // About 4.3 KB a note: two fit in 10,000 bytes.
    const m = withRoom('notes', 10_000);
    expect((await note(m, GRACE)).status).toBe(200);
    expect((await note(m, ADA)).status).toBe(200);
    const before = await stateText(m);
    const res = await m.call('POST', '/notes', { body: { body: TEXT, user: { id: ADA } } });
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect(await stateText(m)).toBe(before);
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: GRACE } })).status).toBe(200);
    expect((await note(m, ADA)).status).toBe(200);
  });

  it('counts a note the same whoever holds it, so a merge moving notes leaves the tally exact', () => {
    // A lead merged into a user changes each note's person, not its tally entry: a size that
    // depended on the person's id would drift (deleting the user later would give back more or less).
    const n = { id: '77', customer: 'short', admin_id: '814860', body: TEXT, created_at: TEST_NOW };
    expect(noteBytes({ ...n, customer: 'a-much-longer-person-id-than-the-first' })).toBe(noteBytes(n));
  });

  it('frees no room when a seeded person goes with seeded notes: they stay in the base', async () => {
    const m = withRoom('notes', 10_000);
    const doc = JSON.parse(await stateText(m));
    const admin = (doc.notes as { admin_id: string }[])[0]?.admin_id ?? (doc.admins as { id: string }[])[0]?.id;
    doc.notes = [...(doc.notes as object[]), ...[1, 2].map((i) => ({ id: `9900${i}`, customer: GRACE, admin_id: admin, body: TEXT, created_at: TEST_NOW - 100 }))];
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    expect((await note(m, ADA)).status).toBe(200);
    expect((await note(m, ADA)).status).toBe(200);
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: GRACE } })).status).toBe(200);
    const before = await stateText(m);
    const res = await note(m, ADA);
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect(await stateText(m)).toBe(before);
  });
});
