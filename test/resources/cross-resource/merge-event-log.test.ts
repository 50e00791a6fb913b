// A merge seed lays incoming events over the app's log (fixtures/merge-logs.ts): a summary the app
// holds keeps counting the events it covers beyond those still kept, a new event takes the next
// place of the log, and an app that never had an event gets a log starting at 1.

import { describe, expect, it } from 'vitest';
import { ADA, GRACE, LEAD } from '../../fixture-ids.js';
import { mock, stateText, TEST_NOW, type TestMock } from '../../helpers.js';

const T = TEST_NOW - 3600;
const APP = { id: 'demo', tokens: ['demo-token'] };
const seed = (m: TestMock, body: unknown, mode: string) => m.call('POST', `/__admin/seed?mode=${mode}`, { token: null, body });
const exported = async (m: TestMock) => JSON.parse(await stateText(m));

describe('merge seed of events', () => {
  it('an app with no events gets a log from 1, the merged events in order', async () => {
    const m = mock();
    const before = await exported(m);
    expect(before.events).toEqual([]);
    expect(before.event_log).toBeUndefined();
    // A merge bringing no events gives no log either.
    expect((await seed(m, { app: APP }, 'merge')).status).toBe(200);
    expect((await exported(m)).event_log).toBeUndefined();
    const events = [
      { id: 'm-1', customer_id: ADA, event_name: 'n', created_at: T - 5 },
      { id: 'm-2', customer_id: ADA, event_name: 'n', created_at: T - 4 },
    ];
    const res = await seed(m, { app: APP, events }, 'merge');
    expect(res.status, res.text).toBe(200);
    const after = await exported(m);
    expect(after.event_log).toEqual({ first: 1, next: 3 });
    expect(after.events.map((e: { id: string; seq: number }) => [e.id, e.seq])).toEqual([['m-1', 1], ['m-2', 2]]);
  });

  it('a summary covering more events than are kept counts a merged event on top, and a given summary replaces it', async () => {
    const m = mock();
    const other = { customer_id: ADA, name: 'o', first: T - 300, last: T - 300, count: 3 };
    const res = await seed(m, { app: APP, events: [{ id: 'e-1', customer_id: ADA, event_name: 'n', created_at: T - 10 }, { id: 'o-1', customer_id: ADA, event_name: 'o', created_at: T - 300 }], event_summaries: [{ customer_id: ADA, name: 'n', first: T - 100, last: T - 10, count: 5 }, other] }, 'merge');
    expect(res.status, res.text).toBe(200);
    expect((await seed(m, { app: APP, events: [{ id: 'e-2', customer_id: ADA, event_name: 'n', created_at: T - 5 }] }, 'merge')).status).toBe(200);
    const after = await exported(m);
    expect(after.event_summaries).toEqual([{ customer_id: ADA, name: 'n', first: T - 100, last: T - 5, count: 6 }, other]);
    expect(after.event_log).toEqual({ first: 1, next: 4 });
    expect(after.events.map((e: { id: string; seq: number }) => [e.id, e.seq])).toEqual([['e-1', 1], ['o-1', 2], ['e-2', 3]]);
    const given = { customer_id: ADA, name: 'n', first: T - 200, last: T, count: 9 };
    expect((await seed(m, { app: APP, events: [{ id: 'e-3', customer_id: ADA, event_name: 'n', created_at: T }], event_summaries: [given] }, 'merge')).status).toBe(200);
    expect((await exported(m)).event_summaries).toEqual([given, other]);
  });

  it('the app\'s own queue merged back changes nothing: each enrichment entry is its own', async () => {
    const m = mock();
    for (const user_id of ['q-1', 'q-2']) expect((await m.call('POST', '/users', { body: { user_id, email: `${user_id}@example.com` } })).status).toBe(200);
    const state = await exported(m);
    expect(state.jobs.length).toBeGreaterThanOrEqual(2);
    expect((await seed(m, { app: APP, jobs: state.jobs }, 'merge')).status).toBe(200);
    expect((await exported(m)).jobs).toEqual(state.jobs);
  });
  it('a merge bringing no events keeps a log whose first events left with a deleted lead', async () => {
    const m = mock();
    const events = [
      { id: 'l-1', customer_id: LEAD, event_name: 'n', created_at: T - 5 },
      { id: 'a-1', customer_id: ADA, event_name: 'n', created_at: T - 4 },
    ];
    expect((await seed(m, { app: APP, events }, 'merge')).status).toBe(200);
    expect((await m.call('DELETE', `/contacts/${LEAD}`)).status).toBe(200);
    const before = await exported(m);
    // The lead's event is not exported, but its place stays taken.
    expect(before.event_log).toEqual({ first: 1, next: 3 });
    expect(before.events.map((e: { id: string; seq: number }) => [e.id, e.seq])).toEqual([['a-1', 2]]);
    expect((await seed(m, { app: APP }, 'merge')).status).toBe(200);
    expect((await exported(m)).event_log).toEqual({ first: 1, next: 3 });
    expect((await seed(m, { app: APP, events: [{ id: 'g-1', customer_id: GRACE, event_name: 'n', created_at: T - 3 }] }, 'merge')).status).toBe(200);
    const after = await exported(m);
    expect(after.event_log).toEqual({ first: 1, next: 4 });
    expect(after.events.map((e: { id: string; seq: number }) => [e.id, e.seq])).toEqual([['a-1', 2], ['g-1', 3]]);
  });

  it('an event merged under another name is counted by the summary of its new name, in its place', async () => {
    const m = mock();
    const events = [
      { id: 'n-1', customer_id: ADA, event_name: 'n', created_at: T - 30 },
      { id: 'm-1', customer_id: ADA, event_name: 'm', created_at: T - 20 },
      { id: 'm-2', customer_id: ADA, event_name: 'm', created_at: T - 10 },
    ];
    const summaries = [{ customer_id: ADA, name: 'n', first: T - 100, last: T - 30, count: 5 }, { customer_id: ADA, name: 'm', first: T - 20, last: T - 10, count: 2 }];
    expect((await seed(m, { app: APP, events, event_summaries: summaries }, 'merge')).status).toBe(200);
    const res = await seed(m, { app: APP, events: [{ id: 'm-1', customer_id: ADA, event_name: 'n', created_at: T - 20 }] }, 'merge');
    expect(res.status, res.text).toBe(200);
    const after = await exported(m);
    expect(after.event_summaries).toEqual([{ customer_id: ADA, name: 'n', first: T - 100, last: T - 20, count: 6 }, summaries[1]]);
    expect(after.events.map((e: { id: string; event_name: string; seq: number }) => [e.id, e.event_name, e.seq])).toEqual([['n-1', 'n', 1], ['m-1', 'n', 2], ['m-2', 'm', 3]]);
    // The same event again, under the same name: replaced in place, not counted twice.
    expect((await seed(m, { app: APP, events: [{ id: 'm-2', customer_id: ADA, event_name: 'm', created_at: T - 10, metadata: { again: 1 } }] }, 'merge')).status).toBe(200);
    const again = await exported(m);
    expect(again.event_summaries).toEqual(after.event_summaries);
    expect(again.events.map((e: { id: string; seq: number }) => [e.id, e.seq])).toEqual([['n-1', 1], ['m-1', 2], ['m-2', 3]]);
    expect(again.events[2].metadata).toEqual({ again: 1 });
  });

  it('the app\'s own queue of two pending bulk tasks merged back changes nothing', async () => {
    const m = mock();
    const items = (from: number) => [{ method: 'post', data_type: 'user', data: { user_id: `bulk-${from}` } }];
    const job = (await m.call('POST', '/bulk/users', { body: { items: items(0) } })).body;
    expect((await m.call('POST', '/bulk/users', { body: { items: items(1), job: { id: job.id } } })).status).toBe(202);
    const state = await exported(m);
    const tasks = state.jobs.filter((j: { kind: string }) => j.kind === 'bulk_task');
    expect(tasks).toHaveLength(2);
    expect(tasks[0].task_id).toBe(job.tasks[0].id);
    expect(tasks[1].task_id).not.toBe(tasks[0].task_id);
    const res = await seed(m, { app: APP, jobs: state.jobs }, 'merge');
    expect(res.status, res.text).toBe(200);
    expect((await exported(m)).jobs).toEqual(state.jobs);
  });
});
