// One admin, the admin a token belongs to, away mode, and teams (surface A1–A4), with the state
// afterwards as the other admin reads see it.

import { beforeEach, describe, expect, it } from 'vitest';
import { errorCodes, expectRejected, mock, stateText, type TestMock } from '../../helpers.js';

const m = mock();
beforeEach(async () => {
  await m.call('POST', '/__admin/reset', { token: null });
});

const admins = async (m: TestMock) => (await m.call('GET', '/admins')).body.admins as Record<string, unknown>[];
const seed = (m: TestMock, body: unknown, mode = 'replace') => m.call('POST', `/__admin/seed?mode=${mode}`, { token: null, body });

describe('GET /admins/{id}', () => {
  it('answers the admin with its away flags and team_ids, as the admin list shows it', async () => {
    const res = await m.call('GET', '/admins/991267');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'admin', id: '991267', name: 'Mai Tanaka', email: 'mai@example.com', away_mode_enabled: true, away_mode_reassign: true, team_ids: [1000001, 1000002] });
    const { email: _email, ...listed } = (await admins(m)).find((a) => a.id === '991267') as Record<string, unknown>;
    expect({ ...listed, email: 'mai@example.com' }).toEqual(res.body);
  });

  it('answers 404 admin_not_found "Admin not found" for an unknown id and for a team id', async () => {
    for (const id of ['999', '1000001']) {
      const res = await expectRejected(m, 'GET', `/admins/${id}`, {}, 404, ['admin_not_found']);
      expect(res.body.errors[0].message).toBe('Admin not found');
    }
  });
});

describe('PUT /admins/{id}/away', () => {
  it('stores both flags and answers the admin; GET /admins/{id} and GET /admins show them', async () => {
    const res = await m.call('PUT', '/admins/814860/away', { body: { away_mode_enabled: true, away_mode_reassign: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'admin', id: '814860', name: 'Ciaran Lee', email: 'ciaran@example.com', away_mode_enabled: true, away_mode_reassign: true, team_ids: [1000001] });
    expect((await m.call('GET', '/admins/814860')).body).toEqual(res.body);
    expect((await admins(m)).find((a) => a.id === '814860')).toMatchObject({ away_mode_enabled: true, away_mode_reassign: true });
    const back = await m.call('PUT', '/admins/814860/away', { body: { away_mode_enabled: false, away_mode_reassign: false } });
    expect(back.body).toMatchObject({ away_mode_enabled: false, away_mode_reassign: false });
    expect((await m.call('GET', '/admins/814860')).body).toMatchObject({ away_mode_enabled: false, away_mode_reassign: false });
  });

  it('takes the Java client\'s body, which echoes the path\'s id as a number, and refuses an id that differs', async () => {
    const res = await m.call('PUT', '/admins/1295/away', { body: { id: 1295, away_mode_enabled: true, away_mode_reassign: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: '1295', away_mode_enabled: true, away_mode_reassign: false });
    await expectRejected(m, 'PUT', '/admins/1295/away', { body: { id: 814860, away_mode_enabled: false, away_mode_reassign: false } }, 400, ['parameter_invalid']);
  });

  it('refuses a missing or non-boolean flag and an unknown admin, changing nothing', async () => {
    const missing = await expectRejected(m, 'PUT', '/admins/814860/away', { body: { away_mode_enabled: true } }, 400, ['parameter_not_found']);
    expect(missing.body.errors[0].field).toBe('away_mode_reassign');
    const wrong = await expectRejected(m, 'PUT', '/admins/814860/away', { body: { away_mode_enabled: 'yes', away_mode_reassign: 1 } }, 400, ['parameter_invalid', 'parameter_invalid']);
    expect(wrong.body.errors.map((e: { field: string }) => e.field)).toEqual(['away_mode_enabled', 'away_mode_reassign']);
    await expectRejected(m, 'PUT', '/admins/999/away', { body: { away_mode_enabled: true, away_mode_reassign: false } }, 404, ['admin_not_found']);
    await expectRejected(m, 'PUT', '/admins/1000001/away', { body: { away_mode_enabled: true, away_mode_reassign: false } }, 404, ['admin_not_found']);
  });

  it('is app state: a snapshot keeps it, a reset undoes it, the export carries it', async () => {
    await m.call('PUT', '/admins/1295/away', { body: { away_mode_enabled: true, away_mode_reassign: true } });
    const exported = JSON.parse(await stateText(m)) as { admins: { id: string; away_mode_enabled: boolean }[] };
    expect(exported.admins.find((a) => a.id === '1295')?.away_mode_enabled).toBe(true);
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'away' } })).status).toBe(201);
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    expect((await m.call('GET', '/admins/1295')).body.away_mode_enabled).toBe(false);
    await m.call('POST', '/__admin/snapshots/away/restore?app=demo', { token: null });
    expect((await m.call('GET', '/admins/1295')).body.away_mode_enabled).toBe(true);
  });
});

