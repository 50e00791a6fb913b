// What an app's runtime streams draw for a given seed is pinned, as generate-golden.test.ts pins
// the generated data set: recorded responses hold lead user_ids, pseudonyms and the statuses a
// fault with a fraction gave, so seed 1 must draw the same values in every version, not only
// within one. Each stream is the app's own (seed, app id and a name per stream); a deliberate
// change of a stream rewrites these values.

import { describe, expect, it } from 'vitest';
import { mock } from '../../helpers.js';

describe('the demo app\'s streams at seed 1', () => {
  it('draws the same lead: id, user_id, pseudonym and request id', async () => {
    const res = await mock().call('POST', '/contacts', { body: {} });
    expect(res.status).toBe(200);
    expect({ id: res.body.id, user_id: res.body.user_id, pseudonym: res.body.pseudonym, request: res.headers.get('x-request-id') }).toEqual({
      id: '69570a80d65c9af9780000ba',
      user_id: '7cc5ef46-4b1d-4b32-9af4-9f62b100b7a7',
      pseudonym: 'Black Gecko from Taipei',
      request: 'plqutq45aq2xl7pub52k',
    });
  });

  it('draws the same fault outcomes for a fault with a fraction', async () => {
    const m = mock();
    expect((await m.call('POST', '/__admin/faults?app=demo', { token: null, body: { error: 'server_error', fraction: 0.5, operation_id: 'listAdmins' } })).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await m.call('GET', '/admins')).status);
    expect(statuses).toEqual([200, 200, 500, 500, 500, 500, 500, 200, 200, 500, 200, 500]);
  });
});
