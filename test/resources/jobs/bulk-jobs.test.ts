// Bulk jobs: POST /bulk/users and /bulk/events answer 202 with the job, the items run on the app's
// job queue (the clock or POST /__admin/jobs/run), each as the single call would; GET /jobs/{id}
// and its error feed; appending, the closing window, caps and the per-item rate-limit charge.

import { describe, expect, it } from 'vitest';
import { ADA } from '../../fixture-ids.js';
import { errorCodes, expectRejected, mock, stateText, TEST_NOW, type TestMock } from '../../helpers.js';

const T = TEST_NOW - 60;
const runJobs = (m: TestMock) => m.call('POST', '/__admin/jobs/run?app=demo', { token: null });
const userItems = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ method: 'post', data_type: 'user', data: { user_id: `bulk-${from + i}`, email: `bulk-${from + i}@example.com` } }));

describe('POST /bulk/users', () => {
  it('answers 202 with a pending job, runs its items on the queue and completes it', async () => {
    const m = mock();
    const res = await m.call('POST', '/bulk/users', { body: { items: [...userItems(2), { method: 'delete', data_type: 'user', data: { user_id: 'ada-1' } }] } });
    expect(res.status).toBe(202);
    const job = res.body;
    expect(job).toEqual({
      type: 'job',
      app_id: 'demo',
      id: expect.stringMatching(/^job_v2_[0-9a-f_]{36}$/),
      name: 'api_bulk_job',
      created_at: TEST_NOW,
      updated_at: TEST_NOW,
      completed_at: null,
      closing_at: TEST_NOW + 900,
      state: 'running',
      links: { error: `http://localhost/jobs/${job.id}/error`, self: `http://localhost/jobs/${job.id}` },
      tasks: [{ id: expect.stringMatching(/^task_v2_/), item_count: 3, created_at: TEST_NOW, started_at: null, completed_at: null, state: 'pending' }],
    });
    // Nothing has run yet: the items wait on the queue.
    expect((await m.call('GET', '/users?user_id=bulk-0')).status).toBe(404);
    expect((await runJobs(m)).body.ran).toBeGreaterThanOrEqual(1);
    const after = (await m.call('GET', `/jobs/${job.id}`)).body;
    expect(after.state).toBe('completed');
    expect(after.completed_at).toBe(TEST_NOW);
    expect(after.tasks[0]).toMatchObject({ state: 'completed', started_at: TEST_NOW, completed_at: TEST_NOW });
    expect((await m.call('GET', '/users?user_id=bulk-1')).body.email).toBe('bulk-1@example.com');
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(404);
    expect((await m.call('GET', `/jobs/${job.id}/error`)).body).toEqual({ app_id: 'demo', job_id: job.id, pages: {}, items: [] });
  });

  it('runs the items once the clock passes the job delay, without the control plane', async () => {
    const m = mock();
    const job = (await m.call('POST', '/bulk/users', { body: { items: userItems(1) } })).body;
    m.clock.advance(2);
    expect((await m.call('GET', `/jobs/${job.id}`)).body.state).toBe('completed');
    expect((await m.call('GET', '/users?user_id=bulk-0')).status).toBe(200);
  });

  it('puts failed items in the error feed and keeps the others, each item on its own', async () => {
    const m = mock();
    const items = [
      { method: 'post', data_type: 'user', data: { user_id: 'ok-1', custom_attributes: { plan: 'pro' } } },
      { method: 'post', data_type: 'user', data: { user_id: 'bad-1', custom_attributes: { nested: { a: 1 } } } },
      { method: 'delete', data: { user_id: 'nobody' } },
      { method: 'post', data: { email: 'shared@example.com', name: 'x' } },
    ];
    const job = (await m.call('POST', '/bulk/users', { body: { items } })).body;
    await runJobs(m);
    const feed = (await m.call('GET', `/jobs/${job.id}/error`)).body;
    expect(feed.items.map((i: { data: unknown; method: string }) => [i.method, i.data])).toEqual([
      ['post', items[1]?.data],
      ['delete', { user_id: 'nobody' }],
      ['post', { email: 'shared@example.com', name: 'x' }],
    ]);
    expect(feed.items[0]).toMatchObject({ id: job.tasks[0].id, updated_at: TEST_NOW, data_type: 'user', error: expect.stringContaining('parameter_invalid') });
    expect(feed.items[1].error).toBe('not_found: User Not Found');
    expect(feed.items[2].error).toMatch(/^conflict: /);
    expect((await m.call('GET', '/users?user_id=ok-1')).body.custom_attributes).toEqual({ plan: 'pro' });
    expect((await m.call('GET', '/users?user_id=bad-1')).status).toBe(404);
    const after = (await m.call('GET', `/jobs/${job.id}`)).body;
    expect([after.state, after.tasks[0].state]).toEqual(['completed', 'completed']);
  });

  it('fails a job whose every item failed', async () => {
    const m = mock();
    const job = (await m.call('POST', '/bulk/users', { body: { items: [{ method: 'delete', data: { user_id: 'nobody' } }] } })).body;
    await runJobs(m);
    const after = (await m.call('GET', `/jobs/${job.id}`)).body;
    expect([after.state, after.tasks[0].state]).toEqual(['failed', 'failed']);
  });

  it('appends to an open job (running while a later task waits), refuses a closed or unknown one', async () => {
    const m = mock();
    const job = (await m.call('POST', '/bulk/users', { body: { items: userItems(1) } })).body;
    await runJobs(m);
    m.clock.advance(600);
    const appended = await m.call('POST', '/bulk/users', { body: { items: userItems(2, 10), job: { id: job.id } } });
    expect(appended.status).toBe(202);
    expect(appended.body.id).toBe(job.id);
    expect(appended.body.state).toBe('running');
    expect(appended.body.tasks.map((t: { state: string; item_count: number }) => [t.state, t.item_count])).toEqual([['completed', 1], ['pending', 2]]);
    await runJobs(m);
    expect((await m.call('GET', `/jobs/${job.id}`)).body.state).toBe('completed');
    m.clock.advance(301);
    const closed = await expectRejected(m, 'POST', '/bulk/users', { body: { items: userItems(1), job: { id: job.id } } }, 403, ['forbidden']);
    expect(closed.body.errors[0].message).toBe(`job ${job.id} is closed for new task updates`);
    const unknown = await expectRejected(m, 'POST', '/bulk/users', { body: { items: userItems(1), job: { id: 'job_v2_nope' } } }, 404, ['job_not_found']);
    expect(unknown.body.errors[0].message).toBe('job job_v2_nope not found');
  });

  it('refuses more than 100 items, none, a bad method or another data_type, changing nothing', async () => {
    const m = mock();
    await expectRejected(m, 'POST', '/bulk/users', { body: { items: userItems(101) } }, 400, ['parameter_invalid']);
    await expectRejected(m, 'POST', '/bulk/users', { body: { items: [] } }, 400, ['parameter_invalid']);
    await expectRejected(m, 'POST', '/bulk/users', { body: {} }, 400, ['parameter_not_found']);
    await expectRejected(m, 'POST', '/bulk/users', { body: { items: [{ method: 'put', data: {} }] } }, 400, ['parameter_invalid']);
    const other = await expectRejected(m, 'POST', '/bulk/users', { body: { items: [{ method: 'post', data_type: 'event', data: {} }] } }, 400, ['parameter_invalid']);
    expect(other.body.errors[0].field).toBe('items[0].data_type');
    await expectRejected(m, 'POST', '/bulk/events', { body: { items: [{ method: 'delete', data: {} }] } }, 400, ['parameter_invalid']);
  });

  it('charges the rate limit per item: the next request in the window is a 429', async () => {
    const m = mock();
    const res = await m.call('POST', '/bulk/users', { body: { items: userItems(100) } });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    const next = await m.call('GET', '/users/' + ADA);
    expect(next.status).toBe(429);
    expect(errorCodes(next)).toEqual(['rate_limit_exceeded']);
  });

  it('answers 404 for an unknown job, and POST /jobs/{id} is not an operation', async () => {
    const m = mock();
    expect(errorCodes(await m.call('GET', '/jobs/job_v2_nope'))).toEqual(['not_found']);
    expect(errorCodes(await m.call('GET', '/jobs/job_v2_nope/error'))).toEqual(['not_found']);
    const job = (await m.call('POST', '/bulk/users', { body: { items: userItems(1) } })).body;
    await expectRejected(m, 'POST', `/jobs/${job.id}`, { body: {} }, 404, ['not_found']);
  });
});