describe('GET /me', () => {
  it('answers the admin the token belongs to, with email_verified and the app', async () => {
    const res = await m.call('GET', '/me');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: 'admin',
      id: '814860',
      name: 'Ciaran Lee',
      email: 'ciaran@example.com',
      email_verified: true,
      app: { type: 'app', id_code: 'demo', name: 'Demo app', created_at: 1_767_225_600, identity_verification: false },
    });
    expect((await m.call('GET', '/me', { token: 'other-token' })).body).toMatchObject({ id: '42', app: { id_code: 'other' } });
  });

  it('gives each token its own owner (token_owners), the first admin to a token not listed', async () => {
    const app = { id: 'owned', tokens: ['owned-a', 'owned-b', 'owned-c'], token_owners: { 'owned-a': '2', 'owned-b': '3' } };
    const people = [{ id: '1', name: 'First', email: 'first@example.com' }, { id: '2', name: 'Second', email: 'second@example.com' }, { id: '3', name: 'Third', email: 'third@example.com' }];
    expect((await seed(m, { app, admins: people })).status).toBe(200);
    expect((await m.call('GET', '/me', { token: 'owned-a' })).body.id).toBe('2');
    expect((await m.call('GET', '/me', { token: 'owned-b' })).body.id).toBe('3');
    expect((await m.call('GET', '/me', { token: 'owned-c' })).body.id).toBe('1');
    // The Basic form names the same token.
    const basic = `Basic ${Buffer.from('owned-b:').toString('base64')}`;
    expect((await m.call('GET', '/me', { headers: { authorization: basic } })).body.id).toBe('3');
  });

  it('gives a provisioned test_ token the first admin of the fixtures it was seeded from', async () => {
    const res = await m.call('GET', '/me', { token: 'test_me_owner' });
    expect(res.body).toMatchObject({ id: '814860', app: { id_code: 'test_me_owner' } });
  });

  it('answers 404 admin_not_found in an app without admins', async () => {
    expect((await seed(m, { app: { id: 'lonely', tokens: ['lonely-token'] } })).status).toBe(200);
    const res = await m.call('GET', '/me', { token: 'lonely-token' });
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['admin_not_found']);
  });

  it('refuses token_owners naming an unknown admin or a token the app does not have, and a merge drops owners of tokens it removes', async () => {
    const admin = [{ id: '1', name: 'First', email: 'first@example.com' }];
    const badAdmin = await seed(m, { app: { id: 'own', tokens: ['own-a'], token_owners: { 'own-a': '9' } }, admins: admin });
    expect(badAdmin.status).toBe(400);
    expect(badAdmin.body.errors[0]).toMatchObject({ code: 'parameter_invalid', field: 'app.token_owners' });
    const badToken = await seed(m, { app: { id: 'own', tokens: ['own-a'], token_owners: { 'own-z': '1' } }, admins: admin });
    expect(badToken.status).toBe(400);
    expect((await seed(m, { app: { id: 'own', tokens: ['own-a'], token_owners: { 'own-a': '1' } }, admins: admin })).status).toBe(200);
    expect((await seed(m, { app: { id: 'own', tokens: ['own-b'] } }, 'merge')).status).toBe(200);
    const doc = JSON.parse(await stateText(m, 'own')) as { app: Record<string, unknown> };
    expect(doc.app).toMatchObject({ tokens: ['own-b'], token_owners: {} });
  });

  it('reads a token named like an Object.prototype member as a token, not as a member', async () => {
    const app = { id: 'proto', tokens: ['constructor', '__proto__'], token_owners: JSON.parse('{"__proto__":"2"}') as Record<string, string> };
    const people = [{ id: '1', name: 'First', email: 'first@example.com' }, { id: '2', name: 'Second', email: 'second@example.com' }];
    expect((await seed(m, { app, admins: people })).status).toBe(200);
    expect((await m.call('GET', '/me', { token: 'constructor' })).body.id).toBe('1');
    expect((await m.call('GET', '/me', { token: '__proto__' })).body.id).toBe('2');
  });
});

describe('GET /teams, GET /teams/{id}', () => {
  it('lists every team with integer admin_ids, each agreeing with the admins\' team_ids', async () => {
    const res = await m.call('GET', '/teams');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: 'team.list',
      teams: [
        { type: 'team', id: '1000001', name: 'Support', admin_ids: [814860, 991267] },
        { type: 'team', id: '1000002', name: 'Sales', admin_ids: [991267] },
      ],
    });
    for (const team of res.body.teams as { id: string; admin_ids: number[] }[]) {
      for (const adminId of team.admin_ids) expect((await m.call('GET', `/admins/${adminId}`)).body.team_ids).toContain(Number(team.id));
    }
    for (const id of ['814860', '991267', '1295']) {
      const teamIds = (await m.call('GET', `/admins/${id}`)).body.team_ids as number[];
      const naming = (res.body.teams as { id: string; admin_ids: number[] }[]).filter((t) => t.admin_ids.includes(Number(id))).map((t) => Number(t.id));
      expect(teamIds).toEqual(naming);
    }
  });

  it('answers one team, and 404 team_not_found "Team not found" for an unknown id or an admin id', async () => {
    expect((await m.call('GET', '/teams/1000002')).body).toEqual({ type: 'team', id: '1000002', name: 'Sales', admin_ids: [991267] });
    for (const id of ['7', '814860']) {
      const res = await expectRejected(m, 'GET', `/teams/${id}`, {}, 404, ['team_not_found']);
      expect(res.body.errors[0].message).toBe('Team not found');
    }
  });

  it('sees teams of the app the token belongs to only', async () => {
    expect((await m.call('GET', '/teams', { token: 'other-token' })).body.teams).toEqual([{ type: 'team', id: '43', name: 'Everyone', admin_ids: [42] }]);
    await expectRejected(m, 'GET', '/teams/43', {}, 404, ['team_not_found']);
  });
});
