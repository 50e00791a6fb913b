// Bulk jobs' byte tally at the byte (resources/jobs/rules.ts): a task's pending items, measured here by
// the README's rule, fit the budget exactly; a run gives them back to the byte; a job pushed out by
// the 20-job cap gives back its error feed, but a seeded job's lists stay in the base and give back
// nothing. And a job with a task still pending has no completed_at.

import { describe, expect, it } from 'vitest';
import { errorCodes, expectRejected, mock, stateText, TEST_NOW, type TestMock } from '../../helpers.js';

const runJobs = (m: TestMock) => m.call('POST', '/__admin/jobs/run?app=demo', { token: null });
const FILLER = 'x'.repeat(500);
/** A valid item (user_id of 12 characters, a member the API ignores but the item keeps) and one that fails (a custom attribute name with a dot). */
const good = (n: number) => ({ method: 'post', data_type: 'user', data: { user_id: `bytes-${String(n).padStart(6, '0')}`, ignored: FILLER } });
const bad = (n: number) => ({ method: 'post', data_type: 'user', data: { user_id: `bytes-${String(n).padStart(6, '0')}`, ignored: FILLER, custom_attributes: { 'a.b': 1 } } });

/**
 * One pending item as kept ({method, data_type, data}): an object's 32, each member's 24 and two
 * bytes a character of its name, a string's 16 and two bytes a character; the list adds 32 and 8 a slot.
 */
const member = (name: string, value: number): number => 24 + 2 * name.length + value;
const text = (s: string): number => 16 + 2 * s.length;
const goodItem = 32 + member('method', text('post')) + member('data_type', text('user')) + member('data', 32 + member('user_id', text('bytes-000000')) + member('ignored', text(FILLER)));
const task = (items: number): number => 32 + items * (8 + goodItem);

const post = (m: TestMock, items: unknown[], jobId?: string) => m.call('POST', '/bulk/users', { body: jobId ? { items, job: { id: jobId } } : { items } });

describe('bulk byte tally, at the byte', () => {
  it('two tasks fit in exactly their bytes; a byte less refuses the second, changing nothing', async () => {
    const exact = mock({ byteBudgets: { bulk: task(2) + task(1) } });
    expect((await post(exact, [good(1), good(2)])).status).toBe(202);
    expect((await post(exact, [good(3)])).status).toBe(202);
    const under = mock({ byteBudgets: { bulk: task(2) + task(1) - 1 } });
    expect((await post(under, [good(1), good(2)])).status).toBe(202);
    const res = await expectRejected(under, 'POST', '/bulk/users', { body: { items: [good(3)] } }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors).toHaveLength(1);
  });

  it('a task that ran without failures gives back every byte: the budget takes the same again, and again', async () => {
    const m = mock({ byteBudgets: { bulk: task(2) } });
    for (let round = 0; round < 3; round++) {
      expect((await post(m, [good(2 * round), good(2 * round + 1)])).status).toBe(202);
      expect((await runJobs(m)).status).toBe(200);
    }
    expect((await post(m, [good(10), good(11)])).status).toBe(202);
  });

  it('a job pushed out by the 20-job cap gives back its error feed', async () => {
    // The failed job's feed keeps some bytes; the budget then has less than a task's room left.
    const m = mock({ byteBudgets: { bulk: task(1) + 1000 } });
    const failed = (await post(m, [bad(0)])).body.id as string;
    await runJobs(m);
    expect((await m.call('GET', `/jobs/${failed}/error`)).body.items).toHaveLength(1);
    const refused = await post(m, [good(1)]);
    expect(refused.status).toBe(403);
    expect(errorCodes(refused)).toEqual(['resource_limit_exceeded']);
    // Nineteen more jobs (each one item, run at once: nothing kept) make 20 with the failed one.
    for (let i = 1; i < 20; i++) {
      expect((await post(m, [{ method: 'post', data_type: 'user', data: { user_id: `small-${i}` } }])).status).toBe(202);
      await runJobs(m);
    }
    // The 21st pushes out the failed job first: its feed's room is free for the new task.
    expect((await post(m, [good(21)])).status).toBe(202);
    expect((await m.call('GET', `/jobs/${failed}`)).status).toBe(404);
  });

  it('a seeded job pushed out gives back nothing: its lists stay in the base', async () => {
    const source = mock();
    const seededJob = (await post(source, [bad(0), good(1)])).body.id as string;
    await runJobs(source);
    const doc = JSON.parse(await stateText(source));
    const [job] = doc.bulk_jobs;
    expect(job.id).toBe(seededJob);
    // A finished task that still lists items (the schema allows it): they are the base's too.
    job.tasks[0].items = [good(5)];
    const m = mock({ byteBudgets: { bulk: task(2) - 1 } });
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    for (let i = 1; i < 20; i++) {
      expect((await post(m, [{ method: 'post', data_type: 'user', data: { user_id: `small-${i}` } }])).status).toBe(202);
      await runJobs(m);
    }
    const job21 = await post(m, [good(21)]);
    expect(job21.status).toBe(202);
    expect((await m.call('GET', `/jobs/${seededJob}`)).status).toBe(404);
    // Had the seeded lists been given back, the tally would sit below zero and take a second task.
    const second = await post(m, [good(22)], job21.body.id);
    expect(second.status).toBe(403);
    expect(errorCodes(second)).toEqual(['resource_limit_exceeded']);
  });
});

describe('bulk byte tally of a seeded job', () => {
  it('running its seeded tasks gives back nothing, running the task the app added to it gives back that task', async () => {
    const source = mock();
    const id = (await post(source, [good(1)])).body.id as string;
    expect((await post(source, [good(2)], id)).status).toBe(202);
    const doc = JSON.parse(await stateText(source));
    // Room for one task and not quite two: what the app holds past its base decides.
    const m = mock({ byteBudgets: { bulk: 2 * task(1) - 1 } });
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    expect((await post(m, [good(3)], id)).status).toBe(202);
    await runJobs(m);
    expect((await m.call('GET', `/jobs/${id}`)).body.tasks.map((t: { state: string }) => t.state)).toEqual(['completed', 'completed', 'completed']);
    // The app holds nothing now: one task fits, a second does not.
    expect((await post(m, [good(4)])).status).toBe(202);
    const res = await post(m, [good(5)]);
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
  });
});

describe('completed_at', () => {
  it('stays null while a task of the job is pending, and is set when the last one runs', async () => {
    const m = mock();
    const job = (await post(m, [good(1)])).body.id as string;
    m.clock.advance(1);
    expect((await post(m, [good(2)], job)).status).toBe(202);
    // The first task is due (created_at + 2), the second not yet: reading the job runs the first.
    m.clock.advance(1);
    const halfway = (await m.call('GET', `/jobs/${job}`)).body;
    expect([halfway.state, halfway.completed_at, halfway.tasks.map((t: { state: string }) => t.state)]).toEqual(['running', null, ['completed', 'pending']]);
    m.clock.advance(1);
    const done = (await m.call('GET', `/jobs/${job}`)).body;
    expect([done.state, done.completed_at]).toEqual(['completed', TEST_NOW + 3]);
  });
});