describe('POST /bulk/events', () => {
  it('creates the events through POST /events\' rules, duplicates and unknown people included', async () => {
    const m = mock();
    const items = [
      { method: 'post', data_type: 'event', data: { event_name: 'a', created_at: T, user_id: 'ada-1', metadata: { n: 1 } } },
      { method: 'post', data_type: 'event', data: { event_name: 'a', created_at: T, email: 'ada@example.com' } },
      { method: 'post', data_type: 'event', data: { event_name: 'b', created_at: '2019-10-08T13:36:11.475+03:00', user_id: 'ada-1' } },
      { method: 'post', data_type: 'event', data: { event_name: 'c', created_at: T, user_id: 'nobody' } },
    ];
    const job = (await m.call('POST', '/bulk/events', { body: { items } })).body;
    await runJobs(m);
    const events = (await m.call('GET', '/events?type=user&user_id=ada-1')).body.events;
    expect(events.map((e: { event_name: string; metadata: unknown }) => [e.event_name, e.metadata])).toEqual([['a', { n: 1 }]]);
    const feed = (await m.call('GET', `/jobs/${job.id}/error`)).body.items;
    expect(feed.map((i: { error: string }) => i.error.split(':')[0])).toEqual(['parameter_invalid', 'not_found']);
  });

  it('reads a boolean metadata value as its text when the item runs, outside any request, as POST /events would', async () => {
    const m = mock();
    const items = [{ method: 'post', data_type: 'event', data: { event_name: 'flagged', created_at: T, user_id: 'ada-1', metadata: { trial: true } } }];
    const job = (await m.call('POST', '/bulk/events', { body: { items } })).body;
    const run = await runJobs(m);
    expect(run.status).toBe(200);
    expect(run.headers.get('x-mock-warning')).toBeNull();
    const events = (await m.call('GET', '/events?type=user&user_id=ada-1')).body.events;
    expect(events.map((e: { event_name: string; metadata: unknown }) => [e.event_name, e.metadata])).toEqual([['flagged', { trial: 'true' }]]);
    expect((await m.call('GET', `/jobs/${job.id}/error`)).body.items).toEqual([]);
    expect((await m.call('GET', `/jobs/${job.id}`)).body.state).toBe('completed');
  });
});

