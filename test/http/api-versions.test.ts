// API versions 1.0–1.4 (README "API versions"): how a request's version is chosen, and each
// version-sensitive operation under every version, checked through HTTP and the contract.

import { describe, expect, it } from 'vitest';
import { API_VERSIONS, type ApiVersion } from '../../src/core/versions.js';
import { parseConfig } from '../../src/config.js';
import { errorCodes, expectRejected, mock, stateText } from '../helpers.js';

const m = mock();
const ADA = '5714dd359a3fd47136000001';
const LEAD = '5714dd359a3fd47136000007';
const VISITOR = '5714dd359a3fd47136000009';
const UNAVAILABLE = 'Requested resource is not available in current API version';
const at = (version: ApiVersion) => ({ headers: { 'intercom-version': version } });
const before12 = (v: ApiVersion) => v === '1.0' || v === '1.1';

/** A small app whose fixture names its version (and an owner, shown from 1.4). */
const seedApp = (id: string, api_version?: ApiVersion) =>
  m.call('POST', '/__admin/seed', {
    token: null,
    body: {
      app: { id, tokens: [`${id}-token`], ...(api_version ? { api_version } : {}) },
      admins: [{ id: '7001', name: 'Owner', email: 'owner@example.com' }],
      customers: [{ type: 'user', id: '64b000000000000000000001', user_id: 'u1', email: 'one@example.com', last_seen_ip: '203.0.113.9', owner_id: 7001 }],
    },
  });

describe('choosing the version', () => {
  it('defaults to 1.1: GET /users?email= answers a user.list', async () => {
    const res = await m.call('GET', '/users?email=ada@example.com');
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('user.list');
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([ADA]);
  });

  it('the header wins over the app; an app fixture names its version; --api-version fills in for apps that name none', async () => {
    expect((await seedApp('v10', '1.0')).status).toBe(200);
    const own = await m.call('GET', '/users?email=one@example.com', { token: 'v10-token' });
    expect(own.body.type).toBe('user');
    const overridden = await m.call('GET', '/users?email=one@example.com', { token: 'v10-token', ...at('1.1') });
    expect(overridden.body.type).toBe('user.list');

    const flagged = mock({ apiVersion: '1.0' });
    expect((await flagged.call('GET', '/users?email=ada@example.com')).body.type).toBe('user');
    expect(parseConfig(['--api-version', '1.4'], {})).toMatchObject({ apiVersion: '1.4' });
    expect(parseConfig([], { API_VERSION: '1.2' })).toMatchObject({ apiVersion: '1.2' });
    expect(() => parseConfig(['--api-version', '2.0'], {})).toThrow('--api-version must be one of 1.0, 1.1, 1.2, 1.3, 1.4, not "2.0"');
  });

  it('an unknown version value is 400 intercom_version_invalid and changes nothing, even on a write', async () => {
    for (const value of ['2.0', '1.5', 'unstable', '', 'x'.repeat(500)]) {
      const res = await expectRejected(m, 'POST', '/users', { body: { email: 'new@example.com' }, headers: { 'intercom-version': value } }, 400, ['intercom_version_invalid']);
      expect(res.body.errors[0].message).toBe(`Intercom-Version ${JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value)} is not a version this API serves: send one of 1.0, 1.1, 1.2, 1.3, 1.4, Unstable.`);
    }
  });

  it('Unstable is named by the header only: an app cannot take it as its version', async () => {
    const res = await seedApp('unstable-app', 'Unstable');
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    const served = await m.call('GET', '/users?per_page=1', { headers: { 'intercom-version': 'Unstable' } });
    expect(served.status).toBe(200);
    // 1.4's shape: owner_id shown, last_seen_ip not.
    expect(Object.keys(served.body.users[0])).toContain('owner_id');
    expect(Object.keys(served.body.users[0])).not.toContain('last_seen_ip');
  });

  it('export, seed, reset and snapshots carry app.api_version', async () => {
    await seedApp('v14', '1.4');
    const exported = await stateText(m, 'v14');
    expect(JSON.parse(exported).app.api_version).toBe('1.4');
    expect(JSON.parse(await stateText(m)).app.api_version).toBe('1.1');
    expect((await m.call('POST', '/__admin/seed', { token: null, body: JSON.parse(exported) })).status).toBe(200);
    expect((await m.call('POST', '/__admin/snapshots?app=v14', { token: null, body: { name: 's' } })).status).toBe(201);
    expect((await m.call('POST', '/__admin/reset?app=v14', { token: null })).status).toBe(200);
    expect((await m.call('POST', '/__admin/snapshots/s/restore?app=v14', { token: null })).status).toBe(200);
    expect(await stateText(m, 'v14')).toBe(exported);
    expect((await m.call('GET', '/data_attributes?model=customer', { token: 'v14-token' })).status).toBe(200);
  });
});

