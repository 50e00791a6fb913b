// Bulk jobs at their edges: the closing second, the task cap, the fields of the refusals, a
// failed job's completed_at, and the text of an item with several problems (pins what mutation
// testing of src/resources/jobs/rules.ts found unpinned).

import { describe, expect, it } from 'vitest';
import { expectRejected, mock, TEST_NOW, type TestMock } from '../../helpers.js';

const runJobs = (m: TestMock) => m.call('POST', '/__admin/jobs/run?app=demo', { token: null });
const item = (n: number) => ({ method: 'post', data_type: 'user', data: { user_id: `edge-${n}` } });

describe('bulk jobs at their edges', () => {
  it('takes a task at the closing second itself, and names job.id when closed or unknown', async () => {
    const m = mock();
    const job = (await m.call('POST', '/bulk/users', { body: { items: [item(0)] } })).body;
    m.clock.advance(900);
    expect((await m.call('POST', '/bulk/users', { body: { items: [item(1)], job: { id: job.id } } })).status).toBe(202);
    m.clock.advance(1);
    const closed = await expectRejected(m, 'POST', '/bulk/users', { body: { items: [item(2)], job: { id: job.id } } }, 403, ['forbidden']);
    expect(closed.body.errors[0].field).toBe('job.id');
    const unknown = await expectRejected(m, 'POST', '/bulk/users', { body: { items: [item(2)], job: { id: 'job_v2_nope' } } }, 404, ['job_not_found']);
    expect(unknown.body.errors[0].field).toBe('job.id');
  });

  it('takes 100 tasks in a job and refuses the 101st, naming job.id', async () => {
    const m = mock({ rateLimit: 1_000_000 });
    const job = (await m.call('POST', '/bulk/users', { body: { items: [item(0)] } })).body;
    for (let i = 1; i < 100; i++) expect((await m.call('POST', '/bulk/users', { body: { items: [item(i)], job: { id: job.id } } })).status).toBe(202);
    const over = await expectRejected(m, 'POST', '/bulk/users', { body: { items: [item(100)], job: { id: job.id } } }, 400, ['parameter_invalid']);
    expect(over.body.errors[0].field).toBe('job.id');
    expect((await m.call('GET', `/jobs/${job.id}`)).body.tasks).toHaveLength(100);
  });

  it('sets completed_at on a job whose every item failed, and joins an item\'s problems with "; "', async () => {
    const m = mock();
    const bad = { method: 'post', data_type: 'user', data: { user_id: 'x', custom_attributes: { 'a.b': 1, 'c$': 2 } } };
    const job = (await m.call('POST', '/bulk/users', { body: { items: [bad] } })).body;
    expect(job.completed_at).toBeNull();
    m.clock.advance(120);
    await runJobs(m);
    const after = (await m.call('GET', `/jobs/${job.id}`)).body;
    expect([after.state, after.completed_at]).toEqual(['failed', TEST_NOW + 120]);
    const [failed] = (await m.call('GET', `/jobs/${job.id}/error`)).body.items as { error: string }[];
    expect(failed?.error.split('; ').map((p) => p.split(':')[0])).toEqual(['parameter_invalid', 'parameter_invalid']);
  });

  it('pushes out the oldest finished job again at the 22nd: the two oldest are gone, the third kept', async () => {
    const m = mock();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await m.call('POST', '/bulk/users', { body: { items: [item(i)] } })).body.id);
    await runJobs(m);
    for (const n of [20, 21]) expect((await m.call('POST', '/bulk/users', { body: { items: [item(n)] } })).status).toBe(202);
    expect([(await m.call('GET', `/jobs/${ids[0]}`)).status, (await m.call('GET', `/jobs/${ids[1]}`)).status, (await m.call('GET', `/jobs/${ids[2]}`)).status]).toEqual([404, 404, 200]);
  });
});

