// Archive edge cases: how DELETE /users picks its user when identifiers are blank or shared, which
// archived record POST /users brings back when the newest one with an email is gone, and what a
// restore keeps when a tag the user held was deleted meanwhile.

import { describe, expect, it } from 'vitest';
import { errorCodes, mock, stateText, type TestMock } from '../../helpers.js';

const create = async (m: TestMock, body: object): Promise<string> => {
  const res = await m.call('POST', '/users', { body });
  expect(res.status, res.text.slice(0, 200)).toBe(200);
  return res.body.id as string;
};
const archived = async (m: TestMock) => (JSON.parse(await stateText(m)).archived_customers as { id: string; tags: string[] }[]);

describe('DELETE /users: which user', () => {
  it('reads an empty id as no id, and archives by user_id', async () => {
    const m = mock();
    const id = await create(m, { user_id: 'blank-id-1', email: 'blank-id@example.com' });
    const res = await m.call('DELETE', '/users?id=&user_id=blank-id-1');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id);
    expect((await archived(m)).map((c) => c.id)).toContain(id);
  });

  it('archives the one user with an email a lead shares, and refuses an email two users share, naming email', async () => {
    const m = mock();
    const lead = await m.call('POST', '/contacts', { body: { email: 'shared-lead@example.com' } });
    expect(lead.status).toBe(200);
    const user = await create(m, { user_id: 'with-lead-1', email: 'shared-lead@example.com' });
    const res = await m.call('DELETE', '/users?email=shared-lead@example.com');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(user);

    await create(m, { user_id: 'twin-1', email: 'twins@example.com' });
    await create(m, { user_id: 'twin-2', email: 'twins@example.com' });
    const conflict = await m.call('DELETE', '/users?email=twins@example.com');
    expect(conflict.status).toBe(409);
    expect(errorCodes(conflict)).toEqual(['conflict']);
    expect(conflict.body.errors[0].field).toBe('email');
  });

  it('refuses a request with no identifier, naming user_id', async () => {
    const res = await mock().call('DELETE', '/users');
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('user_id');
  });
});

describe('POST /users bringing an archived user back', () => {
  it('skips the newest archived user with the email once it is deleted for good, and restores the one before', async () => {
    const m = mock();
    const older = await create(m, { user_id: 'same-mail-1', email: 'same-mail@example.com' });
    const newer = await create(m, { user_id: 'same-mail-2', email: 'same-mail@example.com' });
    expect((await m.call('DELETE', `/users/${older}`)).status).toBe(200);
    expect((await m.call('DELETE', `/users/${newer}`)).status).toBe(200);
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: newer } })).status).toBe(200);
    expect(await create(m, { email: 'same-mail@example.com' })).toBe(older);
  });

  it('leaves out a tag deleted while the user was archived, in the export and in the restored user', async () => {
    const m = mock();
    const id = await create(m, { user_id: 'tagged-1' });
    const keep = await m.call('POST', '/tags', { body: { name: 'Kept', users: [{ id }] } });
    const drop = await m.call('POST', '/tags', { body: { name: 'Dropped', users: [{ id }] } });
    expect((await m.call('DELETE', `/users/${id}`)).status).toBe(200);
    expect((await m.call('DELETE', `/tags/${drop.body.id}`)).status).toBe(200);
    expect((await archived(m)).find((c) => c.id === id)?.tags).toEqual([keep.body.id]);
    const restored = await m.call('POST', '/users', { body: { user_id: 'tagged-1' } });
    expect(restored.body.id).toBe(id);
    expect(restored.body.tags.tags.map((t: { id: string }) => t.id)).toEqual([keep.body.id]);
    expect(restored.body.segments).toEqual({ type: 'segment.list', segments: [] });
  });
});