describe('GET /users?email= in every version', () => {
  it.each(API_VERSIONS)('%s', async (version) => {
    const one = await m.call('GET', '/users?email=ada@example.com', at(version));
    const none = await m.call('GET', '/users?email=nobody@example.com', at(version));
    const two = await m.call('GET', '/users?email=shared@example.com', at(version));
    const byUserId = await m.call('GET', '/users?email=shared@example.com&user_id=ada-1', at(version));
    // user_id answers the one user in every version; the email beside it names others (a warning).
    expect([byUserId.body.type, byUserId.body.id]).toEqual(['user', ADA]);
    expect(byUserId.headers.get('x-mock-warning')).toMatch(/^identifier_overridden "/);
    if (version === '1.0') {
      expect([one.status, one.body.type, one.body.id]).toEqual([200, 'user', ADA]);
      expect([none.status, errorCodes(none)]).toEqual([404, ['not_found']]);
      expect([two.status, errorCodes(two)]).toEqual([409, ['conflict']]);
    } else {
      expect(one.body).toMatchObject({ type: 'user.list', total_count: 1 });
      expect(none.body).toMatchObject({ type: 'user.list', total_count: 0, users: [] });
      expect(two.body).toMatchObject({ type: 'user.list', total_count: 2 });
    }
  });
});

describe('customer fields per version', () => {
  it.each(API_VERSIONS)('%s', async (version) => {
    const reads = [
      await m.call('GET', `/users/${ADA}`, at(version)),
      await m.call('GET', `/contacts/${LEAD}`, at(version)),
      await m.call('GET', `/visitors/${VISITOR}`, at(version)),
    ];
    const listed = (await m.call('GET', '/users?user_id=ada-1', at(version))).body;
    for (const view of [...reads.map((r) => r.body), listed]) {
      expect('last_seen_ip' in view).toBe(before12(version));
      expect('user_agent_data' in view).toBe(before12(version));
      expect('latitude' in view.location_data).toBe(before12(version) && view.id === ADA && reads[0]?.body.location_data.latitude !== undefined);
      expect('owner_id' in view).toBe(version === '1.4');
    }
    if (before12(version)) expect(reads[0]?.body.last_seen_ip).toBe('81.17.16.2');
  });

  it('1.4 shows the stored owner; a reference such as a conversation\'s user is left alone', async () => {
    await seedApp('owned');
    const user = await m.call('GET', '/users/64b000000000000000000001', { token: 'owned-token', ...at('1.4') });
    expect(user.body.owner_id).toBe(7001);
    const conversation = await m.call('GET', '/conversations/5714dd359a3fd47136000501', at('1.4'));
    expect(conversation.status).toBe(200);
    expect(conversation.text).not.toContain('owner_id');
  });

  it('a 1.2 write answers without the dropped fields and stores them as sent (1.1 reads them back)', async () => {
    const written = await m.call('POST', '/users', { body: { user_id: 'v12-writer', last_seen_ip: '198.51.100.7' }, ...at('1.2') });
    expect(written.status).toBe(200);
    expect('last_seen_ip' in written.body).toBe(false);
    expect((await m.call('GET', `/users/${written.body.id}`)).body.last_seen_ip).toBe('198.51.100.7');
  });
});

describe('data attributes and admins', () => {
  it.each(API_VERSIONS)('%s', async (version) => {
    const old = await m.call('GET', '/data_attributes/customer', at(version));
    const company = await m.call('GET', '/data_attributes/company', at(version));
    const byModel = await m.call('GET', '/data_attributes?model=company', at(version));
    const admins = await m.call('GET', '/admins', at(version));
    const types = new Set(admins.body.admins.map((a: { type: string }) => a.type));
    if (version === '1.4') {
      for (const refused of [old, company]) {
        expect([refused.status, errorCodes(refused), refused.body.errors[0].message]).toEqual([400, ['intercom_version_invalid'], UNAVAILABLE]);
      }
      expect(byModel.status).toBe(200);
      expect(byModel.body.data_attributes.every((a: { model: string }) => a.model === 'company')).toBe(true);
      expect(byModel.body.data_attributes.map((a: { name: string }) => a.name)).toContain('company_id');
      expect([...types]).toEqual(['admin']);
    } else {
      expect([old.status, company.status]).toEqual([200, 200]);
      expect(old.body.data_attributes.some((a: object) => 'model' in a)).toBe(false);
      expect([byModel.status, errorCodes(byModel), byModel.body.errors[0].message]).toEqual([400, ['intercom_version_invalid'], UNAVAILABLE]);
      expect([...types].sort()).toEqual(['admin', 'team']);
    }
  });

  it('1.4 needs a valid model', async () => {
    await expectRejected(m, 'GET', '/data_attributes', at('1.4'), 400, ['parameter_not_found']);
    await expectRejected(m, 'GET', '/data_attributes?model=contact', at('1.4'), 400, ['parameter_invalid']);
  });
});

describe('paths a version does not have', () => {
  it('a path no version has: 404 not_found; a later version\'s path: 400 intercom_version_invalid', async () => {
    const unknown = await m.call('GET', '/no_such_thing');
    expect([unknown.status, errorCodes(unknown), unknown.body.errors[0].message]).toEqual([404, ['not_found'], 'The requested resource does not exist; check your path and try again']);
    for (const [method, path] of [['POST', '/conversations'], ['POST', '/contacts/search'], ['GET', `/companies/x/contacts`], ['PUT', '/data_attributes/1'], ['POST', '/customers/search']] as const) {
      const res = await expectRejected(m, method, path, method === 'GET' ? {} : { body: {} }, 400, ['intercom_version_invalid']);
      expect(res.body.errors[0].message).toBe(UNAVAILABLE);
    }
  });
});

describe('the OpenAPI document per version', () => {
  it('marks each operation with x-api-versions and serves one version\'s document', async () => {
    const all = (await m.call('GET', '/openapi.json')).body;
    expect(all.paths['/data_attributes/customer'].get['x-api-versions']).toEqual(['1.0', '1.1', '1.2', '1.3']);
    expect(all.paths['/data_attributes'].get['x-api-versions']).toEqual(['1.4', 'Unstable']);
    expect(all.paths['/users'].get['x-api-versions']).toEqual([...API_VERSIONS, 'Unstable']);
    // A `|` inside a cell is escaped, so the 1.4 row stays one row of the table the docs page draws.
    expect(all.info.description).toContain('`GET /data_attributes?model=customer\\|company`');
    const rows = (all.info.description as string).split('\n').filter((l) => l.startsWith('| 1.4 |'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.replace(/\\\|/g, '').split('|')).toHaveLength(4);
    expect(all.paths['/__admin/reset'].post['x-api-versions']).toBeUndefined();
    expect(all.info.description).toContain('| 1.0 (default) |');

    const v14 = (await m.call('GET', '/openapi.json?version=1.4')).body;
    expect(v14.paths['/data_attributes/customer']).toBeUndefined();
    expect(v14.paths['/data_attributes'].get.operationId).toBe('listDataAttributes');
    expect(v14.info.description).toContain('This document is for API version 1.4');
    const v10 = (await m.call('GET', '/openapi.yaml?version=1.0')).text;
    expect(v10).not.toContain('listDataAttributes');

    const bad = await m.call('GET', '/openapi.json?version=9');
    expect([bad.status, errorCodes(bad)]).toEqual([400, ['intercom_version_invalid']]);
    const page = await m.call('GET', '/docs?version=1.4');
    expect(page.text).toContain('url: "/openapi.json?version=1.4"');
    expect(page.text).toContain('<option value="1.4" selected>1.4</option>');
  });
});
