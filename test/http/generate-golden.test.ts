// What `generate` makes for a given seed is pinned: recorded fixtures and snapshot tests of users
// hold these records, so the same seed must give the same data set in every version, not only
// within one. A deliberate change of the generator rewrites the golden file:
//   UPDATE_GOLDEN=1 npx vitest run test/http/generate-golden.test.ts
// The invariants below say what the golden values must satisfy, so a rewrite can be reviewed.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REFERENCE_TIME } from '../../src/store/normalize.js';
import { mock, stateText, type TestMock } from '../helpers.js';

const GOLDEN = new URL('../golden/generated-seed-1.json', import.meta.url);
// A one-app fixture directory: the store starts without the default fixtures' bulk, so the test
// costs what the generation it pins costs.
const FIXTURES = fileURLToPath(new URL('../golden/fixtures', import.meta.url));
const YEAR = 365 * 24 * 3600;

const doc = {
  app: { id: 'gen', tokens: ['gen-token'] },
  admins: [{ id: '7', name: 'Ann', email: 'ann@example.com' }, { id: '8', name: 'Bo', email: 'bo@example.com' }],
  tags: [{ id: '1', name: 'one' }, { id: '2', name: 'two' }, { id: '3', name: 'three' }],
  segments: [
    { id: 's0000000000000000000000a', name: 'Co seg', person_type: 'company' },
    { id: 's0000000000000000000000b', name: 'User seg', person_type: 'user' },
    { id: 's0000000000000000000000c', name: 'User seg 2', person_type: 'user' },
  ],
  data_attributes: [
    { name: 'tier', data_type: 'string', options: ['gold', 'silver'] },
    { name: 'score', data_type: 'integer' },
    { name: 'ratio', data_type: 'float' },
    { name: 'vip', data_type: 'boolean' },
    { name: 'renewal_at', data_type: 'date' },
    { name: 'motto', data_type: 'string' },
    { name: 'old', data_type: 'string', archived: true },
  ],
  // A user_id, an email and a company_id the generator would have made: it must skip them.
  customers: [
    { id: 'u0000000000000000000000a', user_id: 'gen-user-2', email: 'taken@example.com' },
    { id: 'u0000000000000000000000b', user_id: 'doc-2', email: 'augustine.schumm@example.com' },
  ],
  conversations: [
    { id: 'v0000000000000000000000a', customers: ['u0000000000000000000000a'], author: { type: 'user', id: 'u0000000000000000000000a' } },
    {
      id: 'v0000000000000000000000b', customers: ['u0000000000000000000000a'], author: { type: 'user', id: 'u0000000000000000000000a' },
      assignee: { type: 'admin', id: '8' }, created_at: 100,
      parts: [{ id: '1', author: { type: 'admin', id: '8' }, created_at: 200 }, { id: '2', author: { type: 'user', id: 'u0000000000000000000000a' }, created_at: 300 }],
    },
  ],
  companies: [{ id: 'c0000000000000000000000a', company_id: 'gen-company-1', name: 'Taken Co' }],
  generate: { companies: 3, users: 4, leads: 2, visitors: 2, conversations: 4, parts: { v0000000000000000000000a: 7, v0000000000000000000000b: 2 } },
};

interface Exported {
  customers: Record<string, any>[];
  companies: Record<string, any>[];
  conversations: Record<string, any>[];
}

async function generated(m: TestMock): Promise<Exported> {
  expect((await m.call('POST', '/__admin/seed', { token: null, body: doc })).status).toBe(200);
  const all = JSON.parse(await stateText(m, 'gen')) as Exported;
  return { customers: all.customers, companies: all.companies, conversations: all.conversations };
}

