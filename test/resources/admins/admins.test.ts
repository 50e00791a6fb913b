import { describe, expect, it } from 'vitest';
import { adminListSchema } from '../../../src/resources/admins/shapes.js';
import { validate } from '../../../src/schemas/validate.js';
import { errorCodes, mock } from '../../helpers.js';

interface Entry {
  type: 'admin' | 'team';
  id: string;
  name: string;
  email: string | null;
  team_ids?: number[];
  admin_ids?: number[];
}

describe('GET /admins', () => {
  it('answers an admin.list mixing the seeded admins and teams, with an empty pages', async () => {
    const m = mock();
    const res = await m.call('GET', '/admins');
    expect(res.status).toBe(200);
    expect(validate(adminListSchema, res.body)).toEqual([]);
    expect(res.body.type).toBe('admin.list');
    expect(res.body.pages).toEqual({});
    const entries = res.body.admins as Entry[];
    expect(entries.map((e) => `${e.type}:${e.id}`)).toEqual(['admin:814860', 'admin:991267', 'admin:1295', 'team:1000001', 'team:1000002']);
  });

  it('gives admins an email and team_ids, and teams email null and admin_ids', async () => {
    const m = mock();
    const entries = (await m.call('GET', '/admins')).body.admins as Entry[];
    for (const e of entries.filter((x) => x.type === 'admin')) {
      expect(typeof e.email).toBe('string');
      expect(e.team_ids).toBeInstanceOf(Array);
      expect(e).not.toHaveProperty('admin_ids');
    }
    for (const e of entries.filter((x) => x.type === 'team')) {
      expect(e.email).toBeNull();
      expect(e.admin_ids).toBeInstanceOf(Array);
      expect(e).not.toHaveProperty('team_ids');
    }
    expect(entries.find((e) => e.id === '1295')?.team_ids).toEqual([]);
    expect(entries.find((e) => e.id === '1000002')?.admin_ids).toEqual([991267]);
  });

  it('keeps team_ids and admin_ids consistent: every membership is listed on both sides', async () => {
    const m = mock();
    const entries = (await m.call('GET', '/admins')).body.admins as Entry[];
    const fromTeams = entries.filter((e) => e.type === 'team').flatMap((t) => (t.admin_ids ?? []).map((a) => `${a}@${t.id}`));
    const fromAdmins = entries.filter((e) => e.type === 'admin').flatMap((a) => (a.team_ids ?? []).map((t) => `${a.id}@${t}`));
    expect(fromAdmins.sort()).toEqual(fromTeams.sort());
    expect(fromTeams).toHaveLength(3);
  });

  it('derives team_ids from seeded team membership', async () => {
    const m = mock();
    const seed = {
      app: { id: 'demo', tokens: ['demo-token'] },
      teams: [{ id: '1000003', name: 'Billing', admin_ids: ['1295', '814860'] }],
    };
    expect((await m.call('POST', '/__admin/seed?mode=merge', { body: seed })).status).toBe(200);
    const entries = (await m.call('GET', '/admins')).body.admins as Entry[];
    expect(entries.find((e) => e.id === '1295')?.team_ids).toEqual([1000003]);
    expect(entries.find((e) => e.id === '814860')?.team_ids).toEqual([1000001, 1000003]);
  });

  it('answers 401 token_not_found without a token', async () => {
    const m = mock();
    const res = await m.call('GET', '/admins', { token: null });
    expect(res.status).toBe(401);
    expect(errorCodes(res)).toEqual(['token_not_found']);
  });
});
