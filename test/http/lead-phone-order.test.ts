// GET /contacts?phone= lists the leads oldest first, a tie of creation times by id, whatever order
// they took the phone in; PUT /contacts and POST /contacts/convert name the field a missing key is.

import { describe, expect, it } from 'vitest';
import { errorCodes, expectRejected, mock, type TestMock } from '../helpers.js';

const PHONE = '+1 555 0142';
const newLead = async (m: TestMock): Promise<string> => {
  const res = await m.call('POST', '/contacts', { body: {} });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
};
const givePhone = async (m: TestMock, id: string) => expect((await m.call('POST', '/contacts', { body: { id, phone: PHONE } })).status).toBe(200);

describe('GET /contacts?phone= order', () => {
  it('oldest first, ties by id, not in the order the leads took the phone', async () => {
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
    expect(res.body.total_count).toBe(5);
    expect(res.body.contacts.map((x: { id: string }) => x.id)).toEqual([a, b, c, d, e]);
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
