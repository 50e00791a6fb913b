// API version 1.4's custom-attribute changes (README "API versions"): a write may create a custom
// attribute only under a name of letters, digits, `_`, `-` and currency symbols, and customer views
// leave out archived custom attributes. 1.0–1.3 keep the earlier behaviour; both are checked under
// every version.

import { describe, expect, it } from 'vitest';
import { API_VERSIONS, type ApiVersion } from '../../src/core/versions.js';
import { ACME, ADA, LEAD, VISITOR } from '../fixture-ids.js';
import { errorCodes, expectRejected, mock, stateText } from '../helpers.js';

const at = (version: ApiVersion) => ({ 'intercom-version': version });
const is14 = (v: ApiVersion) => v === '1.4';

describe('1.4: names of new custom attributes', () => {
  const writes: [string, string, (attrs: Record<string, unknown>) => Record<string, unknown>][] = [
    ['POST', '/users', (custom_attributes) => ({ user_id: 'ada-1', custom_attributes })],
    ['POST', '/contacts', (custom_attributes) => ({ id: LEAD, custom_attributes })],
    ['PUT', `/contacts/${LEAD}`, (custom_attributes) => ({ custom_attributes })],
    ['PUT', '/visitors', (custom_attributes) => ({ id: VISITOR, custom_attributes })],
    ['PUT', `/visitors/${VISITOR}`, (custom_attributes) => ({ custom_attributes })],
    ['POST', '/companies', (custom_attributes) => ({ company_id: 'acme', custom_attributes })],
  ];

  for (const [method, path, body] of writes) {
    it(`${method} ${path}: refused in 1.4 only, and the refusal changes nothing`, async () => {
      for (const version of API_VERSIONS) {
        const m = mock();
        const sent = { headers: at(version), body: body({ 'bad name!': 1 }) };
        if (is14(version)) {
          const res = await expectRejected(m, method, path, sent, 400, ['parameter_invalid']);
          expect(res.body.errors[0].field).toBe('custom_attributes.bad name!');
          expect(res.body.errors[0].message).toBe(
            'Custom attribute name "bad name!" is not allowed in API version 1.4: a new custom attribute\'s name may only contain letters, digits, underscores, hyphens and currency symbols.',
          );
        } else {
          const res = await m.call(method, path, sent);
          expect(res.status, `${version} ${res.text.slice(0, 200)}`).toBe(200);
          expect(res.body.custom_attributes['bad name!']).toBe(1);
        }
      }
    });
  }

  it('allows letters and digits of any script, `_`, `-` and currency symbols', async () => {
    const m = mock();
    const custom_attributes = { 'plan-2': 'x', 'price_€': 1, 'größe': 2, '数量': 3, '£': 4, A9: 5 };
    const res = await m.call('POST', '/users', { headers: at('1.4'), body: { user_id: 'ada-1', custom_attributes } });
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    expect(res.body.custom_attributes).toMatchObject(custom_attributes);
    for (const bad of ['with space', 'dot.ted', 'a/b', 'emoji😀', 'quote"', 'tab\t']) {
      const refused = await expectRejected(m, 'POST', '/users', { headers: at('1.4'), body: { user_id: 'ada-1', custom_attributes: { ok_name: 1, [bad]: 1 } } }, 400, ['parameter_invalid']);
      expect(refused.body.errors[0].field).toBe(`custom_attributes.${bad}`);
    }
  });

  it('a name the app already has stays writable in 1.4, whatever it holds', async () => {
    const m = mock();
    expect((await m.call('POST', '/users', { headers: at('1.3'), body: { user_id: 'ada-1', custom_attributes: { 'odd name': 1 } } })).status).toBe(200);
    const res = await m.call('POST', '/users', { headers: at('1.4'), body: { user_id: 'grace-2', custom_attributes: { 'odd name': 2 } } });
    expect(res.status).toBe(200);
    expect(res.body.custom_attributes['odd name']).toBe(2);
  });

  it('company attributes are checked against the company registry, in company writes and in companies[] of a user write', async () => {
    const m = mock();
    // A customer attribute of that name does not make it a company one.
    await m.call('POST', '/users', { headers: at('1.3'), body: { user_id: 'ada-1', custom_attributes: { 'odd name': 1 } } });
    const viaUser = await expectRejected(
      m,
      'POST',
      '/users',
      { headers: at('1.4'), body: { user_id: 'ada-1', companies: [{ company_id: 'acme', custom_attributes: { fine: 1 } }, { company_id: 'globex', custom_attributes: { 'odd name': 1 } }] } },
      400,
      ['parameter_invalid'],
    );
    expect(viaUser.body.errors[0].field).toBe('companies[1].custom_attributes.odd name');
    await expectRejected(m, 'POST', '/companies', { headers: at('1.4'), body: { company_id: 'acme', custom_attributes: { 'odd name': 1 } } }, 400, ['parameter_invalid']);
    expect((await m.call('POST', '/companies', { headers: at('1.3'), body: { company_id: 'acme', custom_attributes: { 'odd name': 1 } } })).status).toBe(200);
    const now = await m.call('POST', '/companies', { headers: at('1.4'), body: { company_id: 'globex', custom_attributes: { 'odd name': 2 } } });
    expect(now.status).toBe(200);
  });

  it('only the writes that make attributes are checked, and only their own members', async () => {
    const m = mock();
    const bad = { 'bad name': 1 };
    // Members these operations do not read: the away body is open, a company body has no companies.
    const awayRes = await m.call('PUT', '/admins/814860/away', { headers: at('1.4'), body: { away_mode_enabled: true, away_mode_reassign: false, custom_attributes: bad } });
    expect(awayRes.status).toBe(200);
    const company = await m.call('POST', '/companies', { headers: at('1.4'), body: { company_id: 'acme', companies: [{ custom_attributes: bad }] } });
    expect(company.status).toBe(200);
  });

  it('the app\'s own version decides when no header is sent', async () => {
    const m = mock();
    const seeded = await m.call('POST', '/__admin/seed', { token: null, body: { app: { id: 'v14', tokens: ['v14-token'], api_version: '1.4' } } });
    expect(seeded.status).toBe(200);
    const res = await m.call('POST', '/users', { token: 'v14-token', body: { user_id: 'x', custom_attributes: { 'bad name': 1 } } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
  });

  it('bulk user items are not checked (they run as jobs, under no request\'s version)', async () => {
    const m = mock();
    const job = await m.call('POST', '/bulk/users', { headers: at('1.4'), body: { items: [{ method: 'post', data: { user_id: 'ada-1', custom_attributes: { 'bulk name': 1 } } }] } });
    expect(job.status, job.text.slice(0, 200)).toBeLessThan(300);
    await m.call('POST', '/__admin/jobs/run', { token: null });
    expect((await m.call('GET', `/users/${ADA}`, { headers: at('1.3') })).body.custom_attributes['bulk name']).toBe(1);
  });
});

describe('1.4: archived custom attributes left out of customer views', () => {
  /** legacy_score is archived in the demo fixture: given to a user, a lead and a visitor under 1.3. */
  async function withArchived() {
    const m = mock();
    const v13 = { headers: at('1.3') };
    expect((await m.call('POST', '/users', { ...v13, body: { user_id: 'ada-1', custom_attributes: { legacy_score: 1.5 } } })).status).toBe(200);
    expect((await m.call('PUT', `/contacts/${LEAD}`, { ...v13, body: { custom_attributes: { legacy_score: 2.5 } } })).status).toBe(200);
    expect((await m.call('PUT', `/visitors/${VISITOR}`, { ...v13, body: { custom_attributes: { legacy_score: 3.5 } } })).status).toBe(200);
    return m;
  }

  it('every customer answer hides them in 1.4 and shows them in 1.0–1.3', async () => {
    const m = await withArchived();
    const reads: [string, (body: any) => Record<string, unknown>[]][] = [
      [`/users/${ADA}`, (b) => [b.custom_attributes]],
      ['/users?user_id=ada-1', (b) => [b.custom_attributes]],
      ['/users?per_page=60', (b) => b.users.filter((u: any) => u.id === ADA).map((u: any) => u.custom_attributes)],
      [`/contacts/${LEAD}`, (b) => [b.custom_attributes]],
      ['/contacts?per_page=60', (b) => b.contacts.filter((c: any) => c.id === LEAD).map((c: any) => c.custom_attributes)],
      [`/visitors/${VISITOR}`, (b) => [b.custom_attributes]],
    ];
    // Twice round the versions, so a view cached by one version's read cannot leak into another's.
    for (const round of [1, 2]) {
      for (const version of API_VERSIONS) {
        for (const [path, pick] of reads) {
          const res = await m.call('GET', path, { headers: at(version) });
          expect(res.status, `${round} ${version} ${path}`).toBe(200);
          const shown = pick(res.body);
          expect(shown.length, path).toBe(1);
          expect('legacy_score' in (shown[0] as object), `${version} ${path}`).toBe(!is14(version));
        }
      }
    }
    // Attributes that are not archived are shown in 1.4.
    expect((await m.call('GET', `/users/${ADA}`, { headers: at('1.4') })).body.custom_attributes).toEqual({ plan_tier: 'enterprise', seats: 25, last_order_at: 1766361600, newsletter: true });
  });

  it('a write\'s answer hides them in 1.4, yet the value is stored', async () => {
    const m = await withArchived();
    const res = await m.call('POST', '/users', { headers: at('1.4'), body: { user_id: 'ada-1', custom_attributes: { legacy_score: 9, seats: 30 } } });
    expect(res.status).toBe(200);
    expect(res.body.custom_attributes).toEqual({ plan_tier: 'enterprise', seats: 30, last_order_at: 1766361600, newsletter: true });
    expect((await m.call('GET', `/users/${ADA}`, { headers: at('1.3') })).body.custom_attributes.legacy_score).toBe(9);
    const exported = JSON.parse(await stateText(m)) as { customers: { id: string; custom_attributes: Record<string, unknown> }[] };
    expect(exported.customers.find((c) => c.id === ADA)?.custom_attributes.legacy_score).toBe(9);
  });

  it('companies keep showing their attributes (the changelog names user responses only)', async () => {
    const m = mock();
    const res = await m.call('GET', `/companies/${ACME}`, { headers: at('1.4') });
    expect(res.status).toBe(200);
    const again = await m.call('GET', `/companies/${ACME}`, { headers: at('1.3') });
    expect(res.body.custom_attributes).toEqual(again.body.custom_attributes);
  });
});