describe('generated records for seed 1', () => {
  it('are exactly the pinned data set', async () => {
    const got = await generated(mock({ fixturesDir: FIXTURES }));
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, `${JSON.stringify(got, null, 1)}\n`);
    expect(got).toEqual(JSON.parse(readFileSync(GOLDEN, 'utf8')));
  });

  it('satisfy what the generator promises, against which the golden values are checked', async () => {
    const { customers, companies, conversations } = await generated(mock({ fixturesDir: FIXTURES }));
    const made = customers.filter((c) => !c.id.startsWith('u000'));
    expect(made.map((c) => c.type).sort()).toEqual(['contact', 'contact', 'user', 'user', 'user', 'user', 'visitor', 'visitor']);
    const users = made.filter((c) => c.type === 'user');
    // Numbered user_ids skip the one the document holds.
    expect(users.map((u) => u.user_id).sort()).toEqual(['gen-user-1', 'gen-user-3', 'gen-user-4', 'gen-user-5']);
    for (const u of users) {
      expect(u.session_count).toBeGreaterThanOrEqual(1);
      expect(u.session_count).toBeLessThanOrEqual(200);
      expect(u.avatar_image_url).toBe(`https://static.example.com/avatars/${u.id}.png`);
      expect(u.signed_up_at).toBe(u.created_at);
      expect(u.name).toMatch(/^\S+ \S+/);
    }
    for (const c of made) {
      expect(c.created_at).toBeGreaterThanOrEqual(REFERENCE_TIME - 1 - 2 * YEAR);
      expect(c.created_at).toBeLessThan(REFERENCE_TIME);
      expect(c.last_request_at).toBe(c.updated_at);
      expect(c.updated_at).toBeGreaterThanOrEqual(c.created_at);
      expect(c.location_data.city_name).toEqual(expect.any(String));
      expect(c.tags.length).toBeLessThanOrEqual(2);
      expect(Object.keys(c.custom_attributes)).not.toContain('old');
      if (c.type === 'visitor') {
        expect(c.email).toBeNull();
        expect(c.companies).toEqual([]);
      } else {
        expect(c.email).toMatch(/@example\.com$/);
        expect(c.companies.length).toBeLessThanOrEqual(2);
      }
      if (c.type !== 'user') {
        expect(c.user_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(c.pseudonym).toEqual(expect.any(String));
        expect(c.session_count).toBe(0);
      }
    }
    const emails = customers.map((c) => c.email).filter((e) => e !== null);
    expect(new Set(emails).size).toBe(emails.length);
    expect(companies.filter((c) => c.id !== 'c0000000000000000000000a').map((c) => c.company_id).sort()).toEqual(['gen-company-2', 'gen-company-3', 'gen-company-4']);
    for (const co of companies.slice(1)) {
      expect(co.monthly_spend % 5).toBe(0);
      expect(co.size).toBeGreaterThanOrEqual(1);
      expect(['free', 'starter', 'pro', 'enterprise']).toContain(co.plan);
      expect(co.segments.every((s: string) => s === 's0000000000000000000000a')).toBe(true);
    }
    expect(made.find((c) => c.email?.startsWith('augustine.schumm'))?.email).toBe('augustine.schumm.user1@example.com');
    expect(conversations).toHaveLength(6);
    // Parts added to a conversation that has some continue its ids and its timeline.
    const continued = conversations.find((c) => c.id === 'v0000000000000000000000b');
    expect(continued?.parts.map((p: { id: string }) => p.id)).toEqual(['1', '2', '3', '4']);
    expect(continued?.parts[2].created_at).toBeGreaterThan(300);
    expect(continued?.parts[2].author).toEqual({ type: 'admin', id: '8' });
    const extended = conversations.find((c) => c.id === 'v0000000000000000000000a');
    expect(extended?.parts.map((p: { part_type: string }) => p.part_type)).toEqual(['comment', 'comment', 'comment', 'comment', 'comment', 'comment', 'note']);
    for (const conv of conversations.filter((c) => c !== extended && c !== continued)) {
      expect(conv.parts.length).toBeGreaterThanOrEqual(1);
      expect(conv.parts.length).toBeLessThanOrEqual(5);
      expect(conv.parts.map((p: { id: string }) => p.id)).toEqual(conv.parts.map((_: unknown, i: number) => String(i + 1)));
      expect(conv.parts[0].author).toEqual(conv.assignee);
      expect(conv.updated_at).toBe(conv.parts.at(-1).created_at);
      expect(['7', '8']).toContain(conv.assignee.id);
    }
  });

  it('without admins, tags or segments: records without them, no conversations, and no parts for a conversation the document lacks', async () => {
    const m = mock({ fixturesDir: FIXTURES });
    const bare = { app: { id: 'bare', tokens: ['bare-token'] }, generate: { companies: 2, users: 3, leads: 1, conversations: 3, parts: { 'not-a-conversation': 2 } } };
    expect((await m.call('POST', '/__admin/seed', { token: null, body: bare })).status).toBe(200);
    const s = JSON.parse(await stateText(m, 'bare')) as Exported;
    expect(s.customers).toHaveLength(4);
    expect(s.conversations).toEqual([]);
    for (const c of [...s.customers, ...s.companies]) {
      expect(c.tags).toEqual([]);
      expect(c.segments).toEqual([]);
      expect(c.custom_attributes).toEqual({});
    }
  });
});