describe('bulk jobs: the running oldest, a finished task queued again, rewound ids', () => {
  it('refuses a 21st job while the oldest is running: a task done, one pending', async () => {
    const m = mock();
    const oldest = (await m.call('POST', '/bulk/users', { body: { items: [item(0)] } })).body.id as string;
    m.clock.advance(1);
    expect((await m.call('POST', '/bulk/users', { body: { items: [item(1)], job: { id: oldest } } })).status).toBe(202);
    m.clock.advance(1);
    // Reading it runs the first task (due now), not the second (due in a second).
    expect((await m.call('GET', `/jobs/${oldest}`)).body.state).toBe('running');
    for (let i = 2; i < 21; i++) expect((await m.call('POST', '/bulk/users', { body: { items: [item(i)] } })).status).toBe(202);
    const res = await expectRejected(m, 'POST', '/bulk/users', { body: { items: [item(21)] } }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors).toHaveLength(1);
    expect((await m.call('GET', `/jobs/${oldest}`)).status).toBe(200);
  });

  it('a seeded finished task that a queue entry names again is not run again', async () => {
    const source = mock();
    const id = (await source.call('POST', '/bulk/users', { body: { items: [item(0)] } })).body.id as string;
    await runJobs(source);
    const doc = JSON.parse(await (await source.call('GET', '/__admin/state?app=demo', { token: null })).text);
    const job = doc.bulk_jobs.find((j: { id: string }) => j.id === id);
    const [task] = job.tasks;
    // A finished task that still lists an item (the schema allows it), and a queue entry for it.
    task.items = [item(99)];
    doc.jobs.push({ id: 9999, kind: 'bulk_task', job_id: id, task_id: task.id, due_at: 1 });
    const m = mock();
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    m.clock.advance(500);
    await runJobs(m);
    const after = (await m.call('GET', `/jobs/${id}`)).body;
    expect(after.tasks.map((t: { state: string; completed_at: number }) => [t.state, t.completed_at])).toEqual([[task.state, task.completed_at]]);
    expect((await m.call('GET', '/users?user_id=edge-99')).status).toBe(404);
  });

  it('a task added to a seeded job skips the ids the rewound streams draw again', async () => {
    const source = mock();
    const id = (await source.call('POST', '/bulk/users', { body: { items: [item(0)] } })).body.id as string;
    const doc = JSON.parse(await (await source.call('GET', '/__admin/state?app=demo', { token: null })).text);
    const m = mock();
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    for (const n of [1, 2]) expect((await m.call('POST', '/bulk/users', { body: { items: [item(n)], job: { id } } })).status).toBe(202);
    const ids = (await m.call('GET', `/jobs/${id}`)).body.tasks.map((t: { id: string }) => t.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });
});

describe('bulk items checked as the single calls check them', () => {
  it('an event item without event_name fails as parameter_not_found, one of the wrong type as parameter_invalid', async () => {
    const m = mock();
    const items = [
      { method: 'post', data_type: 'event', data: { created_at: TEST_NOW - 10, user_id: 'ada-1' } },
      { method: 'post', data_type: 'event', data: { event_name: 7, created_at: TEST_NOW - 10, user_id: 'ada-1' } },
      { method: 'post', data_type: 'event', data: { event_name: 'kept', created_at: TEST_NOW - 10, user_id: 'ada-1' } },
    ];
    const job = (await m.call('POST', '/bulk/events', { body: { items } })).body.id as string;
    await runJobs(m);
    const feed = (await m.call('GET', `/jobs/${job}/error`)).body.items as { error: string }[];
    expect(feed.map((e) => e.error.split(':')[0])).toEqual(['parameter_not_found', 'parameter_invalid']);
    expect(((await m.call('GET', '/events?type=user&user_id=ada-1')).body.events as { event_name: string }[]).map((e) => e.event_name)).toEqual(['kept']);
  });

  it('a user item with a numeric user_id fails in the feed and creates nobody', async () => {
    const m = mock();
    const job = (await m.call('POST', '/bulk/users', { body: { items: [{ method: 'post', data_type: 'user', data: { user_id: 12345, email: 'numeric@example.com' } }] } })).body.id as string;
    await runJobs(m);
    const feed = (await m.call('GET', `/jobs/${job}/error`)).body.items as { error: string }[];
    expect(feed.map((e) => e.error.split(':')[0])).toEqual(['parameter_invalid']);
    expect((await m.call('GET', '/users?email=numeric@example.com')).body.users).toEqual([]);
  });
});
