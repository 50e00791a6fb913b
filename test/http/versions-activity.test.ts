// GET /admins/activity_logs (API version 1.2 on, README "API versions"): the away-mode changes the
// mock performs, newest first, bounded by created_at, paged, capped per app, and carried by reset,
// snapshots, export/seed and provisioned apps like any other state.

import { describe, expect, it } from 'vitest';
import { API_VERSIONS, type ApiVersion } from '../../src/core/versions.js';
import { MAX_ACTIVITY_LOGS } from '../../src/resources/admins/activity-logs.js';
import { errorCodes, expectRejected, mock, stateText, TEST_NOW, type TestMock } from '../helpers.js';

const at = (version: ApiVersion) => ({ 'intercom-version': version });
const V12 = at('1.2');
const LOGS = `/admins/activity_logs?created_at_after=0`;

const away = (m: TestMock, admin: string, enabled: boolean, reassign = false, token = 'demo-token') =>
  m.call('PUT', `/admins/${admin}/away`, { token, body: { away_mode_enabled: enabled, away_mode_reassign: reassign } });

const logs = async (m: TestMock, query = '', token = 'demo-token') => {
  const res = await m.call('GET', `${LOGS}${query}`, { token, headers: V12 });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.body as { type: string; pages: Record<string, unknown>; activity_logs: { id: string; created_at: number; activity_type: string; metadata: Record<string, unknown> }[] };
};

