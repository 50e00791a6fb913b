// Admins and notes through the official Node client (intercom-client 2.11) on a real listening
// mock: admins.find, admins.me, admins.away, notes.create, notes.list, notes.find.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADA, LEAD } from '../fixture-ids.js';
import { officialClientMock, type OfficialClientMock } from './official.js';

describe('official Node client: admins and notes', () => {
  let m: OfficialClientMock;
  beforeAll(async () => (m = await officialClientMock()));
  afterAll(() => m.close());

  /** One app per test, so their writes do not meet. */
  const client = (name: string) => m.client(`test_people_${name}`);

  it('admins.find answers one admin; an unknown id rejects with the 404 admin_not_found', async () => {
    const c = client('find');
    const res = await c.admins.find('991267');
    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual({ type: 'admin', id: '991267', name: 'Mai Tanaka', email: 'mai@example.com', away_mode_enabled: true, away_mode_reassign: true, team_ids: [1000001, 1000002] });
    const refused = await c.admins.find('999').catch((e: any) => e);
    expect(refused.statusCode).toBe(404);
    expect(refused.body.errors[0]).toMatchObject({ code: 'admin_not_found', message: 'Admin not found' });
  });

  it('admins.me answers the admin the token belongs to, for the demo token and a test_ token', async () => {
    expect((await m.client().admins.me()).body).toMatchObject({ type: 'admin', id: '814860', email_verified: true, app: { id_code: 'demo' } });
    expect((await client('me').admins.me()).body).toMatchObject({ id: '814860', app: { type: 'app', id_code: 'test_people_me' } });
  });

  it('admins.away sets away mode, which admins.find and admins.list show afterwards', async () => {
    const c = client('away');
    const res = await c.admins.away('1295', { away_mode_enabled: true, away_mode_reassign: true });
    expect(res.body).toMatchObject({ id: '1295', away_mode_enabled: true, away_mode_reassign: true });
    expect((await c.admins.find('1295')).body).toMatchObject({ away_mode_enabled: true, away_mode_reassign: true });
    const listed = (await c.admins.list()).body.admins.find((a: { id: string }) => a.id === '1295');
    expect(listed).toMatchObject({ away_mode_enabled: true, away_mode_reassign: true });
    await expect(c.admins.away('1295', { away_mode_enabled: true })).rejects.toMatchObject({ statusCode: 400 });
  });

  it('notes.create, notes.list (newest first) and notes.find, on a user and a lead', async () => {
    const c = client('notes');
    const created = await c.notes.create({ admin_id: '991267', body: 'Called about the renewal', user: { email: 'ada@example.com' } });
    expect(created.statusCode).toBe(200);
    expect(created.body).toMatchObject({ type: 'note', body: '<p>Called about the renewal</p>', author: { type: 'admin', id: '991267', name: 'Mai Tanaka' }, user: { type: 'user', id: ADA } });
    const byOwner = await c.notes.create({ body: '<p>Second</p>', user: { id: ADA } });
    expect(byOwner.body.author.id).toBe('814860');
    const list = await c.notes.list({ user_id: 'ada-1' });
    expect(list.body.type).toBe('note.list');
    expect(list.body.notes.map((n: { id: string }) => n.id)).toEqual([byOwner.body.id, created.body.id, '1002', '1001']);
    expect((await c.notes.list({ email: 'ada@example.com' })).body.total_count).toBe(4);
    expect((await c.notes.find({ id: created.body.id })).body).toEqual(created.body);
    const onLead = await c.notes.create({ body: 'Lead note', user: { id: LEAD } });
    expect(onLead.body.user).toEqual({ type: 'lead', id: LEAD });
    expect((await c.notes.list({ id: LEAD })).body.notes.map((n: { id: string }) => n.id)).toEqual([onLead.body.id, '1003']);
  });

  it('notes refusals reject with the API\'s error', async () => {
    const c = client('refusals');
    await expect(c.notes.create({ body: 'x', user: { id: 'nobody' } })).rejects.toMatchObject({ statusCode: 404, message: 'User Not Found' });
    await expect(c.notes.create({ user: { id: ADA } })).rejects.toMatchObject({ statusCode: 400 });
    await expect(c.notes.find({ id: '424242' })).rejects.toMatchObject({ statusCode: 404 });
    await expect(c.notes.list({ user_id: 'nobody' })).rejects.toMatchObject({ statusCode: 404 });
    expect(m.seen.filter((s) => s.status >= 500)).toEqual([]);
  });
});
