import { describe, expect, it } from 'vitest';
import { companySchema } from '../../../src/resources/companies/shapes.js';
import { planId } from '../../../src/resources/companies/view.js';
import { userListSchema } from '../../../src/resources/customers/shapes.js';
import type { Schema } from '../../../src/schemas/json-schema.js';
import { validate } from '../../../src/schemas/validate.js';
import { mock, TEST_NOW, type CallResult, type TestMock, expectRejected } from '../../helpers.js';
import { ACME, ADA, INITECH, LEAD, LINUS } from '../../fixture-ids.js';

const shaped = (schema: Schema, body: unknown) => expect(validate(schema, body)).toEqual([]);
const ids = (body: { users: { id: string }[] }) => body.users.map((u) => u.id);

const expectError = (m: TestMock, method: string, path: string, status: number, codes: string[], body?: unknown) =>
  expectRejected(m, method, path, body === undefined ? {} : { body }, status, codes);

describe('GET /companies/{id}', () => {
  it('returns the company with plan, tags, segments and a live user_count', async () => {
    const m = mock();
    const res = await m.call('GET', `/companies/${ACME}`);
    expect(res.status).toBe(200);
    shaped(companySchema, res.body);
    expect(res.body).toMatchObject({
      type: 'company',
      id: ACME,
      company_id: 'acme',
      name: 'Acme Corp',
      remote_created_at: 1722297600,
      monthly_spend: 1250, // the fixture says 1250.5: a whole number on the wire
      session_count: 340,
      size: 240,
      website: 'https://acme.example.com',
      industry: 'Manufacturing',
      plan: { type: 'plan', name: 'enterprise' },
      custom_attributes: {},
    });
    expect(res.body.tags.tags.map((t: { name: string }) => t.name)).toEqual(['Enterprise', 'VIP']);
    expect(res.body.segments).toEqual({ type: 'segment.list', segments: [{ type: 'segment', id: '5714dd359a3fd47136000903', name: 'Enterprise accounts' }] });
    const members = (await m.call('GET', `/companies/${ACME}/users?per_page=60`)).body.total_count;
    expect(res.body.user_count).toBe(members);
  });

  it('answers 404 company_not_found for an unknown id', async () => {
    const m = mock();
    await expectError(m, 'GET', '/companies/nope', 404, ['company_not_found']);
  });
});

describe('GET /companies/{id}/users', () => {
  it('lists users and leads (type contact) in join order with total_count and pages', async () => {
    const m = mock();
    const res = await m.call('GET', `/companies/${INITECH}/users`);
    expect(res.status).toBe(200);
    shaped(userListSchema, res.body);
    expect(res.body.type).toBe('user.list');
    const listed = ids(res.body);
    expect(listed).toContain(LINUS);
    expect(listed).toContain(LEAD);
    // Seeded members joined in creation order, oldest first.
    const created = res.body.users.map((u: { created_at: number }) => u.created_at);
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(res.body.users[listed.indexOf(LEAD)].type).toBe('contact');
    expect(res.body.total_count).toBe(res.body.users.length);
    expect(res.body.pages).toEqual({ type: 'pages', page: 1, per_page: 50, total_pages: 1, next: null });
  });

  it('pages with per_page and an absolute next URL from the request origin, absent on the last page', async () => {
    const m = mock({ guard: { allowedHosts: ['mock.example.org'] } });
    const first = await m.call('GET', `https://mock.example.org:8443/companies/${ACME}/users?per_page=2`);
    expect(first.body.pages.next).toBe(`https://mock.example.org:8443/companies/${ACME}/users?per_page=2&page=2`);
    const all: string[] = [];
    let url: string | undefined = `/companies/${ACME}/users?per_page=2`;
    let pages = 0;
    while (url) {
      const res: CallResult = await m.call('GET', url);
      all.push(...ids(res.body));
      url = res.body.pages.next;
      pages++;
    }
    expect(all).toHaveLength(first.body.total_count);
    expect(pages).toBe(first.body.pages.total_pages);
  });

  it('shows a user attached through POST /users at once', async () => {
    const m = mock();
    const before = (await m.call('GET', `/companies/${INITECH}/users`)).body.total_count;
    await m.call('POST', '/users', { body: { user_id: 'ada-1', companies: [{ company_id: 'initech' }] } });
    const after = (await m.call('GET', `/companies/${INITECH}/users`)).body;
    expect(after.total_count).toBe(before + 1);
    expect(ids(after)).toContain(ADA);
    expect((await m.call('GET', `/companies/${INITECH}`)).body.user_count).toBe(before + 1);
  });

  it('answers 404 company_not_found for an unknown company', async () => {
    const m = mock();
    await expectError(m, 'GET', '/companies/nope/users', 404, ['company_not_found']);
  });

  for (const query of ['per_page=61', 'per_page=0', 'page=0', 'page=x']) {
    it(`answers 400 parameter_invalid for ${query}`, async () => {
      const m = mock();
      await expectError(m, 'GET', `/companies/${ACME}/users?${query}`, 400, ['parameter_invalid']);
    });
  }
});