describe('GET /admins/activity_logs per version', () => {
  it('is 400 intercom_version_invalid in 1.0 and 1.1 (not 404 admin_not_found), a list from 1.2', async () => {
    const m = mock();
    for (const version of API_VERSIONS) {
      const res = await m.call('GET', LOGS, { headers: at(version) });
      if (version === '1.0' || version === '1.1') {
        expect(res.status).toBe(400);
        expect(errorCodes(res)).toEqual(['intercom_version_invalid']);
        expect(res.body.errors[0].message).toBe('Requested resource is not available in current API version');
      } else {
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ type: 'activity_log.list', pages: { type: 'pages', next: null, page: 1, per_page: 20, total_pages: 0 }, activity_logs: [] });
      }
    }
    // The default version (1.1) has no such path either; an admin id is still an admin.
    expect(errorCodes(await m.call('GET', LOGS))).toEqual(['intercom_version_invalid']);
    expect((await m.call('GET', '/admins/814860')).body.id).toBe('814860');
  });

  it('the OpenAPI document marks it 1.2 on; the 1.1 document leaves it out', async () => {
    const m = mock();
    const all = (await m.call('GET', '/openapi.json')).body;
    expect(all.paths['/admins/activity_logs'].get.operationId).toBe('listActivityLogs');
    expect(all.paths['/admins/activity_logs'].get['x-api-versions']).toEqual(['1.2', '1.3', '1.4', 'Unstable']);
    expect((await m.call('GET', '/openapi.json?version=1.1')).body.paths['/admins/activity_logs']).toBeUndefined();
    expect((await m.call('GET', '/openapi.json?version=1.2')).body.paths['/admins/activity_logs'].get.operationId).toBe('listActivityLogs');
  });

  it('logs each accepted away-mode change as admin_away_mode_change, with the docs\' metadata', async () => {
    const m = mock();
    expect((await away(m, '991267', false)).status).toBe(200);
    m.clock.advance(60);
    expect((await away(m, '814860', true, true)).status).toBe(200);
    const body = await logs(m);
    expect(body).toEqual({
      type: 'activity_log.list',
      pages: { type: 'pages', next: null, page: 1, per_page: 20, total_pages: 1 },
      activity_logs: [
        {
          id: '2',
          performed_by: { type: 'admin', id: '814860', email: 'ciaran@example.com', ip: null },
          metadata: {
            away_mode: true,
            away_status_reason: null,
            reassign_conversations: true,
            source: 'admin update from api - Admin id: 814860',
            auto_changed: false,
            update_by: 814860,
            update_by_name: 'Ciaran Lee',
          },
          created_at: TEST_NOW + 60,
          activity_type: 'admin_away_mode_change',
          activity_description: 'Ciaran Lee set their status to away, reassigning new replies.',
        },
        {
          id: '1',
          performed_by: { type: 'admin', id: '991267', email: 'mai@example.com', ip: null },
          metadata: {
            away_mode: false,
            away_status_reason: null,
            reassign_conversations: false,
            source: 'admin update from api - Admin id: 814860',
            auto_changed: false,
            update_by: 814860,
            update_by_name: 'Ciaran Lee',
          },
          created_at: TEST_NOW,
          activity_type: 'admin_away_mode_change',
          activity_description: 'Ciaran Lee set Mai Tanaka\'s status to active.',
        },
      ],
    });
  });

  it('logs webhook subscriptions created and deleted, as the token\'s admin', async () => {
    const m = mock();
    const created = await m.call('POST', '/subscriptions', { body: { url: 'http://127.0.0.1:9/hook', topics: ['user.created'] } });
    expect(created.status, created.text.slice(0, 200)).toBe(200);
    m.clock.advance(5);
    expect((await m.call('DELETE', `/subscriptions/${created.body.id}`)).status).toBe(200);
    const performed_by = { type: 'admin', id: '814860', email: 'ciaran@example.com', ip: null };
    const metadata = { subscription_id: created.body.id, url: 'http://127.0.0.1:9/hook' };
    expect((await logs(m)).activity_logs).toEqual([
      { id: '2', performed_by, metadata, created_at: TEST_NOW + 5, activity_type: 'app_webhook_deletion', activity_description: 'Ciaran Lee deleted a webhook subscription to http://127.0.0.1:9/hook.' },
      { id: '1', performed_by, metadata, created_at: TEST_NOW, activity_type: 'app_webhook_creation', activity_description: 'Ciaran Lee created a webhook subscription to http://127.0.0.1:9/hook.' },
    ]);
    await expectRejected(m, 'DELETE', '/subscriptions/nope', {}, 404, ['not_found']);

    // An app without admins has no one to log it as: the subscription is made, nothing is logged.
    await m.call('POST', '/__admin/seed', { token: null, body: { app: { id: 'adminless', tokens: ['adminless-token'] } } });
    const made = await m.call('POST', '/subscriptions', { token: 'adminless-token', body: { url: 'http://127.0.0.1:9/hook', topics: ['user.created'] } });
    expect(made.status, made.text.slice(0, 200)).toBe(200);
    expect((await logs(m, '', 'adminless-token')).activity_logs).toEqual([]);
  });

  it('a refused away-mode change logs nothing', async () => {
    const m = mock();
    await expectRejected(m, 'PUT', '/admins/999/away', { body: { away_mode_enabled: true, away_mode_reassign: false } }, 404, ['admin_not_found']);
    await expectRejected(m, 'PUT', '/admins/814860/away', { body: { away_mode_enabled: true } }, 400, ['parameter_not_found']);
    expect((await logs(m)).activity_logs).toEqual([]);
  });

  it('created_at_after is required and an integer; created_at_before is optional; both bounds are inclusive', async () => {
    const m = mock();
    const missing = await m.call('GET', '/admins/activity_logs', { headers: V12 });
    expect(missing.status).toBe(400);
    expect(errorCodes(missing)).toEqual(['parameter_not_found']);
    expect(missing.body.errors[0].field).toBe('created_at_after');
    for (const bad of ['abc', '1.5', '-1', '']) {
      const res = await m.call('GET', `/admins/activity_logs?created_at_after=${bad}`, { headers: V12 });
      expect(res.status, bad).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_invalid']);
      expect(res.body.errors[0].field).toBe('created_at_after');
    }
    const before = await m.call('GET', `${LOGS}&created_at_before=x`, { headers: V12 });
    expect(errorCodes(before)).toEqual(['parameter_invalid']);

    for (let i = 0; i < 4; i++) {
      await away(m, '1295', i % 2 === 0);
      m.clock.advance(100);
    }
    const between = async (query: string) => (await logs(m, query)).activity_logs.map((l) => l.created_at - TEST_NOW);
    expect(await between('')).toEqual([300, 200, 100, 0]);
    const only = async (after: number, before?: number) =>
      (await m.call('GET', `/admins/activity_logs?created_at_after=${TEST_NOW + after}${before === undefined ? '' : `&created_at_before=${TEST_NOW + before}`}`, { headers: V12 })).body.activity_logs.map(
        (l: { created_at: number }) => l.created_at - TEST_NOW,
      );
    expect(await only(100)).toEqual([300, 200, 100]);
    const paged = await m.call('GET', `/admins/activity_logs?created_at_after=${TEST_NOW + 100}&created_at_before=${TEST_NOW + 200}&per_page=1`, { headers: V12 });
    expect(paged.body.pages).toMatchObject({ page: 1, per_page: 1, total_pages: 2 });
    expect(await only(101)).toEqual([300, 200]);
    expect(await only(100, 200)).toEqual([200, 100]);
    expect(await only(100, 199)).toEqual([100]);
    expect(await only(0, 0)).toEqual([0]);
    expect(await only(301)).toEqual([]);
  });

  it('keeps arrival order among entries of one second, past nine of them', async () => {
    const m = mock();
    for (let i = 0; i < 12; i++) await away(m, '1295', i % 2 === 0);
    expect((await logs(m)).activity_logs.map((l) => l.id)).toEqual(['12', '11', '10', '9', '8', '7', '6', '5', '4', '3', '2', '1']);
  });

  it('pages newest first; next links the next page and is null on the last', async () => {
    const m = mock();
    for (let i = 0; i < 5; i++) await away(m, '1295', i % 2 === 0);
    const first = await logs(m, '&per_page=2');
    expect(first.activity_logs.map((l) => l.id)).toEqual(['5', '4']);
    expect(first.pages).toEqual({ type: 'pages', next: `http://localhost${LOGS}&per_page=2&page=2`, page: 1, per_page: 2, total_pages: 3 });
    const last = await logs(m, '&per_page=2&page=3');
    expect(last.activity_logs.map((l) => l.id)).toEqual(['1']);
    expect(last.pages.next).toBeNull();
    expect((await logs(m, '&per_page=2&page=4')).activity_logs).toEqual([]);
    // Same created_at everywhere: arrival decides, newest first.
    expect((await logs(m)).activity_logs.map((l) => l.id)).toEqual(['5', '4', '3', '2', '1']);
    const tooBig = await m.call('GET', `${LOGS}&per_page=61`, { headers: V12 });
    expect(errorCodes(tooBig)).toEqual(['parameter_invalid']);
  });

  it('orders by created_at even when the clock was moved back', async () => {
    const m = mock();
    await away(m, '1295', true);
    m.clock.set(TEST_NOW - 500);
    await away(m, '1295', false);
    m.clock.set(TEST_NOW + 500);
    await away(m, '1295', true);
    expect((await logs(m)).activity_logs.map((l) => [l.id, l.created_at - TEST_NOW])).toEqual([
      ['3', 500],
      ['1', 0],
      ['2', -500],
    ]);
  });
});

