// POST /tags beyond the happy path: untagging one tag of several, the member a refusal names (of a
// company target of POST /users too), GET /counts refusing page parameters where nothing is paged, and a deleted tag leaving the export.

import { describe, expect, it } from 'vitest';
import { errorCodes, expectRejected, mock, stateText } from '../../helpers.js';

const tagNames = (user: { tags: { tags: { name: string }[] } }) => user.tags.tags.map((t) => t.name);

describe('POST /tags', () => {
  it('untags one tag and keeps the user\'s others', async () => {
    const m = mock();
    const user = (await m.call('POST', '/users', { body: { user_id: 'two-tags-1' } })).body.id as string;
    await m.call('POST', '/tags', { body: { name: 'First', users: [{ id: user }] } });
    await m.call('POST', '/tags', { body: { name: 'Second', users: [{ id: user }] } });
    expect((await m.call('POST', '/tags', { body: { name: 'First', users: [{ id: user, untag: true }] } })).status).toBe(200);
    expect(tagNames((await m.call('GET', `/users/${user}`)).body)).toEqual(['Second']);
  });

  it('refuses a name over 255 characters, an email two users share and a company target without an identifier, naming the member', async () => {
    const m = mock();
    const long = await expectRejected(m, 'POST', '/tags', { body: { name: 'x'.repeat(256) } }, 400, ['parameter_invalid']);
    expect(long.body.errors[0].field).toBe('name');
    await m.call('POST', '/users', { body: { user_id: 'twin-a', email: 'tag-twins@example.com' } });
    await m.call('POST', '/users', { body: { user_id: 'twin-b', email: 'tag-twins@example.com' } });
    const shared = await expectRejected(m, 'POST', '/tags', { body: { name: 'Twins', users: [{ email: 'tag-twins@example.com' }] } }, 409, ['conflict']);
    expect(shared.body.errors[0].field).toBe('users[0].email');
    const bare = await expectRejected(m, 'POST', '/tags', { body: { name: 'Bare', companies: [{}] } }, 400, ['parameter_not_found']);
    expect(bare.body.errors[0].field).toBe('companies[0]');
  });
});

describe('GET /counts with page parameters', () => {
  it('refuses page and per_page on a count that is not paged, naming the parameter', async () => {
    const m = mock();
    for (const key of ['page', 'per_page']) {
      const res = await m.call('GET', `/counts?type=user&count=tag&${key}=1`);
      expect(res.status).toBe(400);
      expect(errorCodes(res)).toEqual(['bad_request']);
      expect(res.body.errors[0].field).toBe(key);
    }
    expect((await m.call('GET', '/counts?type=company&count=tag&page=1&per_page=1')).status).toBe(200);
  });
});

describe('POST /users with companies, the member a refusal names', () => {
  it('refuses an empty company_id, naming it, and changes nothing', async () => {
    const m = mock();
    const res = await expectRejected(m, 'POST', '/users', { body: { user_id: 'empty-co-1', companies: [{ company_id: 'fine-co' }, { company_id: '' }] } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('companies[1].company_id');
  });
});

describe('DELETE /tags/{id} and the export', () => {
  it('takes the tag out of the conversations holding it, so the export seeds back', async () => {
    const m = mock();
    expect((await m.call('DELETE', '/tags/17513')).status).toBe(200);
    const text = await stateText(m);
    const conversation = (JSON.parse(text).conversations as { id: string; tags: string[] }[]).find((c) => c.id === '5714dd359a3fd47136000501');
    expect(conversation?.tags).toEqual([]);
    expect((await m.call('POST', '/__admin/seed?mode=replace', { token: null, raw: text, headers: { 'content-type': 'application/json' } })).status).toBe(200);
  });
});
