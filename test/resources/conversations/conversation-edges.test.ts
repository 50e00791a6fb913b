// Conversation writes at their edges: a requester or replier naming itself twice, an email several
// users share with one of them in the conversation, an address with whitespace, part ids with a
// gap, and an attachment URL that does not decode.

import { describe, expect, it } from 'vitest';
import { expectRejected, mock, TEST_NOW, type TestMock } from '../../helpers.js';
import { ADA, ALAN, GROUP, SHARED_A } from '../../fixture-ids.js';

const GAPPED = '5714dd359a3fd4713600c0c1';
const add = (m: TestMock, body: unknown) => m.call('POST', `/conversations/${GROUP}/customers`, { body });
const reply = (m: TestMock, body: unknown, id = GROUP) => m.call('POST', `/conversations/${id}/reply`, { body });
const customerIds = async (m: TestMock) => (await m.call('GET', `/conversations/${GROUP}`)).body.customers.map((c: { id: string }) => c.id);

describe('requests that name the requester twice', () => {
  it('adding a customer: the first decides; one naming someone else is a warning, under strict mode a 400 naming it, changing nothing', async () => {
    const m = mock();
    const body = { user_id: 'ada-1', email: 'grace@example.com', customer: { intercom_user_id: ALAN } };
    const res = await expectRejected(m, 'POST', `/conversations/${GROUP}/customers`, { body, ...{ headers: { 'x-mock-strict': 'true' } } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('email');
    const lenient = await m.call('POST', `/conversations/${GROUP}/customers`, { body });
    expect(lenient.status).toBe(200);
    expect(lenient.headers.get('x-mock-warning')).toMatch(/^identifier_overridden "user_id \\"ada-1\\" names the person; email /);
    const agree = await m.call('POST', `/conversations/${GROUP}/customers`, { body: { user_id: 'ada-1', email: 'ada@example.com', customer: { intercom_user_id: ALAN } } });
    expect([agree.status, agree.headers.get('x-mock-warning')]).toEqual([200, null]);
  });

  it('replying as a user: the first decides; one naming someone else is a 400 naming it under strict mode, changing nothing', async () => {
    const m = mock();
    const body = { type: 'user', message_type: 'comment', body: 'hi', intercom_user_id: ADA, user_id: 'grace-2' };
    const res = await expectRejected(m, 'POST', `/conversations/${GROUP}/reply`, { body, ...{ headers: { 'x-mock-strict': 'true' } } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('user_id');
    const lenient = await m.call('POST', `/conversations/${GROUP}/reply`, { body });
    expect(lenient.body.conversation_parts.conversation_parts.at(-1).author).toMatchObject({ type: 'user', id: ADA });
  });
});

describe('a requester email that several users share', () => {
  it('may add someone when one of those users is in the conversation', async () => {
    const m = mock();
    expect((await add(m, { admin_id: '814860', customer: { intercom_user_id: SHARED_A } })).status).toBe(200);
    const res = await add(m, { email: 'shared@example.com', customer: { intercom_user_id: ALAN } });
    expect(res.status).toBe(200);
    expect(await customerIds(m)).toContain(ALAN);
  });
});

describe('an email to add that is not an address', () => {
  it.each(['two words@example.com', 'someone@example.com trailing'])('refuses %j with 400 naming customer.email, creating no lead', async (email) => {
    const m = mock();
    const res = await expectRejected(m, 'POST', `/conversations/${GROUP}/customers`, { body: { admin_id: '814860', customer: { email } } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('customer.email');
  });
});

describe('reply part ids and attachments', () => {
  async function gapped(): Promise<TestMock> {
    const m = mock();
    const author = { type: 'admin', id: '814860' };
    const parts = ['1', '2', '3', '5'].map((id, i) => ({ id, body: `<p>${id}</p>`, created_at: TEST_NOW - 1000 + i, author }));
    const conversation = { id: GAPPED, created_at: TEST_NOW - 2000, author: { type: 'user', id: ADA }, customers: [ADA], parts };
    expect((await m.call('POST', '/__admin/seed?mode=merge', { body: { app: { id: 'demo', tokens: ['demo-token'] }, conversations: [conversation] } })).status).toBe(200);
    return m;
  }

  it('gives a new part the first free id from the part count up, past a gap', async () => {
    const m = await gapped();
    const res = await reply(m, { type: 'admin', admin_id: '814860', message_type: 'note', body: 'next' }, GAPPED);
    expect(res.status).toBe(200);
    expect(res.body.conversation_parts.conversation_parts.map((p: { id: string }) => p.id)).toEqual(['1', '2', '3', '5', '6']);
  });

  it('names an attachment by its URL\'s last segment, kept as sent when it does not decode', async () => {
    const m = await gapped();
    const urls = ['https://files.example.com/a/bad%E0%A4%A.pdf?x=1', 'https://files.example.com/a/good%20name.pdf#p'];
    const res = await reply(m, { type: 'admin', admin_id: '814860', message_type: 'note', body: 'files', attachment_urls: urls }, GAPPED);
    expect(res.status).toBe(200);
    const last = res.body.conversation_parts.conversation_parts.at(-1);
    expect(last.attachments).toEqual([
      expect.objectContaining({ name: 'bad%E0%A4%A.pdf', url: urls[0] }),
      expect.objectContaining({ name: 'good name.pdf', url: urls[1] }),
    ]);
  });
});

describe('the field an error names', () => {
  it('names customer.email for a shared email, customer.user_id for an unknown one, intercom_user_id for a reply naming nobody', async () => {
    const m = mock();
    const shared = await expectRejected(m, 'POST', `/conversations/${GROUP}/customers`, { body: { admin_id: '814860', customer: { email: 'shared@example.com' } } }, 409, ['conflict']);
    expect(shared.body.errors[0].field).toBe('customer.email');
    const unknown = await expectRejected(m, 'POST', `/conversations/${GROUP}/customers`, { body: { admin_id: '814860', customer: { user_id: 'nobody' } } }, 404, ['not_found']);
    expect(unknown.body.errors[0].field).toBe('customer.user_id');
    const nobody = await expectRejected(m, 'POST', `/conversations/${GROUP}/reply`, { body: { type: 'user', message_type: 'comment', body: 'hi' } }, 400, ['parameter_not_found']);
    expect(nobody.body.errors[0].field).toBe('intercom_user_id');
  });

  it('GET /counts names type or count for a bad value of either', async () => {
    const m = mock();
    const type = await expectRejected(m, 'GET', '/counts?type=bogus&count=tag', {}, 400, ['bad_request']);
    expect(type.body.errors[0].field).toBe('type');
    const count = await expectRejected(m, 'GET', '/counts?type=user&count=user', {}, 400, ['bad_request']);
    expect(count.body.errors[0].field).toBe('count');
  });
});