describe('activity logs are app state', () => {
  it(`keeps at most ${MAX_ACTIVITY_LOGS} per app, the oldest out first`, async () => {
    const m = mock();
    // Listed once before the cap is passed, so the sorted index is kept by the evictions, not rebuilt.
    await away(m, '1295', true);
    expect((await logs(m)).activity_logs).toHaveLength(1);
    for (let i = 1; i < MAX_ACTIVITY_LOGS + 3; i++) {
      const res = await away(m, '1295', i % 2 === 0);
      expect(res.status).toBe(200);
      m.clock.advance(1);
    }
    const first = await logs(m, '&per_page=60');
    expect(first.pages.total_pages).toBe(Math.ceil(MAX_ACTIVITY_LOGS / 60));
    expect(first.activity_logs[0]?.id).toBe(String(MAX_ACTIVITY_LOGS + 3));
    const last = await logs(m, `&per_page=60&page=${Math.ceil(MAX_ACTIVITY_LOGS / 60)}`);
    expect(last.activity_logs.at(-1)?.id).toBe('4');
    const exported = JSON.parse(await stateText(m)) as { activity_logs: { id: string }[] };
    expect(exported.activity_logs).toHaveLength(MAX_ACTIVITY_LOGS);
    expect(exported.activity_logs[0]?.id).toBe('4');
  });

  it('reset forgets them; a snapshot restores them; ids start over after a reset', async () => {
    const m = mock();
    await away(m, '1295', true);
    const snap = await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'one' } });
    expect(snap.status, snap.text).toBeLessThan(300);
    await away(m, '1295', false);
    expect((await logs(m)).activity_logs.map((l) => l.id)).toEqual(['2', '1']);
    expect((await m.call('POST', '/__admin/snapshots/one/restore?app=demo', { token: null })).status).toBeLessThan(300);
    expect((await logs(m)).activity_logs.map((l) => l.id)).toEqual(['1']);
    expect((await m.call('POST', '/__admin/reset?app=demo', { token: null })).status).toBeLessThan(300);
    expect((await logs(m)).activity_logs).toEqual([]);
    await away(m, '1295', true);
    expect((await logs(m)).activity_logs.map((l) => l.id)).toEqual(['1']);
  });

  it('export then seed gives the same log and the same next id; a fixture may hold activity_logs', async () => {
    const m = mock();
    await away(m, '1295', true);
    await away(m, '991267', false);
    const before = await stateText(m);
    const listed = await logs(m);
    const seeded = await m.call('POST', '/__admin/seed?mode=replace', { token: null, raw: before, headers: { 'content-type': 'application/json' } });
    expect(seeded.status, seeded.text.slice(0, 300)).toBe(200);
    expect(await stateText(m)).toBe(before);
    expect(await logs(m)).toEqual(listed);
    await away(m, '1295', false);
    expect((await logs(m)).activity_logs.map((l) => l.id)).toEqual(['3', '2', '1']);

    const entry = { id: '41', performed_by: { type: 'admin', id: '7001', email: 'owner@example.com', ip: '198.51.100.7' }, metadata: { before: 'a', after: 'b' }, created_at: 1_700_000_000, activity_type: 'app_name_change', activity_description: 'Owner changed your app name from a to b.' };
    const app = await m.call('POST', '/__admin/seed', {
      token: null,
      body: { app: { id: 'logged', tokens: ['logged-token'] }, admins: [{ id: '7001', name: 'Owner', email: 'owner@example.com' }], activity_logs: [entry] },
    });
    expect(app.status, app.text.slice(0, 300)).toBe(200);
    expect((await logs(m, '', 'logged-token')).activity_logs).toEqual([entry]);
    await away(m, '7001', true, false, 'logged-token');
    expect((await logs(m, '', 'logged-token')).activity_logs.map((l) => l.id)).toEqual(['42', '41']);
    // Other apps' logs are their own.
    expect((await logs(m)).activity_logs.map((l) => l.id)).toEqual(['3', '2', '1']);

    const bad = await m.call('POST', '/__admin/seed', { token: null, body: { app: { id: 'bad', tokens: ['bad-token'] }, activity_logs: [{ ...entry, id: 'x' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('activity_logs[0].id');
  });

  it('a provisioned test app starts from the seeded log and keeps its own', async () => {
    const m = mock();
    await away(m, '1295', true, false, 'test_activity_1');
    expect((await logs(m, '', 'test_activity_1')).activity_logs.map((l) => l.id)).toEqual(['1']);
    expect((await logs(m, '', 'test_activity_2')).activity_logs).toEqual([]);
    expect((await logs(m)).activity_logs).toEqual([]);
  });
});
