// A small app for the catalog tests (tag and segment filters, company lists, tag deletion,
// segments, user counts): few records with known timestamps, so every order can be spelled out.

import { expect } from 'vitest';
import { errorCodes, mock, TEST_NOW, type TestMock } from '../../helpers.js';

export const TOKEN = 'cat-token';
export const DAY = 86_400;

export const U1 = 'c0000000000000000000000u1';
export const U2 = 'c0000000000000000000000u2';
export const U3 = 'c0000000000000000000000u3';
export const L1 = 'c0000000000000000000000l1';
export const V1 = 'c0000000000000000000000v1';
export const ALPHA = 'c00000000000000000000co1';
export const BETA = 'c00000000000000000000co2';
export const GAMMA = 'c00000000000000000000co3';
export const BETA_2 = 'c00000000000000000000co4';
export const SEG_U = 'c0000000000000000000seg1';
export const SEG_C = 'c0000000000000000000seg2';
export const CONV = 'c0000000000000000000cnv1';

const customer = (type: string, id: string, userId: string, created: number, extra: object = {}) => ({
  type,
  id,
  user_id: userId,
  created_at: created,
  updated_at: created,
  ...extra,
});

export const CATALOG = {
  app: { id: 'cat', tokens: [TOKEN], rate_limit_per_minute: 1_000_000 },
  tags: [
    { id: '1', name: 'A' },
    { id: '2', name: 'B' },
    { id: '3', name: 'C' },
  ],
  segments: [
    { id: SEG_U, name: 'Seg U', person_type: 'user', created_at: TEST_NOW - 30 * DAY },
    { id: SEG_C, name: 'Seg C', person_type: 'company', created_at: TEST_NOW - 30 * DAY, rule_tags: ['2'] },
  ],
  companies: [
    { id: ALPHA, company_id: 'a', name: 'Alpha', last_request_at: 100, updated_at: TEST_NOW - 9 * DAY, tags: ['1'] },
    { id: BETA, company_id: 'b', name: 'Beta', last_request_at: 200, updated_at: TEST_NOW - 9 * DAY, tags: ['1', '2'], segments: [SEG_C] },
    { id: GAMMA, company_id: 'g', name: 'Gamma', last_request_at: null, updated_at: TEST_NOW - 9 * DAY, tags: ['1'] },
    { id: BETA_2, company_id: 'b2', name: 'Beta', last_request_at: null, updated_at: TEST_NOW - 2 * DAY },
  ],
  customers: [
    customer('user', U1, 'u1', TEST_NOW - 10 * DAY, { last_request_at: 500, tags: ['1'], segments: [SEG_U], companies: [ALPHA, BETA] }),
    customer('user', U2, 'u2', TEST_NOW - 5 * DAY, { tags: ['1', '2'], companies: [BETA] }),
    customer('user', U3, 'u3', TEST_NOW - DAY, { last_request_at: 300, tags: ['1'], segments: [SEG_U] }),
    customer('contact', L1, 'l1', TEST_NOW - 3 * DAY, { tags: ['1'], segments: [SEG_U], companies: [BETA_2] }),
    customer('visitor', V1, 'v1', TEST_NOW - 2 * DAY, { tags: ['1'] }),
  ],
  conversations: [{ id: CONV, customers: [U1], author: { type: 'user', id: U1 }, body: '<p>Hi</p>', tags: ['1'] }],
};

/** A mock holding the catalog app (token TOKEN), besides the default ones. */
export async function catalogMock(): Promise<TestMock> {
  const m = mock();
  const seeded = await m.call('POST', '/__admin/seed', { token: null, body: CATALOG });
  expect(seeded.status).toBe(200);
  return m;
}

/** GET as the catalog app. */
export const get = (m: TestMock, path: string) => m.call('GET', path, { token: TOKEN });

export const idsOf = (list: { id: string }[]) => list.map((r) => r.id);

/** The catalog app's exported state, for "a rejected request changes nothing". */
export const catState = async (m: TestMock) => (await m.call('GET', '/__admin/state?app=cat', { token: null })).text;

/** A request of the catalog app that must be refused with `status` and `codes`, changing nothing. */
export async function catRejected(m: TestMock, method: string, path: string, status: number, codes: string[], body?: unknown) {
  const before = await catState(m);
  const res = await m.call(method, path, { token: TOKEN, ...(body === undefined ? {} : { body }) });
  expect(res.status).toBe(status);
  expect(errorCodes(res)).toEqual(codes);
  expect(await catState(m)).toBe(before);
  return res;
}
