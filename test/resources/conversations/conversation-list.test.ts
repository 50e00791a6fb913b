// GET /conversations with its filters (surface K1) and GET /counts?type=conversation (Q1, Q2), on
// the small inbox of inbox-fixture.ts, where every answer can be stated exactly.

import { describe, expect, it } from 'vitest';
import { errorCodes, TEST_NOW as T, type TestMock } from '../../helpers.js';
import { ANN, BO, C1, C2, C3, C4, C5, ids, inbox, L1, SUPPORT, U1 } from './inbox-fixture.js';

// Reads change nothing: they share one mock.
let shared: Promise<TestMock> | undefined;
const list = async (query: string) => {
  shared ??= inbox();
  return (await shared).call('GET', `/conversations${query}`);
};

describe('GET /conversations without a type', () => {
  it.each([
    ['', [C4, C1, C3, C2, C5]],
    ['?order=desc', [C4, C1, C3, C2, C5]],
    ['?order=asc', [C5, C2, C3, C1, C4]],
    ['?sort=created_at', [C4, C3, C2, C1, C5]],
    ['?sort=created_at&order=asc', [C5, C1, C2, C3, C4]],
    // Only conversations with a customer waiting show up.
    ['?sort=waiting_since', [C3, C1]],
    ['?sort=updated_at&order=desc', [C4, C1, C3, C2, C5]],
  ])('%s lists %j', async (query, expected) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(expected);
  });

  it('shows each conversation\'s state, snooze and wait', async () => {
    const res = await list('');
    const byId = Object.fromEntries(res.body.conversations.map((c: Record<string, unknown>) => [c.id, [c.open, c.state, c.read, c.snoozed_until, c.waiting_since, c.assignee]]));
    expect(byId).toEqual({
      [C1]: [true, 'open', false, null, T - 4000, { type: 'admin', id: ANN }],
      [C2]: [false, 'closed', true, null, null, { type: 'admin', id: ANN }],
      [C3]: [true, 'open', false, null, T - 3000, { type: 'nobody_admin', id: null }],
      [C4]: [true, 'open', true, null, null, { type: 'team', id: SUPPORT }],
      [C5]: [true, 'snoozed', true, T + 3600, null, { type: 'admin', id: BO }],
    });
  });

  it('ends a snooze when the clock reaches snoozed_until, without a write', async () => {
    const m = await inbox();
    await m.call('POST', '/__admin/clock', { token: null, body: { advance: 3600 } });
    const c5 = (await m.call('GET', `/conversations/${C5}`)).body;
    expect([c5.open, c5.state, c5.snoozed_until]).toEqual([true, 'open', null]);
  });
});

