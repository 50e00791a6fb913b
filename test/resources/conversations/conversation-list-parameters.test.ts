// GET /conversations parameter edges that conversation-list.test.ts leaves open: empty parameters
// read as absent in every position, the closed filter, which identifier a two-identifier refusal
// names, and the exact wording of the order/sort swap hint with and without a type.

import { describe, expect, it } from 'vitest';
import { errorCodes, type TestMock } from '../../helpers.js';
import { ANN, C1, C2, C3, C4, C5, ids, inbox, U1 } from './inbox-fixture.js';

let shared: Promise<TestMock> | undefined;
const list = async (query: string) => {
  shared ??= inbox();
  return (await shared).call('GET', `/conversations${query}`);
};

const SWAP = 'With type=admin or type=user, order names the field (created_at, updated_at or waiting_since) and sort the direction (asc or desc); without a type it is the reverse.';

describe('GET /conversations: empty parameters are absent', () => {
  it.each([
    ['?type=&sort=&order=', [C4, C1, C3, C2, C5]],
    ['?type=user&intercom_user_id=&user_id=u1&email=', [C4, C1, C2]],
    ['?type=user&user_id=&email=u1@example.com', [C4, C1, C2]],
    [`?type=user&intercom_user_id=${U1}&unread=`, [C4, C1, C2]],
  ])('%s lists %j', async (query, expected) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(expected);
  });

  it('open= on an admin list lists open and closed alike', async () => {
    expect(ids(await list(`?type=admin&admin_id=${ANN}&open=`))).toEqual([C1, C2]);
  });
});

describe('GET /conversations: the closed filter', () => {
  it('open=false lists only the admin\'s closed conversations', async () => {
    const res = await list(`?type=admin&admin_id=${ANN}&open=false`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([C2]);
  });
});

describe('GET /conversations: refusals name the parameter and explain', () => {
  it('names the second identifier when two naming two people are sent under strict mode (otherwise the first decides, with a warning)', async () => {
    expect((await list(`?type=user&intercom_user_id=${U1}&user_id=u1`)).status).toBe(200);
    expect((await list(`?type=user&intercom_user_id=${U1}&user_id=u2`)).headers.get('x-mock-warning')).toMatch(/^identifier_overridden "/);
    const res = await (await (shared ??= inbox())).call('GET', `/conversations?type=user&intercom_user_id=${U1}&user_id=u2`, { headers: { 'x-mock-strict': 'true' } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('user_id');
  });

  it.each([
    ['?sort=asc', 'sort', `sort (without a type) is the field to sort by: created_at, updated_at or waiting_since, not "asc". ${SWAP}`],
    ['?order=created_at', 'order', `order (without a type) is the direction: asc or desc, not "created_at". ${SWAP}`],
    [`?type=admin&admin_id=${ANN}&order=asc`, 'order', `order is the field to sort by: created_at, updated_at or waiting_since, not "asc". ${SWAP}`],
    [`?type=admin&admin_id=${ANN}&sort=updated_at`, 'sort', `sort is the direction: asc or desc, not "updated_at". ${SWAP}`],
    [`?type=user&intercom_user_id=${U1}&order=desc`, 'order', `order is the field to sort by: created_at, updated_at or waiting_since, not "desc". ${SWAP}`],
    [`?type=user&intercom_user_id=${U1}&sort=waiting_since`, 'sort', `sort is the direction: asc or desc, not "waiting_since". ${SWAP}`],
    ['?sort=name', 'sort', 'sort (without a type) is the field to sort by: created_at, updated_at or waiting_since, not "name".'],
    ['?order=up', 'order', 'order (without a type) is the direction: asc or desc, not "up".'],
    [`?type=user&intercom_user_id=${U1}&unread=maybe`, 'unread', 'unread is true or false, not "maybe".'],
    ['?type=bot', 'type', "bad 'type' parameter: use admin or user"],
  ])('%s', async (query, field, message) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
    expect(res.body.errors[0].message).toBe(message);
  });
});
