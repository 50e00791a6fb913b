// The export's former_customers: deleted people that conversations still name, sorted by id, never
// an admin who wrote in a conversation; and the keys a deletion request or a lead deletion lacks.

import { describe, expect, it } from 'vitest';
import { ADA, GRACE, GROUP, LEAD, LINUS } from '../fixture-ids.js';
import { expectRejected, mock, stateText, type TestMock } from '../helpers.js';

const formers = async (m: TestMock) => JSON.parse(await stateText(m)).former_customers as string[];
const conversationsOf = async (m: TestMock, id: string) => (await m.call('GET', `/conversations?type=user&intercom_user_id=${id}`)).body.conversations as { id: string }[];

describe('former_customers', () => {
  it('is empty while everyone the conversations name is here, admins who wrote in them included', async () => {
    const m = mock();
    expect((await conversationsOf(m, ADA)).length).toBeGreaterThan(0);
    // A conversation an admin started: its author is the admin.
    const sent = await m.call('POST', '/messages', { body: { message_type: 'inapp', body: 'Hi', from: { type: 'admin', id: 814860 }, to: { type: 'user', id: ADA } } });
    expect(sent.status, sent.text).toBe(200);
    expect(await formers(m)).toEqual([]);
  });

  it('lists the deleted people the conversations name, sorted by id', async () => {
    const m = mock();
    expect((await conversationsOf(m, GRACE)).length).toBeGreaterThan(0);
    for (const id of [LEAD, LINUS, GRACE, ADA]) expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: id } })).status).toBe(200);
    expect(await formers(m)).toEqual([ADA, GRACE, LEAD]);
  });

  it('sorts them by id, not in the order the conversations name them', async () => {
    const m = mock();
    // A new lead (an id above every seeded one) joins the first conversation.
    const added = await m.call('POST', `/conversations/${GROUP}/customers`, { body: { admin_id: '814860', customer: { email: 'late@example.com' } } });
    expect(added.status, added.text).toBe(200);
    const late = (added.body.customers as { id: string }[]).at(-1)?.id as string;
    expect(late > LEAD).toBe(true);
    expect((await m.call('DELETE', `/contacts/${late}`)).status).toBe(200);
    expect((await m.call('DELETE', `/contacts/${LEAD}`)).status).toBe(200);
    expect(await formers(m)).toEqual([LEAD, late]);
  });
});

describe('former_customers of a seeded conversation whose authors are not among its customers', () => {
  // A fixture may name a conversation's author, or a part's, without listing them as its customers:
  // only the authors' checks can list them once deleted, and without them the export would name
  // people it does not hold and not seed back.
  const A = 'u00000000000000000000000a';
  const B = 'u00000000000000000000000b';
  const C = 'l00000000000000000000000c';
  const doc = {
    app: { id: 'fc', tokens: ['fc-token'] },
    admins: [{ id: '1', name: 'Solo', email: 'solo@example.com' }],
    customers: [{ id: A, user_id: 'a' }, { id: B, user_id: 'b' }, { id: C, type: 'contact', user_id: 'c0c0c0c0-0000-4000-8000-000000000001' }],
    conversations: [{
      id: 'v0000000000000000000000a', customers: [A], author: { type: 'user', id: B },
      parts: [{ id: '1', author: { type: 'lead', id: C } }, { id: '2', author: { type: 'admin', id: '1' } }],
    }],
  };

  it('lists the deleted user who started it and the deleted lead who wrote a part, and the export seeds back', async () => {
    const m = mock();
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
    const exported = async () => JSON.parse(await stateText(m, 'fc')).former_customers as string[];
    expect(await exported()).toEqual([]);
    expect((await m.call('POST', '/user_delete_requests', { token: 'fc-token', body: { intercom_user_id: B } })).status).toBe(200);
    expect(await exported()).toEqual([B]);
    expect((await m.call('DELETE', `/contacts/${C}`, { token: 'fc-token' })).status).toBe(200);
    expect(await exported()).toEqual([C, B]);
    const state = await stateText(m, 'fc');
    const seeded = await m.call('POST', '/__admin/seed?mode=replace', { token: null, raw: state, headers: { 'content-type': 'application/json' } });
    expect(seeded.status, seeded.text).toBe(200);
    expect(await stateText(m, 'fc')).toBe(state);
  });
});

describe('deletion keys', () => {
  it('DELETE /contacts with neither id nor user_id is a 400 naming user_id', async () => {
    const m = mock();
    const res = await expectRejected(m, 'DELETE', '/contacts', {}, 400, ['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('user_id');
  });

  it('POST /user_delete_requests with a number for intercom_user_id reads its text (no such id: 404); strict mode answers a 400 naming it', async () => {
    const m = mock();
    await expectRejected(m, 'POST', '/user_delete_requests', { body: { intercom_user_id: 5 } }, 404, ['not_found']);
    const res = await expectRejected(m, 'POST', '/user_delete_requests', { body: { intercom_user_id: 5 }, ...{ headers: { 'x-mock-strict': 'true' } } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('intercom_user_id');
  });
});
