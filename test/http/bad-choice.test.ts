// The real API's "bad 'type' parameter" answers, each followed by the values the operation takes.

import { describe, expect, it } from 'vitest';
import { expectRejected, mock } from '../helpers.js';

describe("bad 'type' and 'count' parameters name what to send", () => {
  it.each([
    ['GET', '/counts?type=users&count=tag', undefined, 'type', "bad 'type' parameter: use company, user or conversation"],
    ['GET', '/counts?type=company&count=lead', undefined, 'count', "bad 'count' parameter: with type=company use segment, tag or user"],
    ['GET', '/segments?type=lead', undefined, 'type', "bad 'type' parameter: use user or company"],
    ['GET', '/companies?company_id=acme&type=leads', undefined, 'type', "bad 'type' parameter: with company_id use user or users"],
    ['POST', '/visitors/convert', { type: 'visitor', visitor: { user_id: 'x' } }, 'type', "bad 'type' parameter: use lead or user"],
  ] as const)('%s %s', async (method, path, body, field, message) => {
    const m = mock();
    const res = await expectRejected(m, method, path, body === undefined ? {} : { body }, 400, ['bad_request']);
    expect(res.body.errors[0]).toEqual({ code: 'bad_request', field, message });
  });
});
