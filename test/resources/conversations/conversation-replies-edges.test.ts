// Reply edges that conversation-replies.test.ts leaves open: which message types need a body, the
// snooze part's body, what a note stores after a snooze ran out, snoozed_until's exact syntax and upper bound, the reply to the last
// conversation with two identifiers or none to reply to, and running the rules on a snoozed one.

import { describe, expect, it } from 'vitest';
import { expectRejected, TEST_NOW as T, type TestMock } from '../../helpers.js';
import { ANN, C1, C5, inbox, U1, U3 } from './inbox-fixture.js';

const MAX_TIME = 253_402_300_799;
const reply = (m: TestMock, id: string, body: Record<string, unknown>) => m.call('POST', `/conversations/${id}/reply`, { body });
const admin = (message_type: string, extra: Record<string, unknown> = {}) => ({ type: 'admin', admin_id: ANN, message_type, ...extra });

describe('POST /conversations/{id}/reply: bodies', () => {
  it('refuses a note without body', async () => {
    const m = await inbox();
    const res = await expectRejected(m, 'POST', `/conversations/${C1}/reply`, { body: admin('note') }, 400, ['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('body');
  });

  it('refuses an empty body before the store sees it', async () => {
    const m = await inbox();
    const res = await expectRejected(m, 'POST', `/conversations/${C1}/reply`, { body: admin('comment', { body: '' }) }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('body');
  });

  it('stores a snooze part without the body sent with it', async () => {
    const m = await inbox();
    const res = await reply(m, C1, admin('snoozed', { snoozed_until: T + 60, body: 'see you' }));
    expect(res.status).toBe(200);
    expect(res.body.conversation_parts.conversation_parts.at(-1)).toMatchObject({ part_type: 'snoozed', body: null });
  });
});

describe('POST /conversations/{id}/reply: a note after a snooze ran out', () => {
  it('stores the conversation open, as reads already saw it', async () => {
    const m = await inbox();
    m.clock.advance(7200); // C5 was snoozed for an hour
    expect((await reply(m, C5, admin('note', { body: 'n' }))).status).toBe(200);
    const stored = (await m.call('GET', '/__admin/state?app=demo', { token: null })).body.conversations.find((c: { id: string }) => c.id === C5);
    expect(stored).toMatchObject({ state: 'open', snoozed_until: null, waiting_since: null, open: true, updated_at: T + 7200 });
  });
});

describe('POST /conversations/{id}/reply: snoozed_until', () => {
  it.each([`x${T + 60}`, `${T + 60}x`])('refuses %j', async (snoozedUntil) => {
    const m = await inbox();
    const res = await expectRejected(m, 'POST', `/conversations/${C1}/reply`, { body: admin('snoozed', { snoozed_until: snoozedUntil }) }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('snoozed_until');
  });

  it('takes the last second of 9999 and refuses the one after', async () => {
    const m = await inbox();
    await expectRejected(m, 'POST', `/conversations/${C1}/reply`, { body: admin('snoozed', { snoozed_until: MAX_TIME + 1 }) }, 400, ['parameter_invalid']);
    const res = await reply(m, C1, admin('snoozed', { snoozed_until: MAX_TIME }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'snoozed', snoozed_until: MAX_TIME });
  });
});

describe('POST /conversations/last/reply', () => {
  it('refuses two identifiers, naming the second', async () => {
    const m = await inbox();
    // Two naming two people, under strict mode; otherwise the first decides, with a warning.
    const res = await expectRejected(m, 'POST', '/conversations/last/reply', { body: { type: 'user', intercom_user_id: U1, user_id: 'u2', message_type: 'comment', body: 'x' }, ...{ headers: { 'x-mock-strict': 'true' } } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('user_id');
  });

  it('refuses an admin reply naming the customer twice, and one naming nobody', async () => {
    const m = await inbox();
    const twice = await expectRejected(m, 'POST', '/conversations/last/reply', { body: admin('note', { body: 'x', intercom_user_id: U1, user_id: 'u2' }), ...{ headers: { 'x-mock-strict': 'true' } } }, 400, ['parameter_invalid']);
    expect(twice.body.errors[0].field).toBe('user_id');
    const nobody = await expectRejected(m, 'POST', '/conversations/last/reply', { body: admin('note', { body: 'x' }) }, 400, ['parameter_not_found']);
    expect(nobody.body.errors[0].field).toBe('intercom_user_id');
  });

  it('answers 404 for a customer without conversations', async () => {
    const m = await inbox();
    const res = await expectRejected(m, 'POST', '/conversations/last/reply', { body: { type: 'user', intercom_user_id: U3, message_type: 'comment', body: 'x' } }, 404, ['not_found']);
    expect(res.body.errors[0].message).toContain('no conversation to reply to');
  });
});

describe('POST /conversations/{id}/run_assignment_rules', () => {
  it('ends a snooze: the conversation is open again, updated now', async () => {
    const m = await inbox();
    const res = await m.call('POST', `/conversations/${C5}/run_assignment_rules`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ open: true, state: 'open', snoozed_until: null, updated_at: T });
    expect((await m.call('GET', `/conversations/${C5}`)).body).toMatchObject({ state: 'open', snoozed_until: null, updated_at: T });
  });
});
