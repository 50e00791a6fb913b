// A customer write changes what it sends and nothing else: every attribute not sent, and every
// flag sent as false, leaves the stored record as it was, as GET and the state export see it.

import { describe, expect, it } from 'vitest';
import { expectRejected, mock, TEST_NOW, type TestMock } from '../helpers.js';
import { ADA, GRACE, LEAD, VISITOR } from '../fixture-ids.js';

const get = async (m: TestMock, path: string) => (await m.call('GET', path)).body;
const exported = async (m: TestMock, id: string) =>
  JSON.parse((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).customers.find((c: { id: string }) => c.id === id);

describe('POST /users changes only what it sends', () => {
  it('a name alone: every other attribute as it was, updated_at now', async () => {
    const m = mock();
    const before = await get(m, `/users/${ADA}`);
    const storedBefore = await exported(m, ADA);
    const res = await m.call('POST', '/users', { body: { user_id: 'ada-1', name: 'Ada King' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, name: 'Ada King', updated_at: TEST_NOW });
    expect(await get(m, `/users/${ADA}`)).toEqual(res.body);
    expect(await exported(m, ADA)).toEqual({ ...storedBefore, name: 'Ada King', updated_at: TEST_NOW });
  });

  it('flags sent as false: no session counted, last_request_at kept, unsubscribed set to false', async () => {
    const m = mock();
    const before = await get(m, `/users/${GRACE}`);
    const res = await m.call('POST', '/users', { body: { user_id: 'grace-2', new_session: false, update_last_request_at: false, unsubscribed_from_emails: false } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, unsubscribed_from_emails: false, updated_at: TEST_NOW });
    expect(res.body.session_count).toBe(before.session_count);
  });

  it('every writable attribute at once, each landing in its own field', async () => {
    const m = mock();
    const body = {
      user_id: 'ada-1',
      phone: '+44 20 0000',
      signed_up_at: 1_600_000_001,
      last_request_at: 1_600_000_002,
      remote_created_at: 1_600_000_003,
      last_seen_user_agent: 'agent/2',
      unsubscribed_from_emails: true,
    };
    const res = await m.call('POST', '/users', { body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      phone: '+44 20 0000',
      signed_up_at: 1_600_000_001,
      last_request_at: 1_600_000_002,
      remote_created_at: 1_600_000_003,
      user_agent_data: 'agent/2',
      unsubscribed_from_emails: true,
    });
    expect(await exported(m, ADA)).toMatchObject({ last_seen_ip: (await exported(mock(), ADA)).last_seen_ip });
  });

  it('null clears a nullable attribute', async () => {
    const m = mock();
    const res = await m.call('POST', '/users', { body: { user_id: 'ada-1', phone: null, name: null, signed_up_at: null } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ phone: null, name: null, signed_up_at: null });
  });

  it('update_last_request_at wins over a last_request_at sent with it', async () => {
    const m = mock();
    const res = await m.call('POST', '/users', { body: { user_id: 'ada-1', last_request_at: 1_600_000_000, update_last_request_at: true } });
    expect(res.body.last_request_at).toBe(TEST_NOW);
  });
});

describe('POST /contacts: what only users have', () => {
  it('accepts signed_up_at null and new_session false on a lead, changing nothing else', async () => {
    const m = mock();
    const before = await get(m, `/contacts/${LEAD}`);
    const res = await m.call('POST', '/contacts', { body: { id: LEAD, signed_up_at: null, new_session: false } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, updated_at: TEST_NOW });
  });

  it('refuses signed_up_at and new_session together with both problems, changing nothing', async () => {
    const m = mock();
    const res = await expectRejected(m, 'POST', '/contacts', { body: { id: LEAD, signed_up_at: 1_600_000_000, new_session: true } }, 400, ['parameter_invalid', 'parameter_invalid']);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['signed_up_at', 'new_session']);
    const fresh = await expectRejected(m, 'POST', '/contacts', { body: { signed_up_at: 1_600_000_000 } }, 400, ['parameter_invalid']);
    expect(fresh.body.errors[0].field).toBe('signed_up_at');
  });
});

describe('problems and memberships across parts of one write', () => {
  it('reports a custom attribute problem and a company problem together, changing nothing', async () => {
    const m = mock();
    const res = await expectRejected(
      m,
      'POST',
      '/users',
      { body: { user_id: 'ada-1', custom_attributes: { bad: { nested: true } }, companies: [{ company_id: '' }] } },
      400,
      ['parameter_invalid', 'parameter_invalid'],
    );
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['custom_attributes.bad', 'companies[0].company_id']);
  });

  it('a visitor that joins a company is not one of the company\'s users', async () => {
    const m = mock();
    const acme = '5714dd359a3fd47136000101';
    const before = (await get(m, `/companies/${acme}/users`)).users.map((u: { id: string }) => u.id);
    const res = await m.call('PUT', '/visitors', { body: { id: VISITOR, companies: [{ company_id: 'acme' }] } });
    expect(res.status).toBe(200);
    expect(res.body.companies.companies.map((c: { id: string }) => c.id)).toEqual([acme]);
    expect((await get(m, `/companies/${acme}/users`)).users.map((u: { id: string }) => u.id)).toEqual(before);
  });
});