describe('GET /companies', () => {
  it('with company_id and type=user lists the same users as /companies/{id}/users', async () => {
    const m = mock();
    const res = await m.call('GET', '/companies?company_id=acme&type=user&per_page=3');
    expect(res.status).toBe(200);
    shaped(userListSchema, res.body);
    const direct = await m.call('GET', `/companies/${ACME}/users?per_page=3`);
    expect(ids(res.body)).toEqual(ids(direct.body));
    expect(res.body.pages.next).toBe('http://localhost/companies?company_id=acme&type=user&per_page=3&page=2');
  });

  it('without type returns the company itself', async () => {
    const m = mock();
    const res = await m.call('GET', '/companies?company_id=globex');
    expect(res.status).toBe(200);
    shaped(companySchema, res.body);
    expect(res.body).toMatchObject({ type: 'company', company_id: 'globex', name: 'Globex', plan: { type: 'plan', name: 'pro' } });
  });

  it('answers 400 bad_request for a type other than user', async () => {
    const m = mock();
    const res = await expectError(m, 'GET', '/companies?company_id=acme&type=segment', 400, ['bad_request']);
    expect(res.body.errors[0].field).toBe('type');
  });

  it('answers 400 parameter_not_found without company_id', async () => {
    const m = mock();
    const res = await expectError(m, 'GET', '/companies?type=user', 400, ['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('company_id');
  });

  it('answers 404 company_not_found for an unknown company_id', async () => {
    const m = mock();
    await expectError(m, 'GET', '/companies?company_id=nope&type=user', 404, ['company_not_found']);
  });
});

describe('POST /companies', () => {
  it('creates a company from a new company_id with the exact wire shape', async () => {
    const m = mock();
    const res = await m.call('POST', '/companies', {
      body: { company_id: 'hooli', name: 'Hooli', monthly_spend: 10, plan: 'free', size: 3, website: 'https://hooli.example', industry: 'Tech', remote_created_at: 1_600_000_000, custom_attributes: { tier: 2 } },
    });
    expect(res.status).toBe(200);
    shaped(companySchema, res.body);
    expect(res.body).toEqual({
      type: 'company',
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      company_id: 'hooli',
      name: 'Hooli',
      remote_created_at: 1_600_000_000,
      created_at: TEST_NOW,
      updated_at: TEST_NOW,
      last_request_at: null,
      monthly_spend: 10,
      session_count: 0,
      user_count: 0,
      size: 3,
      website: 'https://hooli.example',
      industry: 'Tech',
      plan: { type: 'plan', id: planId('free'), name: 'free' },
      tags: { type: 'tag.list', tags: [] },
      segments: { type: 'segment.list', segments: [] },
      custom_attributes: { tier: 2 },
    });
    expect((await m.call('GET', `/companies/${res.body.id}`)).body).toEqual(res.body);
  });

  it('names a company by its company_id when no name is sent, and shows a missing plan as null', async () => {
    const m = mock();
    const res = await m.call('POST', '/companies', { body: { company_id: 42 } });
    expect(res.body).toMatchObject({ company_id: '42', name: '42', plan: null });
  });

  it('updates only the members sent, keeping the id', async () => {
    const m = mock();
    const res = await m.call('POST', '/companies', { body: { company_id: 'acme', monthly_spend: 1, custom_attributes: { region: 'EU' } } });
    expect(res.body).toMatchObject({ id: ACME, name: 'Acme Corp', monthly_spend: 1, size: 240, custom_attributes: { region: 'EU' }, updated_at: TEST_NOW });
  });

  it('answers 400 parameter_not_found without company_id, id or name, changing nothing', async () => {
    const m = mock();
    // A name alone names the company (test/http/warnings.test.ts); without one nothing does.
    await expectError(m, 'POST', '/companies', 400, ['parameter_not_found'], { website: 'https://nameless.example' });
  });

  it('applies the custom attribute rules, naming the field, changing nothing', async () => {
    const m = mock();
    const res = await expectError(m, 'POST', '/companies', 400, ['parameter_invalid'], { company_id: 'acme', name: 'Renamed', custom_attributes: { long: 'x'.repeat(256) } });
    expect(res.body.errors[0].field).toBe('custom_attributes.long');
  });

  it('answers 400 parameter_invalid for a wrongly typed member', async () => {
    const m = mock();
    const res = await expectError(m, 'POST', '/companies', 400, ['parameter_invalid'], { company_id: 'acme', size: 'big' });
    expect(res.body.errors[0].field).toBe('size');
  });
});

describe('a company\'s plan', () => {
  it('has a numeric string id, the same for every company with that plan and another for another plan', async () => {
    const m = mock();
    const a = (await m.call('POST', '/companies', { body: { company_id: 'p1', plan: 'pro' } })).body.plan;
    const b = (await m.call('POST', '/companies', { body: { company_id: 'p2', plan: 'pro' } })).body.plan;
    const c = (await m.call('POST', '/companies', { body: { company_id: 'p3', plan: 'free' } })).body.plan;
    expect(a).toEqual({ type: 'plan', id: expect.stringMatching(/^[0-9]{6}$/), name: 'pro' });
    expect(b.id).toBe(a.id);
    expect(c.id).not.toBe(a.id);
    expect((await mock().call('POST', '/companies', { body: { company_id: 'p4', plan: 'pro' } })).body.plan.id).toBe(a.id);
  });
});
