// Emails and tag names are compared and stored in one normal form (src/core/normal-text.ts): NFC,
// surrounding whitespace trimmed, emails lower-cased. Limits hold for that stored form, so what the
// API accepts always seeds back. Custom attributes ending in _at are safe integers.

import { describe, expect, it } from 'vitest';
import { ADA, GROUP } from '../../fixture-ids.js';
import { expectRejected, mock, stateText } from '../../helpers.js';

const NFC_CAFE = 'caf\u00e9';
const NFD_CAFE = 'cafe\u0301';

describe('emails', () => {
  it('are stored trimmed, lower-cased and in NFC', async () => {
    const m = mock();
    const res = await m.call('POST', '/users', { body: { user_id: 'ws-1', email: ` \tWS@X.io ` } });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('ws@x.io');
    const nfd = await m.call('POST', '/users', { body: { user_id: 'nfd-1', email: `${NFD_CAFE}@x.io` } });
    expect(nfd.body.email).toBe(`${NFC_CAFE}@x.io`);
  });

  it('find the same user however they are spaced, cased or composed', async () => {
    const m = mock();
    await m.call('POST', '/users', { body: { user_id: 'nfd-1', email: `${NFD_CAFE}@x.io` } });
    const byQuery = await m.call('GET', `/users?email=${encodeURIComponent(` ${NFC_CAFE.toUpperCase()}@X.IO `)}`);
    expect(byQuery.body.users.map((u: { user_id: string }) => u.user_id)).toEqual(['nfd-1']);
    // The POST /users identity lookup: an email alone updates the user it names, no new user.
    const before = (await m.call('GET', '/users')).body.total_count;
    const updated = await m.call('POST', '/users', { body: { email: ` ${NFC_CAFE}@x.io `, name: 'Café' } });
    expect(updated.body.user_id).toBe('nfd-1');
    expect((await m.call('GET', '/users')).body.total_count).toBe(before);
  });

  it('tag users and name conversation customers trimmed and case-insensitively', async () => {
    const m = mock();
    const tagged = await m.call('POST', '/tags', { body: { name: 'spaced', users: [{ email: '  ADA@example.com ' }] } });
    expect(tagged.status).toBe(200);
    const ada = await m.call('GET', `/users/${ADA}`);
    expect(ada.body.tags.tags.map((t: { name: string }) => t.name)).toContain('spaced');
    const added = await m.call('POST', `/conversations/${GROUP}/customers`, { body: { admin_id: '814860', customer: { email: ' NEW.Lead@Example.com ' } } });
    expect(added.status).toBe(200);
    const lead = await m.call('GET', `/contacts?email=new.lead@example.com`);
    expect(lead.body.contacts.map((c: { email: string }) => c.email)).toEqual(['new.lead@example.com']);
  });

  it('of blanks count as not sent', async () => {
    const m = mock();
    await expectRejected(m, 'POST', '/users', { body: { email: '   ' } }, 400, ['parameter_not_found']);
  });

  it('are refused when their stored form is over 255 characters (İ lower-cases to two)', async () => {
    const m = mock();
    const email = `${'\u0130'.repeat(200)}@x.io`; // 205 characters as sent, 405 lower-cased
    const res = await expectRejected(m, 'POST', '/users', { body: { user_id: 'long-1', email } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('email');
    expect(res.body.errors[0].message).toContain('255');
    const ok = await m.call('POST', '/users', { body: { user_id: 'long-1', email: `${'\u0130'.repeat(125)}@x.io` } });
    expect(ok.status).toBe(200);
    expect([...ok.body.email]).toHaveLength(255);
  });

  it('of a lead are refused the same way, naming email (POST /contacts)', async () => {
    const m = mock();
    const res = await expectRejected(m, 'POST', '/contacts', { body: { email: `${'\u0130'.repeat(200)}@x.io` } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('email');
    const ok = await m.call('POST', '/contacts', { body: { email: `${'\u0130'.repeat(125)}@x.io` } });
    expect(ok.status).toBe(200);
    expect([...ok.body.email]).toHaveLength(255);
  });

  it('in a fixture are stored in the same form, and a stored form over 255 characters is refused', async () => {
    const m = mock();
    const doc = (email: string) => ({ app: { id: 'mail', tokens: ['mail-token'] }, customers: [{ id: 'u1', user_id: 'u1', email }] });
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc(' Mixed@Case.IO ') })).status).toBe(200);
    const users = await m.call('GET', '/users?email=mixed@case.io', { token: 'mail-token' });
    expect(users.body.users.map((u: { email: string }) => u.email)).toEqual(['mixed@case.io']);
    const before = await stateText(m, 'mail');
    const res = await m.call('POST', '/__admin/seed', { token: null, body: doc(`${'\u0130'.repeat(200)}@x.io`) });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('customers[0].email');
    expect(await stateText(m, 'mail')).toBe(before);
  });
});

