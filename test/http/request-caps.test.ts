// Every list a request may carry has a cap (src/schemas/fields.ts): at the cap a request of distinct
// entries succeeds with exactly the state it asks for; one over is 400 parameter_invalid naming the
// member and the cap, and changes nothing.

import { describe, expect, it } from 'vitest';
import {
  MAX_ATTACHMENTS,
  MAX_COMPANIES_PER_WRITE,
  MAX_CONVERSATION_CUSTOMERS,
  MAX_CUSTOM_ATTRIBUTES,
  MAX_TAG_TARGETS,
} from '../../src/schemas/fields.js';
import type { FixtureInput } from '../../src/fixtures/fixture-doc.js';
import { ADA, GROUP } from '../fixture-ids.js';
import { expectRejected, mock, type TestMock } from '../helpers.js';

const hex = (prefix: string, n: number) => `${prefix}${n.toString(16).padStart(24 - prefix.length, '0')}`;

/** Adds records to the demo app (merge), so expectRejected's state comparison covers them. */
function withDemoRecords(m: TestMock, records: Omit<FixtureInput, 'app'>): void {
  m.store.seedApp({ app: { id: 'demo', name: 'Demo app', tokens: ['demo-token'] }, ...records }, 'merge');
}

/** Asserts the single error of a refused request: its field, and that the message names the cap. */
function refusedFor(res: { body: { errors: { field?: string; message: string }[] } }, field: string, cap: number): void {
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0]?.field).toBe(field);
  expect(res.body.errors[0]?.message).toContain(String(cap));
}

const companies = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ company_id: `capped-${from + i}` }));
const attributes = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`attr_${i}`, i]));

describe('companies per customer write', () => {
  it(`takes ${MAX_COMPANIES_PER_WRITE} distinct companies, each created and joined once, in order`, async () => {
    const m = mock();
    const res = await m.call('POST', '/users', { body: { user_id: 'capped', companies: companies(MAX_COMPANIES_PER_WRITE) } });
    expect(res.status).toBe(200);
    expect(res.body.companies.companies.map((c: { company_id: string }) => c.company_id)).toEqual(companies(MAX_COMPANIES_PER_WRITE).map((c) => c.company_id));
    const last = await m.call('GET', `/companies?company_id=capped-${MAX_COMPANIES_PER_WRITE - 1}`);
    expect(last.body.user_count).toBe(1);
  });

  for (const [method, path, extra] of [
    ['POST', '/users', { user_id: 'capped' }],
    ['POST', '/contacts', {}],
    ['POST', '/visitors', { user_id: 'visitor-uuid-capped' }],
  ] as const) {
    it(`${method} ${path}: ${MAX_COMPANIES_PER_WRITE + 1} is 400 parameter_invalid on companies, nothing written`, async () => {
      const m = mock();
      const res = await expectRejected(m, method, path, { body: { ...extra, companies: companies(MAX_COMPANIES_PER_WRITE + 1) } }, 400, ['parameter_invalid']);
      refusedFor(res, 'companies', MAX_COMPANIES_PER_WRITE);
    });
  }
});

describe('custom attributes per request', () => {
  it(`${MAX_CUSTOM_ATTRIBUTES + 1} in one customer write is 400 parameter_invalid on custom_attributes`, async () => {
    const m = mock();
    const res = await expectRejected(m, 'POST', '/users', { body: { user_id: 'attrs', custom_attributes: attributes(MAX_CUSTOM_ATTRIBUTES + 1) } }, 400, ['parameter_invalid']);
    refusedFor(res, 'custom_attributes', MAX_CUSTOM_ATTRIBUTES);
  });

  it(`${MAX_CUSTOM_ATTRIBUTES + 1} on a company of a customer write is refused on that company`, async () => {
    const m = mock();
    const body = { user_id: 'attrs', companies: [{ company_id: 'acme' }, { company_id: 'attrs-co', custom_attributes: attributes(MAX_CUSTOM_ATTRIBUTES + 1) }] };
    const res = await expectRejected(m, 'POST', '/users', { body }, 400, ['parameter_invalid']);
    refusedFor(res, 'companies[1].custom_attributes', MAX_CUSTOM_ATTRIBUTES);
  });

  it(`${MAX_CUSTOM_ATTRIBUTES + 1} on POST /companies is refused; ${MAX_CUSTOM_ATTRIBUTES} are stored`, async () => {
    const m = mock();
    const res = await expectRejected(m, 'POST', '/companies', { body: { company_id: 'attrs-co', custom_attributes: attributes(MAX_CUSTOM_ATTRIBUTES + 1) } }, 400, ['parameter_invalid']);
    refusedFor(res, 'custom_attributes', MAX_CUSTOM_ATTRIBUTES);
    const ok = await m.call('POST', '/companies', { body: { company_id: 'attrs-co', custom_attributes: attributes(MAX_CUSTOM_ATTRIBUTES) } });
    expect(ok.status).toBe(200);
    expect(ok.body.custom_attributes).toEqual(attributes(MAX_CUSTOM_ATTRIBUTES));
  });
});

