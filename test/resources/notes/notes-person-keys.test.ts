// Notes: how the person and the author are read, the field each refusal names, the note's byte
// size, and the order of a merged user's notes when the lead's note is the newest (pins what
// mutation testing of src/resources/notes/rules.ts found unpinned).

import { describe, expect, it } from 'vitest';
import { ADA, LEAD } from '../../fixture-ids.js';
import { expectRejected, mock } from '../../helpers.js';
import { noteBytes } from '../../../src/resources/notes/indexes.js';

const LONG_EMAIL = `${'a'.repeat(300)}@example.com`;

describe('notes: person and author keys', () => {
  it('names the field of an over-long email in user, at the top level and in GET /notes', async () => {
    const m = mock();
    const nested = await expectRejected(m, 'POST', '/notes', { body: { body: 'x', user: { email: LONG_EMAIL } } }, 400, ['parameter_invalid']);
    expect(nested.body.errors[0].field).toBe('user.email');
    const top = await expectRejected(m, 'POST', '/notes', { body: { body: 'x', email: LONG_EMAIL } }, 400, ['parameter_invalid']);
    expect(top.body.errors[0].field).toBe('email');
    const listed = await expectRejected(m, 'GET', `/notes?email=${LONG_EMAIL}`, {}, 400, ['parameter_invalid']);
    expect(listed.body.errors[0].field).toBe('email');
  });

  it('names the field of a missing identifier, a shared email and an unknown admin', async () => {
    const m = mock();
    const none = await expectRejected(m, 'GET', '/notes', {}, 400, ['parameter_not_found']);
    expect(none.body.errors[0].field).toBe('id');
    const shared = await expectRejected(m, 'POST', '/notes', { body: { body: 'x', user: { email: 'shared@example.com' } } }, 409, ['conflict']);
    expect(shared.body.errors[0].field).toBe('email');
    const admin = await expectRejected(m, 'POST', '/notes', { body: { body: 'x', user: { id: ADA }, admin_id: '999' } }, 404, ['admin_not_found']);
    expect(admin.body.errors[0].field).toBe('admin_id');
  });

  it('takes the user, not a lead, that shares its email, in POST and GET', async () => {
    const m = mock();
    expect((await m.call('POST', '/contacts', { body: { email: 'ada@example.com' } })).status).toBe(200);
    expect((await m.call('POST', '/notes', { body: { body: 'x', user: { email: 'ada@example.com' } } })).body.user).toEqual({ type: 'user', id: ADA });
    expect((await m.call('GET', '/notes?email=ada%40example.com')).body.notes[0].user).toEqual({ type: 'user', id: ADA });
  });

  it('reads an empty admin_id as the token\'s admin', async () => {
    const m = mock();
    const res = await m.call('POST', '/notes', { body: { body: 'x', user: { id: ADA }, admin_id: '' } });
    expect(res.status).toBe(200);
    expect(res.body.author.id).toBe('814860');
  });

  it('names the field of a top-level email the schema takes but lower-casing makes too long', async () => {
    // The schema caps what is sent (205 characters here); 'İ' lower-cases to two, so the store's
    // own check refuses it, with the field it is handed for the top-level form.
    const top = await expectRejected(mock(), 'POST', '/notes', { body: { body: 'x', email: `${'İ'.repeat(200)}@x.io` } }, 400, ['parameter_invalid']);
    expect(top.body.errors[0].field).toBe('email');
  });
});

describe('notes: size and merge order', () => {
  it('counts two bytes a character of body, id and author, plus 264', () => {
    expect(noteBytes({ id: '7', customer: 'c', admin_id: '12', body: 'abc', created_at: 0 })).toBe(2 * (3 + 1 + 2) + 264);
  });

  it('keeps a merged lead\'s newest note at the head of the user\'s list', async () => {
    const m = mock();
    const adaNote = (await m.call('POST', '/notes', { body: { body: 'ada, earlier', user: { id: ADA } } })).body.id as string;
    const leadNote = (await m.call('POST', '/notes', { body: { body: 'lead, latest', user: { id: LEAD } } })).body.id as string;
    expect((await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { id: ADA } } })).status).toBe(200);
    const ids = ((await m.call('GET', `/notes?id=${ADA}`)).body.notes as { id: string }[]).map((n) => n.id);
    expect(ids).toEqual([leadNote, adaNote, '1003', '1002', '1001']);
  });
});