describe('jobs and state', () => {
  it('keeps at most 20 jobs: a new one pushes out the oldest finished, and is refused while the oldest waits', async () => {
    const m = mock();
    const first = (await m.call('POST', '/bulk/users', { body: { items: userItems(1) } })).body;
    // The clock stands still, so every job waits on the queue.
    for (let i = 1; i < 20; i++) {
      expect((await m.call('POST', '/bulk/users', { body: { items: userItems(1, i) } })).status).toBe(202);
    }
    const refused = await expectRejected(m, 'POST', '/bulk/users', { body: { items: userItems(1, 99) } }, 403, ['resource_limit_exceeded']);
    expect(refused.body.errors[0].message).toContain(first.id);
    await runJobs(m);
    expect((await m.call('POST', '/bulk/users', { body: { items: userItems(1, 99) } })).status).toBe(202);
    expect((await m.call('GET', `/jobs/${first.id}`)).status).toBe(404);
  });

  it('carries jobs and their queued tasks through snapshots, reset, and export and seed', async () => {
    const m = mock();
    const job = (await m.call('POST', '/bulk/users', { body: { items: userItems(2) } })).body;
    const exported = await stateText(m);
    expect(JSON.parse(exported).bulk_jobs[0].tasks[0].items).toHaveLength(2);
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'pending' } })).status).toBe(201);
    await runJobs(m);
    expect((await m.call('GET', `/jobs/${job.id}`)).body.state).toBe('completed');
    expect((await m.call('POST', '/__admin/snapshots/pending/restore?app=demo', { token: null })).status).toBe(200);
    expect((await m.call('GET', `/jobs/${job.id}`)).body.state).toBe('running');
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    expect((await m.call('GET', `/jobs/${job.id}`)).status).toBe(404);

    const other = mock();
    const seeded = await other.call('POST', '/__admin/seed', { token: null, body: JSON.parse(exported) });
    expect(seeded.status, seeded.text).toBe(200);
    expect(await stateText(other)).toBe(exported);
    await runJobs(other);
    expect((await other.call('GET', `/jobs/${job.id}`)).body.state).toBe('completed');
    expect((await other.call('GET', '/users?user_id=bulk-1')).status).toBe(200);
  });
});

