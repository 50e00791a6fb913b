// `generate` in a seed: capped by the app's record limits, and never reusing an identifier the
// document or the app already holds.

import { describe, expect, it } from 'vitest';
import { errorCodes, mock, stateText, type TestMock } from '../helpers.js';

const seed = (m: TestMock, doc: unknown, query = '') => m.call('POST', `/__admin/seed${query}`, { token: null, body: doc });
const state = async (m: TestMock, app = 'demo') => JSON.parse(await stateText(m, app)) as { customers: Customer[]; companies: { id: string; company_id: string }[] };
const bulk = (generate: unknown) => ({ app: { id: 'bulk', tokens: ['bulk-token'] }, admins: [{ id: '1', name: 'A', email: 'a@example.com' }], generate });

interface Customer {
  id: string;
  type: string;
  user_id: string | null;
  email: string | null;
}

const duplicates = (values: readonly (string | null)[]) => values.filter((v, i) => v !== null && values.indexOf(v) !== i);

describe('generate counts are capped by the app\'s record limits', () => {
  const limits = { customers: 400, companies: 300, parts: 1000 };

  for (const [generate, field, cap] of [
    [{ users: 401 }, 'generate.users', 400],
    [{ users: 200, leads: 150, visitors: 51 }, 'generate.visitors', 400],
    [{ companies: 301 }, 'generate.companies', 300],
    [{ conversations: 1001 }, 'generate.conversations', 1000],
    [{ conversations: 10, parts: { c1: 991 } }, 'generate.parts.c1', 1000],
  ] as const) {
    it(`refuses ${JSON.stringify(generate)} with 400 parameter_invalid on ${field}, changing nothing`, async () => {
      const m = mock({ limits });
      const before = await stateText(m);
      const health = (await m.call('GET', '/__admin/health', { token: null })).body;
      for (const [doc, query] of [[bulk(generate), ''], [{ app: { id: 'demo', tokens: ['demo-token'] }, generate }, '?mode=merge']] as const) {
        const res = await seed(m, doc, query);
        expect(res.status).toBe(400);
        expect(errorCodes(res)).toEqual(['parameter_invalid']);
        expect(res.body.errors[0].field).toBe(field);
        expect(res.body.errors[0].message).toContain(`at most ${cap}`);
      }
      expect(await stateText(m)).toBe(before);
      expect((await m.call('GET', '/__admin/health', { token: null })).body).toEqual(health);
    });
  }

  it('accepts counts at the limits', async () => {
    const m = mock({ limits });
    const res = await seed(m, bulk({ users: 200, leads: 150, visitors: 50, companies: 300 }));
    expect(res.status).toBe(200);
    expect(res.body.counts).toMatchObject({ customers: 400, companies: 300 });
  });

  it('refuses a million generated users at once under the default limits, before generating any', async () => {
    const m = mock();
    const res = await seed(m, bulk({ users: 1_000_000 }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'parameter_invalid', field: 'generate.users' });
    expect(res.body.errors[0].message).toContain('at most 200000 customers');
    expect((await m.call('GET', '/__admin/health', { token: null })).body.apps).not.toContain('bulk');
  });

  it('holds start-up fixtures to the same caps', () => {
    expect(() => mock({ limits: { customers: 100 } })).toThrow(/demo\.json: generate\.users: at most 100 customers/);
  });
});

