// `generate` in a merge seed at its edges (store/generate.ts): the app may already hold the very
// id, user_id or email the generator would make next (each test first asks a fresh app what those
// are), and the record limits are checked at their bounds and name the member that broke them.

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mock, stateText, type TestMock } from '../helpers.js';

const APP = { id: 'bulk', tokens: ['bulk-token'] };
const ADMINS = [{ id: '1', name: 'A', email: 'a@example.com' }];
const T = 1_700_000_000;
// A one-app fixture directory: small limits would refuse the default fixtures' bulk at start.
const FIXTURES = fileURLToPath(new URL('../golden/fixtures', import.meta.url));

interface Record_ {
  id: string;
  type: string;
  user_id: string | null;
  email: string | null;
}

const seed = (m: TestMock, body: unknown, mode = 'replace') => m.call('POST', `/__admin/seed?mode=${mode}`, { token: null, body });
const exported = async (m: TestMock) => JSON.parse(await stateText(m, 'bulk')) as { customers: Record_[]; archived_customers: Record_[]; companies: { id: string }[]; conversations: { id: string }[] };

/** An app seeded with `records`, then merged with two generated users: the customers afterwards. */
async function mergedOver(records: object): Promise<{ m: TestMock; generated: Record_[] }> {
  const m = mock();
  const res = await seed(m, { app: APP, admins: ADMINS, ...records });
  expect(res.status, res.text).toBe(200);
  const merged = await seed(m, { app: APP, generate: { users: 2 } }, 'merge');
  expect(merged.status, merged.text).toBe(200);
  return { m, generated: (await exported(m)).customers.filter((c) => c.user_id?.startsWith('gen-user-')) };
}

/** What the two generated users are when the app holds nothing. */
async function fresh(): Promise<[Record_, Record_]> {
  const { generated } = await mergedOver({});
  expect(generated).toHaveLength(2);
  return generated as [Record_, Record_];
}

describe('a merge\'s generated users skip what the app holds', () => {
  const holder = (id: string) => ({ id, user_id: 'holder', email: 'holder@example.com', created_at: T });
  for (const [kind, records] of [
    ['a live customer', (id: string) => ({ customers: [holder(id)] })],
    ['an archived customer', (id: string) => ({ archived_customers: [holder(id)] })],
    ['a company', (id: string) => ({ companies: [{ id, company_id: 'holder-co', name: 'Holder' }] })],
    ['a conversation', (id: string) => ({ customers: [holder('u00000000000000000000000a')], conversations: [{ id, customers: ['u00000000000000000000000a'], author: { type: 'user', id: 'u00000000000000000000000a' } }] })],
  ] as const) {
    it(`the object id ${kind} holds`, async () => {
      const [first, second] = await fresh();
      const { m, generated } = await mergedOver(records(first.id));
      expect(generated.map((c) => c.id)).toEqual([second.id, expect.not.stringMatching(new RegExp(`^(${first.id}|${second.id})$`))]);
      const state = await exported(m);
      const all = [...state.customers, ...state.archived_customers, ...state.companies, ...state.conversations].map((r) => r.id);
      expect(all.filter((id) => id === first.id)).toHaveLength(1);
    });
  }

  it('the user_id an archived user keeps', async () => {
    const { generated } = await mergedOver({ archived_customers: [{ id: 'u00000000000000000000000a', user_id: 'gen-user-1', email: 'gone@example.com', created_at: T }] });
    expect(generated.map((c) => c.user_id)).toEqual(['gen-user-2', 'gen-user-3']);
  });

  it('the email a live user holds', async () => {
    const [first, second] = await fresh();
    const email = first.email as string;
    const { generated } = await mergedOver({ customers: [{ id: 'u00000000000000000000000a', user_id: 'holder', email, created_at: T }] });
    expect(generated.map((c) => c.email)).toEqual([email.replace('@', '.user0@'), second.email]);
  });
});

describe('the record limits of a merge', () => {
  const limits = { customers: 400, companies: 3, parts: 10, notes: 2 };
  const bulk = (extra: object) => ({ app: APP, admins: ADMINS, ...extra });

  async function refused(m: TestMock, doc: object, field: string, text: string): Promise<void> {
    const before = await stateText(m, 'bulk');
    const res = await seed(m, doc, 'merge');
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'parameter_invalid', field });
    expect(res.body.errors[0].message).toContain(text);
    expect(await stateText(m, 'bulk')).toBe(before);
  }

  it('companies: generated or written, named as they came; at the limit accepted', async () => {
    const m = mock({ fixturesDir: FIXTURES, limits });
    expect((await seed(m, bulk({ generate: { companies: 2 } }))).status).toBe(200);
    await refused(m, bulk({ generate: { companies: 2 } }), 'generate.companies', '4 companies: at most 3');
    await refused(m, bulk({ companies: [{ id: 'c-1', company_id: 'one' }, { id: 'c-2', company_id: 'two' }] }), 'companies', '4 companies: at most 3');
    const atLimit = await seed(m, bulk({ generate: { companies: 1 } }), 'merge');
    expect(atLimit.status, atLimit.text).toBe(200);
    expect(atLimit.body.counts.companies).toBe(3);
  });

  it('customers: the first generated kind with a count other than 0 is named', async () => {
    const m = mock({ fixturesDir: FIXTURES, limits: { ...limits, customers: 3 } });
    expect((await seed(m, bulk({ generate: { users: 3 } }))).status).toBe(200);
    await refused(m, bulk({ generate: { users: 0, leads: 1 } }), 'generate.leads', '4 customers: at most 3');
  });

  it('notes: a merge that would pass limits.notes is refused on notes', async () => {
    const m = mock({ fixturesDir: FIXTURES, limits });
    const user = { id: 'u00000000000000000000000a', user_id: 'n', email: 'n@example.com', created_at: T };
    const note = (id: string) => ({ id, customer: user.id, admin_id: '1', body: '<p>n</p>', created_at: T });
    expect((await seed(m, bulk({ customers: [user], notes: [note('1'), note('2')] }))).status).toBe(200);
    await refused(m, bulk({ notes: [note('3')] }), 'notes', '3 notes: at most 2');
  });

  it('parts: generated conversations are named, written ones too', async () => {
    const m = mock({ fixturesDir: FIXTURES, limits });
    const user = { id: 'u00000000000000000000000a', user_id: 'p', email: 'p@example.com', created_at: T };
    const conversation = (id: string, parts: number) => ({
      id, customers: [user.id], author: { type: 'user', id: user.id },
      parts: Array.from({ length: parts }, (_, i) => ({ id: String(i + 1), author: { type: 'admin', id: '1' } })),
    });
    expect((await seed(m, bulk({ customers: [user], conversations: [conversation('v1', 9)] }))).status).toBe(200);
    await refused(m, bulk({ conversations: [conversation('v2', 2)] }), 'conversations', '11 conversation parts: at most 10');
    // Parts are generated only for a conversation the document holds: v1 comes again with them.
    const again = { customers: [user], conversations: [conversation('v1', 9)] };
    await refused(m, bulk({ ...again, generate: { parts: { v1: 2 } } }), 'generate.parts', '11 conversation parts: at most 10');
    const atLimit = await seed(m, bulk({ ...again, generate: { parts: { v1: 1 } } }), 'merge');
    expect(atLimit.status, atLimit.text).toBe(200);
  });
});