describe('jobs in seeds', () => {
  const APP = { id: 'demo', tokens: ['demo-token'] };
  const seedRejected = async (m: TestMock, body: unknown, mode: string) => {
    const res = await expectRejected(m, 'POST', `/__admin/seed?mode=${mode}`, { token: null, body }, 400, ['parameter_invalid']);
    return res.body.errors[0].field as string;
  };

  it('a merge never lets another queue entry take a task\'s place: the job still runs', async () => {
    const m = mock();
    const job = (await m.call('POST', '/bulk/users', { body: { items: userItems(1) } })).body;
    const [entry] = JSON.parse(await stateText(m)).jobs;
    expect(entry).toMatchObject({ id: 1, kind: 'bulk_task', job_id: job.id });
    // Another app's export numbers its queue from 1 too.
    const merged = await m.call('POST', '/__admin/seed?mode=merge', {
      token: null,
      body: { app: APP, customers: [{ id: 'zz1', type: 'user', user_id: 'zz', email: 'zz@example.com' }], jobs: [{ id: 1, kind: 'enrich_customer', customer_id: 'zz1', due_at: TEST_NOW + 3600 }] },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(JSON.parse(await stateText(m)).jobs.map((j: { id: number; kind: string }) => [j.id, j.kind])).toEqual([[1, 'bulk_task'], [2, 'enrich_customer']]);
    await runJobs(m);
    expect((await m.call('GET', `/jobs/${job.id}`)).body.state).toBe('completed');
    expect((await m.call('GET', '/users?user_id=bulk-0')).status).toBe(200);
    // Merging the app's own export again replaces each entry by what it runs, adding none.
    const queued = (await m.call('POST', '/bulk/users', { body: { items: userItems(1, 5) } })).body;
    const state = JSON.parse(await stateText(m));
    expect((await m.call('POST', '/__admin/seed?mode=merge', { token: null, body: { app: APP, bulk_jobs: state.bulk_jobs, jobs: state.jobs } })).status).toBe(200);
    expect(JSON.parse(await stateText(m)).jobs).toEqual(state.jobs);
    await runJobs(m);
    expect((await m.call('GET', `/jobs/${queued.id}`)).body.state).toBe('completed');
  });

  it('refuses a seed whose pending task has no queue entry, or a job with two tasks of one id', async () => {
    const m = mock();
    await m.call('POST', '/bulk/users', { body: { items: userItems(1) } });
    const state = JSON.parse(await stateText(m));
    expect(await seedRejected(m, { ...state, jobs: [] }, 'replace')).toBe('bulk_jobs[0].tasks[0]');
    const [job] = state.bulk_jobs;
    const twice = { ...job, tasks: [job.tasks[0], { ...job.tasks[0], state: 'completed', items: [] }] };
    expect(await seedRejected(m, { ...state, bulk_jobs: [twice] }, 'replace')).toBe('bulk_jobs[0].tasks[1].id');
    // The queue still runs and the app still takes jobs.
    await runJobs(m);
    expect((await m.call('POST', '/bulk/users', { body: { items: userItems(1, 9) } })).status).toBe(202);
  });

  it('draws a new job id past the ids a seed brought back when the streams rewind', async () => {
    const m = mock();
    const first = (await m.call('POST', '/bulk/users', { body: { items: userItems(1) } })).body;
    await runJobs(m);
    // The seed rewinds the app's streams: the next id drawn is the one the first job got.
    expect((await m.call('POST', '/__admin/seed', { token: null, body: JSON.parse(await stateText(m)) })).status).toBe(200);
    const second = (await m.call('POST', '/bulk/users', { body: { items: userItems(1, 1) } })).body;
    expect(second.id).not.toBe(first.id);
    expect((await m.call('GET', `/jobs/${first.id}`)).body).toMatchObject({ state: 'completed', tasks: [{ id: first.tasks[0].id }] });
    expect(JSON.parse(await stateText(m)).bulk_jobs.map((j: { id: string }) => j.id)).toEqual([first.id, second.id]);
  });

  it('refuses a merge that would hold more than 20 jobs, naming bulk_jobs', async () => {
    const m = mock();
    await m.call('POST', '/bulk/users', { body: { items: userItems(1) } });
    await runJobs(m);
    const [done] = JSON.parse(await stateText(m)).bulk_jobs;
    const jobs = Array.from({ length: 20 }, (_, i) => ({ ...done, id: `job_seeded_${i}` }));
    expect(await seedRejected(m, { app: APP, bulk_jobs: jobs }, 'merge')).toBe('bulk_jobs');
    expect((await m.call('POST', '/__admin/seed?mode=merge', { token: null, body: { app: APP, bulk_jobs: jobs.slice(1) } })).status).toBe(200);
    expect(JSON.parse(await stateText(m)).bulk_jobs).toHaveLength(20);
  });
});