describe('GET /conversations?type=admin', () => {
  it.each([
    [`admin_id=${ANN}`, [C1, C2]],
    [`id=${ANN}`, [C1, C2]],
    [`admin_id=${ANN}&id=${ANN}`, [C1, C2]],
    [`admin_id=${ANN}&open=true`, [C1]],
    [`admin_id=${ANN}&open=false`, [C2]],
    [`admin_id=${ANN}&order=created_at&sort=asc`, [C1, C2]],
    [`admin_id=${ANN}&order=waiting_since`, [C1]],
    ['admin_id=nobody', [C3]],
    [`admin_id=${SUPPORT}`, [C4]],
    // A snoozed conversation is open.
    [`admin_id=${BO}&open=true`, [C5]],
    [`admin_id=${BO}&open=false`, []],
  ])('%s lists %j', async (query, expected) => {
    const res = await list(`?type=admin&${query}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(expected);
  });
});

describe('GET /conversations?type=user', () => {
  it.each([
    [`intercom_user_id=${U1}`, [C4, C1, C2]],
    ['user_id=u1', [C4, C1, C2]],
    ['email=U1@Example.com', [C4, C1, C2]],
    [`intercom_user_id=${U1}&unread=true`, [C1]],
    [`intercom_user_id=${U1}&unread=false`, [C4, C1, C2]],
    [`intercom_user_id=${U1}&order=created_at&sort=asc`, [C1, C2, C4]],
    ['user_id=u2', [C4, C3]],
    [`intercom_user_id=${L1}`, [C5]],
    ['user_id=u3', []],
  ])('%s lists %j', async (query, expected) => {
    const res = await list(`?type=user&${query}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(expected);
  });

  it('pages a customer\'s list with an absolute next link that keeps the filter', async () => {
    const m = await inbox();
    const first = await m.call('GET', `/conversations?type=user&intercom_user_id=${U1}&per_page=2`);
    expect(ids(first)).toEqual([C4, C1]);
    expect(first.body.pages).toEqual({ type: 'pages', page: 1, per_page: 2, total_pages: 2, next: `http://localhost/conversations?type=user&intercom_user_id=${U1}&per_page=2&page=2` });
    const second = await m.call('GET', first.body.pages.next.replace('http://localhost', ''));
    expect(ids(second)).toEqual([C2]);
    expect(second.body.pages.next).toBeNull();
  });
});

describe('GET /conversations refusals', () => {
  it.each([
    ['?type=bot', 400, 'bad_request', 'type'],
    ['?type=admin', 400, 'parameter_not_found', 'admin_id'],
    ['?type=admin&admin_id=999', 404, 'admin_not_found', 'admin_id'],
    ['?type=admin&id=999', 404, 'admin_not_found', 'id'],
    [`?type=admin&admin_id=${ANN}&id=${BO}`, 400, 'parameter_invalid', 'id'],
    [`?type=admin&admin_id=${ANN}&open=maybe`, 400, 'parameter_invalid', 'open'],
    [`?type=admin&admin_id=${ANN}&unread=true`, 400, 'parameter_invalid', 'unread'],
    [`?type=admin&admin_id=${ANN}&user_id=u1`, 400, 'parameter_invalid', 'user_id'],
    ['?type=user', 400, 'parameter_not_found', 'intercom_user_id'],
    ['?type=user&user_id=nobody-here', 404, 'not_found', 'user_id'],
    ['?type=user&user_id=u1&open=true', 400, 'parameter_invalid', 'open'],
    ['?type=user&user_id=u1&unread=yes', 400, 'parameter_invalid', 'unread'],
    [`?admin_id=${ANN}`, 400, 'parameter_invalid', 'admin_id'],
    ['?unread=true', 400, 'parameter_invalid', 'unread'],
    ['?order=created_at', 400, 'parameter_invalid', 'order'],
    ['?sort=desc', 400, 'parameter_invalid', 'sort'],
    [`?type=admin&admin_id=${ANN}&order=desc`, 400, 'parameter_invalid', 'order'],
    [`?type=admin&admin_id=${ANN}&sort=created_at`, 400, 'parameter_invalid', 'sort'],
    ['?type=user&user_id=u1&order=name', 400, 'parameter_invalid', 'order'],
  ])('%s answers %i %s on %s', async (query, status, code, field) => {
    const res = await list(query);
    expect(res.status).toBe(status);
    expect(errorCodes(res)).toEqual([code]);
    expect(res.body.errors[0].field).toBe(field);
  });

  it('explains the swapped order and sort when a direction is sent as the field', async () => {
    const res = await list(`?type=admin&admin_id=${ANN}&order=desc`);
    expect(res.body.errors[0].message).toContain('order names the field');
  });
});

describe('lists and counts follow every conversation write', () => {
  it('an assignment moves the conversation between assignee lists and admin counts', async () => {
    const m = await inbox();
    // Listed (and so indexed) before the write, then kept by it.
    expect(ids(await m.call('GET', '/conversations?type=admin&admin_id=nobody'))).toEqual([C3]);
    expect(ids(await m.call('GET', `/conversations?type=admin&admin_id=${ANN}`))).toEqual([C1, C2]);
    const res = await m.call('POST', `/conversations/${C3}/reply`, { body: { type: 'admin', admin_id: BO, message_type: 'assignment', assignee_id: ANN } });
    expect(res.status).toBe(200);
    expect(ids(await m.call('GET', '/conversations?type=admin&admin_id=nobody'))).toEqual([]);
    expect(ids(await m.call('GET', `/conversations?type=admin&admin_id=${ANN}`))).toEqual([C3, C1, C2]);
    expect(ids(await m.call('GET', `/conversations?type=admin&admin_id=${ANN}&open=true`))).toEqual([C3, C1]);
    expect((await m.call('GET', '/counts?type=conversation')).body).toEqual({ type: 'count', conversation: { open: 4, closed: 1, unassigned: 0, assigned: 4 } });
    expect((await m.call('GET', '/counts?type=conversation&count=admin')).body.conversation.admin).toEqual([
      { id: ANN, name: 'Ann', open: 2, closed: 1 },
      { id: BO, name: 'Bo', open: 1, closed: 0 },
    ]);
  });

  it('closing, reopening and a customer reply move open, unread and waiting lists', async () => {
    const m = await inbox();
    expect(ids(await m.call('GET', `/conversations?type=admin&admin_id=${ANN}&open=false`))).toEqual([C2]);
    expect(ids(await m.call('GET', `/conversations?type=user&user_id=u1&unread=true`))).toEqual([C1]);
    expect(ids(await m.call('GET', '/conversations?sort=waiting_since'))).toEqual([C3, C1]);
    await m.call('POST', `/conversations/${C1}/reply`, { body: { type: 'admin', admin_id: ANN, message_type: 'close' } });
    expect(ids(await m.call('GET', `/conversations?type=admin&admin_id=${ANN}&open=false`))).toEqual([C1, C2]);
    expect(ids(await m.call('GET', '/conversations?sort=waiting_since'))).toEqual([C3]);
    await m.call('POST', `/conversations/${C2}/reply`, { body: { type: 'user', user_id: 'u1', message_type: 'comment', body: 'still broken' } });
    expect(ids(await m.call('GET', `/conversations?type=admin&admin_id=${ANN}&open=false`))).toEqual([C1]);
    // Closing C1 left it unread; both were updated now, so ties go by id.
    expect(ids(await m.call('GET', `/conversations?type=user&user_id=u1&unread=true`))).toEqual([C1, C2]);
    expect(ids(await m.call('GET', '/conversations?sort=waiting_since'))).toEqual([C2, C3]);
    await m.call('PUT', `/conversations/${C2}`, { body: { read: true } });
    expect(ids(await m.call('GET', `/conversations?type=user&user_id=u1&unread=true`))).toEqual([C1]);
    expect((await m.call('GET', '/counts?type=conversation')).body.conversation).toEqual({ open: 4, closed: 1, unassigned: 1, assigned: 3 });
  });

  it('a reset puts lists and counts back', async () => {
    const m = await inbox();
    await m.call('GET', `/conversations?type=admin&admin_id=${ANN}&open=true`);
    await m.call('POST', `/conversations/${C1}/reply`, { body: { type: 'admin', admin_id: ANN, message_type: 'close' } });
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    expect(ids(await m.call('GET', `/conversations?type=admin&admin_id=${ANN}&open=true`))).toEqual([C1]);
    expect((await m.call('GET', '/counts?type=conversation')).body.conversation).toEqual({ open: 4, closed: 1, unassigned: 1, assigned: 3 });
  });
});

describe('snapshots carry the conversation state, lists and counts', () => {
  it('a restore brings back the lifecycle, the lists and the counts the snapshot had', async () => {
    const m = await inbox();
    await m.call('POST', `/conversations/${C3}/reply`, { body: { type: 'admin', admin_id: ANN, message_type: 'snoozed', snoozed_until: T + 60 } });
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'snoozed' } })).status).toBe(201);
    const list = async () => [ids(await m.call('GET', '/conversations?type=admin&admin_id=nobody&open=true')), (await m.call('GET', '/counts?type=conversation')).body.conversation, (await m.call('GET', `/conversations/${C3}`)).body.state];
    const before = await list();
    expect(before).toEqual([[C3], { open: 4, closed: 1, unassigned: 1, assigned: 3 }, 'snoozed']);
    await m.call('POST', `/conversations/${C3}/reply`, { body: { type: 'admin', admin_id: ANN, message_type: 'close' } });
    expect(await list()).toEqual([[], { open: 3, closed: 2, unassigned: 0, assigned: 3 }, 'closed']);
    expect((await m.call('POST', '/__admin/snapshots/snoozed/restore?app=demo', { token: null })).status).toBe(200);
    expect(await list()).toEqual(before);
  });
});

describe('GET /counts?type=conversation', () => {
  it('counts open (snoozed included), closed, assigned and unassigned', async () => {
    const m = await inbox();
    const res = await m.call('GET', '/counts?type=conversation');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'count', conversation: { open: 4, closed: 1, unassigned: 1, assigned: 3 } });
  });

  it('with count=admin lists every admin\'s open and closed conversations, zeros included', async () => {
    const m = await inbox();
    const res = await m.call('GET', '/counts?type=conversation&count=admin');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'count', conversation: { admin: [{ id: ANN, name: 'Ann', open: 1, closed: 1 }, { id: BO, name: 'Bo', open: 1, closed: 0 }] } });
  });

  it.each([
    ['?type=conversation&count=tag', 'count'],
    ['?type=conversation&page=2', 'page'],
  ])('%s answers 400 bad_request on %s', async (query, field) => {
    const m = await inbox();
    const refused = await m.call('GET', `/counts${query}`);
    expect(refused.status).toBe(400);
    expect(errorCodes(refused)).toEqual(['bad_request']);
    expect(refused.body.errors[0].field).toBe(field);
  });
});
