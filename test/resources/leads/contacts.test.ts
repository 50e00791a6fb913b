import { describe, expect, it } from 'vitest';
import { contactListSchema, customerSchema } from '../../../src/resources/customers/shapes.js';
import type { Schema } from '../../../src/schemas/json-schema.js';
import { validate } from '../../../src/schemas/validate.js';
import { errorCodes, mock, TEST_NOW, type TestMock, expectRejected } from '../../helpers.js';
import { ADA, LEAD, LEAD_USER_ID, VISITOR } from '../../fixture-ids.js';


const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const shaped = (schema: Schema, body: unknown) => expect(validate(schema, body)).toEqual([]);
const leadCount = async (m: TestMock) => (await m.call('GET', '/contacts?per_page=1')).body.total_count as number;

const rejects = (m: TestMock, body: unknown, status: number, codes: string[]) => expectRejected(m, 'POST', '/contacts', { body }, status, codes);

describe('POST /contacts', () => {
  it('creates a lead from no body at all: anonymous, UUID user_id, pseudonym, no sign-up, no sessions', async () => {
    const m = mock();
    const res = await m.call('POST', '/contacts');
    expect(res.status).toBe(200);
    shaped(customerSchema, res.body);
    expect(res.body).toMatchObject({ type: 'contact', anonymous: true, signed_up_at: null, session_count: 0, email: null, created_at: TEST_NOW });
    expect(res.body.user_id).toMatch(UUID);
    expect(res.body.pseudonym).toMatch(/^\S+( \S+)* \S+ from .+$/);
    expect(res.body.id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('creates a lead from an empty object', async () => {
    const m = mock();
    const before = await leadCount(m);
    const res = await m.call('POST', '/contacts', { body: {} });
    expect(res.status).toBe(200);
    expect(await leadCount(m)).toBe(before + 1);
  });

  it('gives each new lead its own id, user_id and a deterministic pseudonym', async () => {
    const a = mock();
    const b = mock();
    const a1 = (await a.call('POST', '/contacts')).body;
    const a2 = (await a.call('POST', '/contacts')).body;
    const b1 = (await b.call('POST', '/contacts')).body;
    expect(a1.id).not.toBe(a2.id);
    expect(a1.user_id).not.toBe(a2.user_id);
    expect(b1).toEqual(a1);
  });

  it('stores the accepted attributes of a user, email in lower case', async () => {
    const m = mock();
    const res = await m.call('POST', '/contacts', {
      body: { email: 'Lead.New@Example.com', name: 'New Lead', phone: '555', last_seen_user_agent: 'ua/1', custom_attributes: { source: 'ads' }, companies: [{ company_id: 'acme' }] },
    });
    expect(res.body).toMatchObject({ email: 'lead.new@example.com', name: 'New Lead', phone: '555', user_agent_data: 'ua/1', custom_attributes: { source: 'ads' } });
    expect(res.body.companies.companies[0].company_id).toBe('acme');
  });

  it('never lets the body set user_id on a new lead: an unknown user_id is 404 not_found', async () => {
    const m = mock();
    await rejects(m, { user_id: 'chosen-by-client', name: 'x' }, 404, ['not_found']);
  });

  it('updates the lead named by id instead of creating one', async () => {
    const m = mock();
    const before = await leadCount(m);
    const res = await m.call('POST', '/contacts', { body: { id: LEAD, name: 'Lena Renamed' } });
    expect(res.body).toMatchObject({ id: LEAD, user_id: LEAD_USER_ID, name: 'Lena Renamed', email: 'lead@example.com' });
    expect(await leadCount(m)).toBe(before);
  });

  it('updates the lead named by user_id, keeping that user_id', async () => {
    const m = mock();
    const res = await m.call('POST', '/contacts', { body: { user_id: LEAD_USER_ID, phone: '+44 1' } });
    expect(res.body).toMatchObject({ id: LEAD, user_id: LEAD_USER_ID, phone: '+44 1' });
  });

  it('answers 404 not_found for an id that is a user, not a lead', async () => {
    const m = mock();
    await rejects(m, { id: ADA, name: 'x' }, 404, ['not_found']);
  });

  it('answers 404 not_found for the user_id of a user', async () => {
    const m = mock();
    await rejects(m, { user_id: 'ada-1' }, 404, ['not_found']);
  });

  it('rejects signed_up_at with 400 parameter_invalid, changing nothing', async () => {
    const m = mock();
    const res = await rejects(m, { signed_up_at: 1_700_000_000 }, 400, ['parameter_invalid']);
    expect(res.body.errors[0]).toMatchObject({ field: 'signed_up_at' });
    expect(res.body.errors[0].message).toMatch(/leads/);
  });

  it('rejects new_session with 400 parameter_invalid, changing nothing', async () => {
    const m = mock();
    const res = await rejects(m, { id: LEAD, new_session: true }, 400, ['parameter_invalid']);
    expect(res.body.errors[0]).toMatchObject({ field: 'new_session' });
  });

  it('applies the custom attribute rules, changing nothing on a rejection', async () => {
    const m = mock();
    const res = await rejects(m, { custom_attributes: { nested: { a: 1 } } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('custom_attributes.nested');
  });

  it('fills location_data only once the job has run', async () => {
    const m = mock();
    const res = await m.call('POST', '/contacts', { body: { last_seen_ip: '4.4.4.4' } });
    expect(res.body.location_data).toEqual({ type: 'location_data' });
    m.clock.advance(m.store.jobDelaySeconds);
    expect((await m.call('GET', `/contacts/${res.body.id}`)).body.location_data.city_name).toEqual(expect.any(String));
  });
});

describe('GET /contacts/{id}', () => {
  it('returns a lead', async () => {
    const m = mock();
    const res = await m.call('GET', `/contacts/${LEAD}`);
    expect(res.status).toBe(200);
    shaped(customerSchema, res.body);
    expect(res.body).toMatchObject({ type: 'contact', id: LEAD, pseudonym: 'Azure Heron from Lisbon' });
  });

  for (const [what, id] of [['a user', ADA], ['a visitor', VISITOR], ['an unknown id', 'nope']]) {
    it(`answers 404 not_found for ${what}`, async () => {
      const m = mock();
      const res = await m.call('GET', `/contacts/${id}`);
      expect(res.status).toBe(404);
      expect(errorCodes(res)).toEqual(['not_found']);
    });
  }
});

describe('GET /contacts', () => {
  it('lists leads only, with total_count and pages', async () => {
    const m = mock();
    const res = await m.call('GET', '/contacts?per_page=10');
    expect(res.status).toBe(200);
    shaped(contactListSchema, res.body);
    expect(res.body.type).toBe('contact.list');
    expect(res.body.contacts).toHaveLength(10);
    expect(res.body.contacts.every((c: { type: string }) => c.type === 'contact')).toBe(true);
    expect(res.body.pages).toMatchObject({ page: 1, per_page: 10, total_pages: Math.ceil(res.body.total_count / 10) });
    expect(res.body.pages.next).toBe('http://localhost/contacts?per_page=10&page=2');
  });

  it('filters by email, case-insensitively', async () => {
    const m = mock();
    const res = await m.call('GET', '/contacts?email=LEAD@example.com');
    expect(res.body.total_count).toBe(1);
    expect(res.body.contacts[0].id).toBe(LEAD);
  });

  it('answers 400 parameter_invalid for per_page over 60', async () => {
    const m = mock();
    const res = await m.call('GET', '/contacts?per_page=61');
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
  });
});