describe('generated identifiers never collide', () => {
  it('merges generated users, leads and companies into an app that already holds generated ones, twice', async () => {
    const m = mock();
    const before = await state(m);
    const doc = { app: { id: 'demo', tokens: ['demo-token'] }, generate: { users: 3, leads: 2, companies: 2 } };
    for (let round = 1; round <= 2; round++) {
      const res = await seed(m, doc, '?mode=merge');
      expect(res.status).toBe(200);
      expect(res.body.counts.customers).toBe(before.customers.length + 5 * round);
      expect(res.body.counts.companies).toBe(before.companies.length + 2 * round);
    }
    const after = await state(m);
    expect(duplicates(after.customers.map((c) => c.id))).toEqual([]);
    expect(duplicates(after.customers.map((c) => c.user_id))).toEqual([]);
    // The fixtures share one email on purpose; generated ones are new and unique.
    const earlierEmails = new Set(before.customers.map((c) => c.email));
    const added = after.customers.filter((c) => !before.customers.some((b) => b.id === c.id));
    expect(added).toHaveLength(10);
    expect(added.filter((c) => earlierEmails.has(c.email))).toEqual([]);
    expect(duplicates(added.map((c) => c.email))).toEqual([]);
    expect(duplicates(after.companies.map((c) => c.company_id))).toEqual([]);
    const genUsers = after.customers.filter((c) => c.user_id?.startsWith('gen-user-')).map((c) => Number(c.user_id!.slice(9)));
    expect(Math.max(...genUsers)).toBe(126);
    expect(after.companies.map((c) => c.company_id)).toEqual(expect.arrayContaining(['gen-company-21', 'gen-company-24']));
    // Every earlier record is still there, unchanged.
    for (const c of before.customers) expect(after.customers).toContainEqual(c);
    // The merged state exports and seeds back as it is.
    const exported = await stateText(m);
    expect((await seed(m, JSON.parse(exported))).status).toBe(200);
    expect(await stateText(m)).toBe(exported);
  });

  it('skips identifiers the document itself holds', async () => {
    const m = mock();
    const doc = {
      ...bulk({ users: 2, companies: 2 }),
      companies: [{ id: 'c-own', company_id: 'gen-company-1' }],
      customers: [{ id: 'u-own', user_id: 'gen-user-1', email: 'someone@example.com' }],
    };
    const res = await seed(m, doc);
    expect(res.status).toBe(200);
    const after = await state(m, 'bulk');
    expect(after.customers.map((c) => c.user_id).sort()).toEqual(['gen-user-1', 'gen-user-2', 'gen-user-3']);
    expect(after.companies.map((c) => c.company_id).sort()).toEqual(['gen-company-1', 'gen-company-2', 'gen-company-3']);
  });
});

describe('merges stay within the record limits', () => {
  const limits = { customers: 400, companies: 300, parts: 1000 };
  const merge = (m: TestMock, doc: unknown) => seed(m, doc, '?mode=merge');

  it('refuses the merge that would take the app past --max-customers, however the customers come, and changes nothing', async () => {
    const m = mock({ limits });
    expect((await seed(m, bulk({ users: 300 }))).status).toBe(200);
    const full = await merge(m, bulk({ users: 100 }));
    expect(full.status).toBe(200);
    expect(full.body.counts).toMatchObject({ customers: 400 });
    const before = await stateText(m, 'bulk');
    const generated = await merge(m, bulk({ leads: 1 }));
    expect(generated.status).toBe(400);
    expect(generated.body.errors[0]).toMatchObject({ code: 'parameter_invalid', field: 'generate.leads' });
    expect(generated.body.errors[0].message).toContain('401 customers: at most 400');
    const written = await merge(m, { ...bulk(undefined), customers: [{ id: '5714dd359a3fd47136ffff01', user_id: 'one-more' }] });
    expect(written.status).toBe(400);
    expect(written.body.errors[0]).toMatchObject({ code: 'parameter_invalid', field: 'customers' });
    expect(await stateText(m, 'bulk')).toBe(before);
  });

  it('lets a merge replace records by id at the limit, since the total does not grow', async () => {
    const m = mock({ limits });
    expect((await seed(m, bulk({ users: 400 }))).status).toBe(200);
    const one = (await state(m, 'bulk')).customers[0] as Customer;
    const res = await merge(m, { ...bulk(undefined), customers: [{ id: one.id, user_id: 'renamed' }] });
    expect(res.status).toBe(200);
    expect(res.body.counts).toMatchObject({ customers: 400 });
  });
});

describe('a replace seed with ids=fresh', () => {
  it('generates records under ids the app never handed out', async () => {
    const m = mock();
    expect((await seed(m, bulk({ users: 3 }))).status).toBe(200);
    const first = (await state(m, 'bulk')).customers.map((c) => c.id);
    expect((await seed(m, bulk({ users: 3 }), '?ids=fresh')).status).toBe(200);
    const second = (await state(m, 'bulk')).customers.map((c) => c.id);
    expect(second).toHaveLength(3);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
  });
});
