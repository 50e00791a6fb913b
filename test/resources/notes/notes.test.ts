// Notes (surface N1–N3): create on a user or lead, list a person's notes newest first, read one;
// the refusals; the cap; and what a person's lifecycle (archive, restore, deletion, conversion,
// merge) does to its notes, as GET /notes and the export see it.

import { beforeEach, describe, expect, it } from 'vitest';
import { ADA, GRACE, LEAD, LEAD_USER_ID, VISITOR } from '../../fixture-ids.js';
import { errorCodes, expectRejected, mock, stateText, TEST_NOW } from '../../helpers.js';

const m = mock();
beforeEach(async () => {
  await m.call('POST', '/__admin/reset', { token: null });
});

const note = (body: unknown) => m.call('POST', '/notes', { body });
const listed = async (query: string) => (await m.call('GET', `/notes?${query}`)).body.notes as { id: string; body: string }[];

describe('POST /notes', () => {
  it('leaves a note on a user named by user.id, wrapping plain text in <p>, authored by admin_id', async () => {
    const res = await note({ admin_id: '991267', body: 'Text for my note', user: { id: ADA } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: 'note',
      id: '1000003',
      created_at: TEST_NOW,
      body: '<p>Text for my note</p>',
      author: { type: 'admin', id: '991267', name: 'Mai Tanaka', email: 'mai@example.com', companies: [] },
      user: { type: 'user', id: ADA },
    });
    expect((await m.call('GET', '/notes/1000003')).body).toEqual(res.body);
    expect((await listed(`id=${ADA}`))[0]).toEqual(res.body);
  });

  it('keeps HTML as sent, and takes an integer admin_id', async () => {
    const res = await note({ admin_id: 814860, body: 'Renewal <b>agreed</b>', user: { id: ADA } });
    expect(res.body).toMatchObject({ body: 'Renewal <b>agreed</b>', author: { id: '814860' } });
    expect((await note({ body: '<p>Already a paragraph</p>', user: { id: ADA } })).body.body).toBe('<p>Already a paragraph</p>');
    expect((await note({ body: 'a < b and c > d', user: { id: ADA } })).body.body).toBe('<p>a < b and c > d</p>');
  });

  it('names the person by user.user_id or user.email (leads too), or by the Ruby client\'s top-level email or user_id', async () => {
    expect((await note({ body: 'x', user: { user_id: 'grace-2' } })).body.user).toEqual({ type: 'user', id: GRACE });
    expect((await note({ body: 'x', user: { email: ' ADA@example.com ' } })).body.user).toEqual({ type: 'user', id: ADA });
    expect((await note({ body: 'x', user: { id: LEAD } })).body.user).toEqual({ type: 'lead', id: LEAD });
    expect((await note({ body: 'x', user: { user_id: LEAD_USER_ID } })).body.user).toEqual({ type: 'lead', id: LEAD });
    expect((await note({ body: 'x', user: { email: 'lead@example.com' } })).body.user).toEqual({ type: 'lead', id: LEAD });
    expect((await note({ body: 'x', email: 'ada@example.com' })).body.user).toEqual({ type: 'user', id: ADA });
    expect((await note({ body: 'x', user_id: 'grace-2' })).body.user).toEqual({ type: 'user', id: GRACE });
  });

  it('reads the identifiers in the order id, user_id, email: the first one sent decides', async () => {
    expect((await note({ body: 'x', user: { id: ADA, user_id: 'grace-2', email: 'lead@example.com' } })).body.user.id).toBe(ADA);
    expect((await note({ body: 'x', user: { user_id: 'grace-2', email: 'lead@example.com' } })).body.user.id).toBe(GRACE);
  });

  it('is authored by the admin the token belongs to when admin_id is left out', async () => {
    expect((await note({ body: 'x', user: { id: ADA } })).body.author.id).toBe('814860');
    const other = await m.call('POST', '/notes', { token: 'other-token', body: { body: 'x', user: { user_id: 'ada-1' } } });
    expect(other.body.author).toMatchObject({ id: '42', name: 'Oona Other' });
  });

  it('refuses a missing or blank body, a missing person and both forms of the person, changing nothing', async () => {
    const cases: [unknown, string, string][] = [
      [{ user: { id: ADA } }, 'parameter_not_found', 'body'],
      [{ body: '', user: { id: ADA } }, 'parameter_not_found', 'body'],
      [{ body: '  \n ', user: { id: ADA } }, 'parameter_not_found', 'body'],
      [{ body: 'x' }, 'parameter_not_found', 'user'],
      [{ body: 'x', user: {} }, 'parameter_not_found', 'user.id'],
      [{ body: 'x', user: { id: ADA }, email: 'ada@example.com' }, 'parameter_invalid', 'user'],
      [{ body: 'x'.repeat(65_536), user: { id: ADA } }, 'parameter_invalid', 'body'],
      [{ body: 'x', user: { id: ADA }, admin_id: true }, 'parameter_invalid', 'admin_id'],
    ];
    for (const [body, code, field] of cases) {
      const res = await expectRejected(m, 'POST', '/notes', { body }, 400, [code]);
      expect(res.body.errors[0].field, JSON.stringify(body).slice(0, 80)).toBe(field);
    }
    // A number as the body is its text, with a warning; strict mode refuses it.
    const strict = await expectRejected(m, 'POST', '/notes', { body: { body: 42, user: { id: ADA } }, ...{ headers: { 'x-mock-strict': 'true' } } }, 400, ['parameter_invalid']);
    expect(strict.body.errors[0].field).toBe('body');
    const lenient = await m.call('POST', '/notes', { body: { body: 42, user: { id: ADA } } });
    expect(lenient.body.body).toBe('<p>42</p>');
    expect(lenient.headers.get('x-mock-warning')).toMatch(/^coerced_value "body /);
  });

  it('answers 404 for nobody, a visitor and an archived user, admin_not_found for an unknown admin, 409 for a shared email', async () => {
    for (const user of [{ id: 'nobody' }, { user_id: 'nobody' }, { email: 'nobody@example.com' }, { id: VISITOR }]) {
      const res = await expectRejected(m, 'POST', '/notes', { body: { body: 'x', user } }, 404, ['not_found']);
      expect(res.body.errors[0].message).toBe('User Not Found');
    }
    await expectRejected(m, 'POST', '/notes', { body: { body: 'x', user: { id: ADA }, admin_id: '999' } }, 404, ['admin_not_found']);
    await expectRejected(m, 'POST', '/notes', { body: { body: 'x', user: { email: 'shared@example.com' } } }, 409, ['conflict']);
    expect((await m.call('DELETE', `/users/${ADA}`)).status).toBe(200);
    await expectRejected(m, 'POST', '/notes', { body: { body: 'x', user: { id: ADA } } }, 404, ['not_found']);
  });

  it('refuses past the app\'s cap with 403 resource_limit_exceeded and drops nothing', async () => {
    const small = mock({ limits: { notes: 4 } });
    const res = await small.call('POST', '/notes', { body: { body: 'fourth', user: { id: GRACE } } });
    expect(res.status).toBe(200);
    const before = await stateText(small);
    const over = await small.call('POST', '/notes', { body: { body: 'fifth', user: { id: GRACE } } });
    expect(over.status).toBe(403);
    expect(errorCodes(over)).toEqual(['resource_limit_exceeded']);
    expect(await stateText(small)).toBe(before);
    expect((await small.call('GET', `/notes?id=${ADA}`)).body.total_count).toBe(2);
    // Deleting a person frees the room its notes held.
    expect((await small.call('POST', '/user_delete_requests', { body: { intercom_user_id: GRACE } })).status).toBe(200);
    expect((await small.call('POST', '/notes', { body: { body: 'again', user: { id: ADA } } })).status).toBe(200);
  });
});

describe('GET /notes', () => {
  it('lists a person\'s notes newest first, by id, intercom_user_id, user_id or email', async () => {
    await note({ body: 'third', user: { id: ADA } });
    const expected = ['1000003', '1002', '1001'];
    for (const q of [`id=${ADA}`, `intercom_user_id=${ADA}`, 'user_id=ada-1', 'email=Ada%40example.com']) {
      const res = await m.call('GET', `/notes?${q}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ type: 'note.list', total_count: 3 });
      // No pages.type: the real note list had none, so the clients that page by it read one page.
      expect(res.body.pages).toEqual({ page: 1, per_page: 50, total_pages: 1, next: null });
      expect(res.body.notes.map((n: { id: string }) => n.id), q).toEqual(expected);
    }
    expect((await listed(`id=${GRACE}`))).toEqual([]);
  });

  it('pages newest first with an absolute next link that works when followed', async () => {
    for (let i = 0; i < 5; i++) await note({ body: `n${i}`, user: { id: GRACE } });
    const first = await m.call('GET', `/notes?id=${GRACE}&per_page=2`);
    expect(first.body.notes.map((n: { body: string }) => n.body)).toEqual(['<p>n4</p>', '<p>n3</p>']);
    expect(first.body.pages).toMatchObject({ page: 1, per_page: 2, total_pages: 3 });
    const next = new URL(first.body.pages.next as string);
    const second = await m.call('GET', next.pathname + next.search);
    expect(second.body.notes.map((n: { body: string }) => n.body)).toEqual(['<p>n2</p>', '<p>n1</p>']);
    const last = await m.call('GET', `/notes?id=${GRACE}&per_page=2&page=3`);
    expect(last.body.notes.map((n: { body: string }) => n.body)).toEqual(['<p>n0</p>']);
    expect(last.body.pages.next).toBeNull();
    expect((await m.call('GET', `/notes?id=${GRACE}&per_page=2&page=9`)).body.notes).toEqual([]);
  });

  it('refuses no identifier, an unknown person and bad paging', async () => {
    await expectRejected(m, 'GET', '/notes', {}, 400, ['parameter_not_found']);
    await expectRejected(m, 'GET', '/notes?user_id=nobody', {}, 404, ['not_found']);
    await expectRejected(m, 'GET', `/notes?id=${VISITOR}`, {}, 404, ['not_found']);
    await expectRejected(m, 'GET', '/notes?email=shared%40example.com', {}, 409, ['conflict']);
    await expectRejected(m, 'GET', `/notes?id=${ADA}&per_page=61`, {}, 400, ['parameter_invalid']);
    await expectRejected(m, 'GET', `/notes?id=${ADA}&sort=created_at`, { headers: { 'x-mock-strict': 'true' } }, 400, ['parameter_invalid']);
  });
});

describe('GET /notes/{id}', () => {
  it('answers a seeded note, and 404 not_found "Resource Not Found" for an unknown id', async () => {
    expect((await m.call('GET', '/notes/1003')).body).toMatchObject({ id: '1003', user: { type: 'lead', id: LEAD }, author: { id: '991267' } });
    const res = await expectRejected(m, 'GET', '/notes/77', {}, 404, ['not_found']);
    expect(res.body.errors[0].message).toBe('Resource Not Found');
  });

  it('sees only the token\'s app', async () => {
    await expectRejected(m, 'GET', '/notes/1001', { token: 'other-token' }, 404, ['not_found']);
  });
});

describe('a person\'s notes through its lifecycle', () => {
  it('archive keeps them (readable by id, not listable), and a restore brings the list back', async () => {
    expect((await m.call('DELETE', `/users/${ADA}`)).status).toBe(200);
    await expectRejected(m, 'GET', `/notes?id=${ADA}`, {}, 404, ['not_found']);
    expect((await m.call('GET', '/notes/1001')).body.user).toEqual({ type: 'user', id: ADA });
    expect((await m.call('POST', '/users', { body: { user_id: 'ada-1' } })).status).toBe(200);
    expect((await listed(`id=${ADA}`)).map((n) => n.id)).toEqual(['1002', '1001']);
  });

  it('a permanent deletion deletes them, of a live or an archived user', async () => {
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: ADA } })).status).toBe(200);
    await expectRejected(m, 'GET', '/notes/1001', {}, 404, ['not_found']);
    await expectRejected(m, 'GET', '/notes/1002', {}, 404, ['not_found']);
    await note({ body: 'x', user: { id: GRACE } });
    await m.call('DELETE', `/users/${GRACE}`);
    await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: GRACE } });
    await expectRejected(m, 'GET', '/notes/1000003', {}, 404, ['not_found']);
    expect((JSON.parse(await stateText(m)) as { notes: { id: string }[] }).notes.map((n) => n.id)).toEqual(['1003']);
  });

  it('deleting a lead deletes its notes', async () => {
    expect((await m.call('DELETE', `/contacts/${LEAD}`)).status).toBe(200);
    await expectRejected(m, 'GET', '/notes/1003', {}, 404, ['not_found']);
  });

  it('a lead that becomes a user keeps its notes, now shown on a user', async () => {
    const res = await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { user_id: 'lena-new' } } });
    expect(res.body).toMatchObject({ type: 'user', id: LEAD });
    expect((await m.call('GET', '/notes/1003')).body.user).toEqual({ type: 'user', id: LEAD });
    expect((await listed('user_id=lena-new')).map((n) => n.id)).toEqual(['1003']);
  });

  it('a lead merged into a user hands its notes over, the user\'s list in creation order over both', async () => {
    const leadNote = (await note({ body: 'lead, later', user: { id: LEAD } })).body.id as string;
    const adaNote = (await note({ body: 'ada, latest', user: { id: ADA } })).body.id as string;
    const res = await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { id: ADA } } });
    expect(res.body.id).toBe(ADA);
    expect((await listed(`id=${ADA}`)).map((n) => n.id)).toEqual([adaNote, leadNote, '1003', '1002', '1001']);
    expect((await m.call('GET', '/notes/1003')).body.user).toEqual({ type: 'user', id: ADA });
    await expectRejected(m, 'GET', `/notes?id=${LEAD}`, {}, 404, ['not_found']);
  });
});

describe('notes as app state', () => {
  it('a reset forgets created notes and rewinds their ids; a snapshot restore brings them back exactly', async () => {
    const first = await note({ body: 'before snapshot', user: { id: GRACE } });
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'notes' } })).status).toBe(201);
    await note({ body: 'after snapshot', user: { id: GRACE } });
    await m.call('POST', '/__admin/snapshots/notes/restore?app=demo', { token: null });
    expect((await listed(`id=${GRACE}`)).map((n) => n.body)).toEqual(['<p>before snapshot</p>']);
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    expect(await listed(`id=${GRACE}`)).toEqual([]);
    expect((await note({ body: 'before snapshot', user: { id: GRACE } })).text).toBe(first.text);
  });

  it('the export carries notes and seeds back to the same state, lists included', async () => {
    await note({ body: 'exported', user: { id: GRACE } });
    const exported = await stateText(m);
    const doc = JSON.parse(exported) as { notes: unknown[] };
    expect(doc.notes).toContainEqual({ id: '1000003', customer: GRACE, admin_id: '814860', body: '<p>exported</p>', created_at: TEST_NOW });
    const fresh = mock();
    expect((await fresh.call('POST', '/__admin/seed', { token: null, raw: exported, headers: { 'content-type': 'application/json' } })).status).toBe(200);
    expect(await stateText(fresh)).toBe(exported);
    expect((await fresh.call('GET', `/notes?id=${ADA}`)).text).toBe((await m.call('GET', `/notes?id=${ADA}`)).text.replace(/"request_id":"[^"]*"/, ''));
  });

  it('refuses seeded notes naming an unknown person, a visitor or an unknown admin', async () => {
    const base = { app: { id: 'seeded', tokens: ['seeded-token'] }, admins: [{ id: '1', name: 'A', email: 'a@example.com' }], customers: [{ id: 'c1', user_id: 'u1' }, { id: 'v1', type: 'visitor', user_id: 'v-1' }] };
    for (const [bad, field] of [
      [{ id: '5', customer: 'zz', admin_id: '1', body: 'x' }, 'notes[0].customer'],
      [{ id: '5', customer: 'v1', admin_id: '1', body: 'x' }, 'notes[0].customer'],
      [{ id: '5', customer: 'c1', admin_id: '2', body: 'x' }, 'notes[0].admin_id'],
    ] as const) {
      const res = await m.call('POST', '/__admin/seed', { token: null, body: { ...base, notes: [bad] } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'parameter_invalid', field });
    }
    const ok = await m.call('POST', '/__admin/seed', { token: null, body: { ...base, notes: [{ id: '5', customer: 'c1', admin_id: '1', body: '<p>x</p>' }] } });
    expect(ok.status).toBe(200);
    expect((await m.call('POST', '/notes', { token: 'seeded-token', body: { body: 'y', user: { id: 'c1' } } })).body.id).toBe('6');
  });
});
