// POST /visitors/convert with type user, what the merge keeps: the user's values first, the
// visitor's sessions, companies, tags and segments added, the visitor gone, an enrichment queued
// only when the email changed; and the `field` of each refusal, which clients branch on.

import { describe, expect, it } from 'vitest';
import { ACME, ADA, INITECH, VISITOR, VISITOR_2, VISITOR_USER_ID } from '../../fixture-ids.js';
import { expectRejected, mock, stateText, TEST_NOW, type TestMock } from '../../helpers.js';

interface Exported {
  customers: { id: string; type: string; session_count: number }[];
  jobs: { customer_id: string; due_at: number }[];
}
const exported = async (m: TestMock) => JSON.parse(await stateText(m)) as Exported;
const convert = (m: TestMock, body: unknown) => m.call('POST', '/visitors/convert', { body });
const fields = (res: { body: { errors: { field?: string }[] } }) => res.body.errors.map((e) => e.field);

const SEGMENT_A = '5714dd359a3fd47136000901';
const SEGMENT_B = '5714dd359a3fd47136000902';

/** Gives VISITOR_2 sessions, companies, tags and segments, part of them shared with Ada's. */
async function busyVisitor(m: TestMock): Promise<void> {
  const visitor = (await exported(m)).customers.find((c) => c.id === VISITOR_2);
  const doc = {
    app: { id: 'demo', tokens: ['demo-token'] },
    customers: [{ ...visitor, session_count: 3, companies: [INITECH, ACME], tags: ['17514', '17513'], segments: [SEGMENT_B, SEGMENT_A] }],
  };
  expect((await m.call('POST', '/__admin/seed?mode=merge', { token: null, body: doc })).status).toBe(200);
}

describe('POST /visitors/convert into an existing user', () => {
  it('adds the sessions, keeps the user first in each list and adds only what the visitor brings', async () => {
    const m = mock();
    await busyVisitor(m);
    const res = await convert(m, { visitor: { id: VISITOR_2 }, user: { user_id: 'ada-1' }, type: 'user' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ADA, type: 'user', anonymous: false, session_count: 45, updated_at: TEST_NOW });
    expect(res.body.companies.companies.map((c: { id: string }) => c.id)).toEqual([ACME, INITECH]);
    expect(res.body.tags.tags.map((t: { id: string }) => t.id)).toEqual(['17513', '17514']);
    expect(res.body.segments.segments.map((s: { id: string }) => s.id)).toEqual([SEGMENT_A, SEGMENT_B]);

    const after = await exported(m);
    expect(after.customers.find((c) => c.id === ADA)?.session_count).toBe(45);
    expect(after.customers.some((c) => c.id === VISITOR_2)).toBe(false);
    const initechUsers = await m.call('GET', `/companies/${INITECH}/users`);
    expect(initechUsers.body.users.map((u: { id: string }) => u.id)).toContain(ADA);
  });

  it('queues an enrichment of the user, due after the job delay, when the email changes', async () => {
    const m = mock();
    const jobsBefore = (await exported(m)).jobs.length;
    await convert(m, { visitor: { id: VISITOR_2 }, user: { user_id: 'ada-1' }, type: 'user' });
    const jobs = (await exported(m)).jobs;
    expect(jobs).toHaveLength(jobsBefore + 1);
    expect(jobs.at(-1)).toMatchObject({ customer_id: ADA, due_at: TEST_NOW + 2 });
  });

  it('refuses a merge that would exceed the custom attribute limit, changing nothing', async () => {
    const m = mock();
    // Ada holds 4 attributes; 246 more fill her to the limit of 250, and the visitor brings a 251st.
    const more = Object.fromEntries(Array.from({ length: 246 }, (_, i) => [`extra_${i}`, i]));
    expect((await m.call('POST', '/users', { body: { user_id: 'ada-1', custom_attributes: more } })).status).toBe(200);
    expect((await m.call('PUT', '/visitors', { body: { id: VISITOR_2, custom_attributes: { brought: 1 } } })).status).toBe(200);
    const res = await expectRejected(m, 'POST', '/visitors/convert', { body: { visitor: { id: VISITOR_2 }, user: { user_id: 'ada-1' }, type: 'user' } }, 400, ['parameter_invalid']);
    expect(fields(res)).toEqual(['custom_attributes']);
  });
});

describe('POST /visitors/convert: the visitor becomes the user', () => {
  it('keeps its place in the export and queues nothing when no email is given', async () => {
    const m = mock();
    const before = await exported(m);
    const res = await convert(m, { visitor: { id: VISITOR }, user: { user_id: 'brand-new' }, type: 'user' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: VISITOR, type: 'user', email: null, anonymous: false });
    const after = await exported(m);
    expect(after.customers.map((c) => c.id)).toEqual(before.customers.map((c) => c.id));
    expect(after.jobs).toEqual(before.jobs);
  });
});

describe('POST /visitors/convert refusals name the member at fault', () => {
  const reject = (m: TestMock, body: unknown, status: number, codes: string[]) => expectRejected(m, 'POST', '/visitors/convert', { body }, status, codes);

  it('names type, visitor, visitor.user_id, user and user.user_id', async () => {
    const m = mock();
    expect(fields(await reject(m, { visitor: { id: VISITOR }, type: 'admin' }, 400, ['bad_request']))).toEqual(['type']);
    expect(fields(await reject(m, { type: 'lead' }, 400, ['parameter_not_found']))).toEqual(['visitor']);
    expect(fields(await reject(m, { visitor: {}, type: 'lead' }, 400, ['parameter_not_found']))).toEqual(['visitor.user_id']);
    expect(fields(await reject(m, { visitor: { id: VISITOR }, user: {}, type: 'user' }, 400, ['parameter_not_found']))).toEqual(['user.user_id']);
    expect(fields(await reject(m, { visitor: { id: VISITOR }, type: 'user' }, 400, ['parameter_not_found']))).toEqual(['user']);
  });

  it('names user.email for a user email over the limit once lower-cased, with or without a user_id', async () => {
    const m = mock();
    // İ lower-cases to two code points: 255 characters sent, 455 stored.
    const long = `${'\u0130'.repeat(200)}${'e'.repeat(43)}@example.com`;
    for (const user of [{ email: long }, { user_id: 'ada-1', email: long }]) {
      const res = await reject(m, { visitor: { id: VISITOR }, user, type: 'user' }, 400, ['parameter_invalid']);
      expect(fields(res)).toEqual(['user.email']);
    }
  });

  it('tells an email-only visitor key apart from no key at all', async () => {
    const m = mock();
    const byEmail = await reject(m, { visitor: { email: 'x@example.com' }, type: 'lead' }, 400, ['parameter_not_found']);
    expect(byEmail.body.errors[0].message).toMatch(/email cannot identify a visitor/);
    const none = await reject(m, { visitor: {}, type: 'lead' }, 400, ['parameter_not_found']);
    expect(none.body.errors[0].message).toMatch(/user_id or id must be supplied/);
  });

  it('names the visitor kind when a visitor update sends what only users have', async () => {
    const m = mock();
    const res = await expectRejected(m, 'PUT', '/visitors', { body: { user_id: VISITOR_USER_ID, new_session: true } }, 400, ['parameter_invalid']);
    expect(fields(res)).toEqual(['new_session']);
    expect(res.body.errors[0].message).toMatch(/for visitors/);
    const plain = await expectRejected(m, 'PUT', '/visitors', { body: {} }, 400, ['parameter_not_found']);
    expect(fields(plain)).toEqual(['user_id']);
  });
});