describe('tag names', () => {
  it('in NFC and NFD are one tag, stored in NFC', async () => {
    const m = mock();
    const first = await m.call('POST', '/tags', { body: { name: NFD_CAFE } });
    expect(first.body.name).toBe(NFC_CAFE);
    const second = await m.call('POST', '/tags', { body: { name: NFC_CAFE.toUpperCase() } });
    expect(second.body.id).toBe(first.body.id);
    const tags = (await m.call('GET', '/tags')).body.tags.filter((t: { name: string }) => t.name.toLowerCase() === NFC_CAFE);
    expect(tags).toHaveLength(1);
  });

  it('are trimmed: " VIP " is the seeded VIP tag', async () => {
    const m = mock();
    const res = await m.call('POST', '/tags', { body: { name: ' VIP\n' } });
    expect(res.body).toEqual({ type: 'tag', id: '17513', name: 'VIP' });
  });

  it('clash on rename whatever the spacing or composition', async () => {
    const m = mock();
    const cafe = await m.call('POST', '/tags', { body: { name: NFC_CAFE } });
    const other = await m.call('POST', '/tags', { body: { name: 'other' } });
    await expectRejected(m, 'POST', '/tags', { body: { id: other.body.id, name: ` ${NFD_CAFE} ` } }, 409, ['conflict']);
    expect(cafe.status).toBe(200);
  });

  it('are refused when their NFC form is over 255 characters', async () => {
    const m = mock();
    // U+0958 has no composed form: NFC writes it as two code points.
    const res = await expectRejected(m, 'POST', '/tags', { body: { name: '\u0958'.repeat(200) } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('name');
    expect(res.body.errors[0].message).toContain('255');
  });

  it('in a fixture that differ only in composition or spacing are one name: refused as taken', async () => {
    const m = mock();
    const doc = { app: { id: 'tags', tokens: ['tags-token'] }, tags: [{ id: '1', name: NFC_CAFE }, { id: '2', name: ` ${NFD_CAFE}` }] };
    const res = await m.call('POST', '/__admin/seed', { token: null, body: doc });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('tags[1].name');
    const blank = await m.call('POST', '/__admin/seed', { token: null, body: { ...doc, tags: [{ id: '1', name: ' ' }] } });
    expect(blank.status).toBe(400);
    expect(blank.body.errors[0].field).toBe('tags[0].name');
  });
});

describe('custom attributes ending in _at', () => {
  it('must be safe integers: 2^64 and 2^53 are refused naming the attribute, 2^53 - 1 is kept exactly', async () => {
    const m = mock();
    for (const value of [2 ** 64, 2 ** 53]) {
      const res = await expectRejected(m, 'POST', '/users', { body: { user_id: 'ada-1', custom_attributes: { renewal_at: value } } }, 400, ['parameter_invalid']);
      expect(res.body.errors[0].field).toBe('custom_attributes.renewal_at');
    }
    const ok = await m.call('POST', '/users', { body: { user_id: 'ada-1', custom_attributes: { renewal_at: Number.MAX_SAFE_INTEGER } } });
    expect(ok.body.custom_attributes.renewal_at).toBe(Number.MAX_SAFE_INTEGER);
  });
});
