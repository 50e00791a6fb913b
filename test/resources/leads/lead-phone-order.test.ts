// GET /contacts?phone= answers the most recently created of the leads with the phone (creation
// times, a tie by id), whatever order they took the phone in; PUT /contacts and POST
// /contacts/convert name the field a missing key is.

import { describe, expect, it } from 'vitest';
import { errorCodes, expectRejected, mock, type TestMock } from '../../helpers.js';

const PHONE = '+1 555 0142';
const newLead = async (m: TestMock): Promise<string> => {
  const res = await m.call('POST', '/contacts', { body: {} });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
};
const givePhone = async (m: TestMock, id: string) => expect((await m.call('POST', '/contacts', { body: { id, phone: PHONE } })).status).toBe(200);

describe('GET /contacts?phone= of several leads', () => {
  it('answers the most recently created (ties by id), not the last to take the phone, with an ambiguous_lookup warning', async () => {
    const m = mock({ apiVersion: '1.2' });
    const [a, b] = [await newLead(m), await newLead(m)];
    m.clock.advance(10);
    const [c, d] = [await newLead(m), await newLead(m)];
    m.clock.advance(10);
    const e = await newLead(m);
    expect([a, b, c, d, e]).toEqual([a, b, c, d, e].sort());
    // e took it first, then the younger of each tie before the older, and c before d.
    for (const id of [e, b, a, c, d]) await givePhone(m, id);
    const res = await m.call('GET', `/contacts?phone=${encodeURIComponent(PHONE)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'contact', id: e, phone: PHONE });
    expect(res.headers.get('x-mock-warning')).toBe(`ambiguous_lookup "phone \\"${PHONE}\\" names 5 leads: the most recently created answers."`);
    // e (created last) loses the phone: d is the most recent of those left, though it took the phone last.
    expect((await m.call('POST', '/contacts', { body: { id: e, phone: '+1 555 0000' } })).status).toBe(200);
    expect((await m.call('GET', `/contacts?phone=${encodeURIComponent(PHONE)}`)).body.id).toBe(d);
    const strict = await m.call('GET', `/contacts?phone=${encodeURIComponent(PHONE)}`, { headers: { 'x-mock-strict': 'true' } });
    expect(errorCodes(strict)).toEqual(['parameter_invalid']);
  });
});

describe('lead keys missing', () => {
  it('PUT /contacts with neither id nor user_id is a 400 naming id', async () => {
    const m = mock();
    const res = await expectRejected(m, 'PUT', '/contacts', { body: { name: 'Nobody' } }, 400, ['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('id');
  });

  it('POST /contacts/convert with no contact keys is a 400 naming contact.user_id', async () => {
    const m = mock();
    const res = await expectRejected(m, 'POST', '/contacts/convert', { body: { user: { email: 'x@example.com' } } }, 400, ['parameter_not_found']);
    expect(errorCodes(res)).toEqual(['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('contact.user_id');
  });
});