describe('users and companies per POST /tags', () => {
  const users = Array.from({ length: MAX_TAG_TARGETS + 1 }, (_, i) => ({ type: 'user' as const, id: hex('b0', i), user_id: `tagged-${i}` }));
  const coms = Array.from({ length: MAX_TAG_TARGETS + 1 }, (_, i) => ({ id: hex('d0', i), company_id: `tagged-co-${i}` }));

  it(`tags ${MAX_TAG_TARGETS} distinct users and ${MAX_TAG_TARGETS} distinct companies in one request`, async () => {
    const m = mock();
    withDemoRecords(m, { customers: users, companies: coms });
    const body = { name: 'bulk', users: users.slice(0, MAX_TAG_TARGETS).map((u) => ({ user_id: u.user_id })), companies: coms.slice(0, MAX_TAG_TARGETS).map((c) => ({ id: c.id })) };
    const res = await m.call('POST', '/tags', { body });
    expect(res.status).toBe(200);
    const byUser = await m.call('GET', '/counts?type=user&count=tag');
    expect(byUser.body.user.tag).toContainEqual({ bulk: MAX_TAG_TARGETS });
    const counts = await m.call('GET', '/counts?type=company&count=tag&per_page=60');
    expect(counts.body.company.tag).toContainEqual({ bulk: MAX_TAG_TARGETS });
  });

  it(`${MAX_TAG_TARGETS + 1} users is 400 parameter_invalid on users, nothing tagged or created`, async () => {
    const m = mock();
    withDemoRecords(m, { customers: users });
    const res = await expectRejected(m, 'POST', '/tags', { body: { name: 'bulk', users: users.map((u) => ({ id: u.id })) } }, 400, ['parameter_invalid']);
    refusedFor(res, 'users', MAX_TAG_TARGETS);
  });

  it(`${MAX_TAG_TARGETS + 1} companies is 400 parameter_invalid on companies, nothing tagged or created`, async () => {
    const m = mock();
    withDemoRecords(m, { companies: coms });
    const res = await expectRejected(m, 'POST', '/tags', { body: { name: 'bulk', companies: coms.map((c) => ({ company_id: c.company_id })) } }, 400, ['parameter_invalid']);
    refusedFor(res, 'companies', MAX_TAG_TARGETS);
  });
});

describe('attachments per reply', () => {
  it(`${MAX_ATTACHMENTS + 1} attachment_urls is 400 parameter_invalid on attachment_urls`, async () => {
    const m = mock();
    const urls = Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => `https://files.example.com/${i}.png`);
    const body = { type: 'admin', admin_id: '814860', message_type: 'comment', body: 'see attached', attachment_urls: urls };
    const res = await expectRejected(m, 'POST', `/conversations/${GROUP}/reply`, { body }, 400, ['parameter_invalid']);
    refusedFor(res, 'attachment_urls', MAX_ATTACHMENTS);
  });
});

describe('customers per conversation', () => {
  // With emails: a customer added by user_id needs one.
  const people = Array.from({ length: MAX_CONVERSATION_CUSTOMERS + 1 }, (_, i) => ({ type: 'user' as const, id: hex('e0', i), user_id: `member-${i}`, email: `member-${i}@example.com` }));
  const FULL = hex('f0', 1);

  it(`adds the ${MAX_CONVERSATION_CUSTOMERS}th customer, then refuses one more with 400 parameter_invalid on customer`, async () => {
    const m = mock();
    const customers = people.slice(0, MAX_CONVERSATION_CUSTOMERS - 1).map((p) => p.id);
    withDemoRecords(m, { customers: people, conversations: [{ id: FULL, customers, author: { type: 'user', id: ADA } }] });
    const add = (n: number) => ({ body: { admin_id: '814860', customer: { user_id: `member-${n}` } } });
    const ok = await m.call('POST', `/conversations/${FULL}/customers`, add(MAX_CONVERSATION_CUSTOMERS - 1));
    expect(ok.status).toBe(200);
    expect(ok.body.customers).toHaveLength(MAX_CONVERSATION_CUSTOMERS);
    const res = await expectRejected(m, 'POST', `/conversations/${FULL}/customers`, add(MAX_CONVERSATION_CUSTOMERS), 400, ['parameter_invalid']);
    refusedFor(res, 'customer', MAX_CONVERSATION_CUSTOMERS);
    // A customer already there still changes nothing and answers 200.
    expect((await m.call('POST', `/conversations/${FULL}/customers`, add(0))).status).toBe(200);
  });

  it(`a fixture conversation with ${MAX_CONVERSATION_CUSTOMERS + 1} customers is refused naming the member`, async () => {
    const m = mock();
    const doc = { app: { id: 'crowd', tokens: ['crowd-token'] }, customers: people, conversations: [{ id: FULL, customers: people.map((p) => p.id), author: { type: 'admin', id: '1' } }], admins: [{ id: '1', name: 'A', email: 'a@example.com' }] };
    const res = await m.call('POST', '/__admin/seed', { token: null, body: doc });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('parameter_invalid');
    expect(res.body.errors[0].field).toBe('conversations[0].customers');
    expect((await m.call('GET', '/__admin/state?app=crowd', { token: null })).status).toBe(404);
  });
});
