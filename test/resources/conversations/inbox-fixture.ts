// A small inbox seeded as the demo app (so the default token and expectRejected apply): two admins and
// a team, users with and without email, a lead and a visitor, and five conversations in every state,
// so list, reply, message and count tests can state exact answers.

import type { FixtureInput } from '../../../src/fixtures/fixture-doc.js';
import { mock, TEST_NOW as T, type TestMock } from '../../helpers.js';

export const ANN = '11';
export const BO = '12';
export const SUPPORT = '21';
export const U1 = 'a0000000000000000000000a';
export const U2 = 'a0000000000000000000000b';
export const U3 = 'a0000000000000000000000c';
export const L1 = 'a0000000000000000000000d';
export const V1 = 'a0000000000000000000000e';
export const C1 = 'c00000000000000000000001';
export const C2 = 'c00000000000000000000002';
export const C3 = 'c00000000000000000000003';
export const C4 = 'c00000000000000000000004';
export const C5 = 'c00000000000000000000005';

const user = (who: string) => ({ type: 'user' as const, id: who });

export const INBOX: FixtureInput = {
  // Read-only tests share one mock: its window must not run out.
  app: { id: 'demo', name: 'Inbox', tokens: ['demo-token'], rate_limit_per_minute: 1_000_000 },
  admins: [
    { id: ANN, name: 'Ann', email: 'ann@example.com' },
    { id: BO, name: 'Bo', email: 'bo@example.com' },
  ],
  teams: [{ id: SUPPORT, name: 'Support', admin_ids: [ANN] }],
  customers: [
    { id: U1, type: 'user', user_id: 'u1', email: 'u1@example.com', created_at: T - 90_000 },
    { id: U2, type: 'user', user_id: 'u2', email: 'u2@example.com', unsubscribed_from_emails: true, created_at: T - 80_000 },
    { id: U3, type: 'user', user_id: 'u3', email: null, created_at: T - 70_000 },
    { id: L1, type: 'contact', user_id: 'lead-1', email: 'lead@example.com', created_at: T - 60_000 },
    { id: V1, type: 'visitor', user_id: 'visitor-1', created_at: T - 50_000 },
  ],
  conversations: [
    { id: C1, customers: [U1], author: user(U1), body: '<p>one</p>', assignee: { type: 'admin', id: ANN }, open: true, read: false, created_at: T - 5000, updated_at: T - 1000, waiting_since: T - 4000 },
    { id: C2, customers: [U1], author: user(U1), body: '<p>two</p>', assignee: { type: 'admin', id: ANN }, open: false, read: true, created_at: T - 4000, updated_at: T - 3000 },
    { id: C3, customers: [U2], author: user(U2), body: '<p>three</p>', open: true, read: false, created_at: T - 3000, updated_at: T - 2000, waiting_since: T - 3000 },
    { id: C4, customers: [U1, U2], author: user(U1), body: '<p>four</p>', assignee: { type: 'team', id: SUPPORT }, open: true, read: true, created_at: T - 2000, updated_at: T - 500 },
    {
      id: C5, customers: [L1], author: { type: 'lead', id: L1 }, body: '<p>five</p>', assignee: { type: 'admin', id: BO },
      open: true, read: true, state: 'snoozed', snoozed_until: T + 3600, created_at: T - 6000, updated_at: T - 6000,
    },
  ],
};

/** A mock whose demo app is the inbox above. */
export async function inbox(): Promise<TestMock> {
  const m = mock();
  const res = await m.call('POST', '/__admin/seed', { token: null, body: INBOX });
  if (res.status !== 200) throw new Error(`seeding the inbox failed: ${res.text}`);
  return m;
}

export const ids = (res: { body: { conversations: { id: string }[] } }): string[] => res.body.conversations.map((c) => c.id);

/** POST /messages with this body, on the demo token. */
export const send = (m: TestMock, body: Record<string, unknown>) => m.call('POST', '/messages', { body });

/** The admin every message test sends from. */
export const fromAnn = { type: 'admin', id: ANN };

/** The newest conversation of a customer, as the list shows it. */
export async function newest(m: TestMock, customer: string) {
  const res = await m.call('GET', `/conversations?type=user&intercom_user_id=${customer}`);
  if (res.status !== 200) throw new Error(`listing the conversations of ${customer} failed: ${res.status}`);
  return res.body.conversations[0];
}
