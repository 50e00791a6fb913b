// A seed document whose records do not hold together is refused as a whole, with 400
// parameter_invalid naming the member at fault: duplicate ids and keys, references to records the
// document lacks, and identity rules checked on the stored (trimmed, normalised) form.

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorCodes, mock } from '../helpers.js';

// A one-app store: these tests seed their own app and need none of the default fixtures.
const FIXTURES = fileURLToPath(new URL('../golden/fixtures', import.meta.url));

const U1 = 'u0000000000000000000000a';
const U2 = 'u0000000000000000000000b';
const C1 = 'c0000000000000000000000a';
const S1 = 's0000000000000000000000a';
const V1 = 'v0000000000000000000000a';
const A1 = 'a0000000000000000000000a';

type Doc = Record<string, any>;

/** A document in which everything holds together; each case breaks one thing. */
const valid = (): Doc => ({
  app: { id: 'refs', tokens: ['refs-token'] },
  admins: [{ id: '1', name: 'Ann', email: 'ann@example.com' }, { id: '2', name: 'Bo', email: 'bo@example.com' }],
  teams: [{ id: '10', name: 'Team', admin_ids: ['1'] }],
  segments: [{ id: S1, name: 'Seg' }],
  tags: [{ id: '5', name: 'VIP' }],
  data_attributes: [{ name: 'plan', data_type: 'string' }],
  companies: [{ id: C1, company_id: 'co-1', tags: ['5'], segments: [S1] }],
  customers: [
    { id: U1, user_id: 'u-1', email: 'one@example.com', companies: [C1], tags: ['5'], segments: [S1] },
    { id: U2, type: 'contact', user_id: 'lead-1' },
    // One identifier is enough for a user (two users without a user_id do not clash), none for a visitor's email.
    { id: 'u0000000000000000000000d', email: 'only-email@example.com' },
    { id: 'u0000000000000000000000e', email: 'other-email@example.com' },
    { id: 'u0000000000000000000000f', user_id: 'only-user-id' },
    { id: 'u00000000000000000000010', type: 'visitor', user_id: 'visitor-1' },
  ],
  archived_customers: [{ id: A1, user_id: 'gone-1', email: 'gone@example.com' }],
  conversations: [{
    id: V1, customers: [U1], tags: ['5'], author: { type: 'user', id: U1 }, assignee: { type: 'admin', id: '1' },
    parts: [{ id: '1', author: { type: 'admin', id: '2' } }, { id: '2', author: { type: 'lead', id: U2 } }],
  }, {
    // No assignee, and a bot part: a bot names no admin or customer of the document.
    id: 'v0000000000000000000000b', customers: [A1], author: { type: 'user', id: A1 },
    parts: [{ id: '1', author: { type: 'bot', id: 'no-such-record' } }],
  }],
  jobs: [{ id: 1, kind: 'enrich_customer', customer_id: U1, due_at: 1 }, { id: 2, kind: 'enrich_customer', customer_id: A1, due_at: 1 }],
});

const cases: [string, (d: Doc) => void, string][] = [
  ['a duplicate admin id', (d) => d.admins.push({ ...d.admins[0] }), 'admins[2].id'],
  ['a duplicate team id', (d) => d.teams.push({ id: '10', name: 'Other' }), 'teams[1].id'],
  ['a duplicate segment id', (d) => d.segments.push({ id: S1, name: 'Other' }), 'segments[1].id'],
  ['a duplicate tag id', (d) => d.tags.push({ id: '5', name: 'Other' }), 'tags[1].id'],
  ['a duplicate company id', (d) => d.companies.push({ id: C1, company_id: 'co-2' }), 'companies[1].id'],
  ['a segment rule tag the document lacks', (d) => (d.segments[0].rule_tags = ['5', '404']), 'segments[0].rule_tags[1]'],
  ['a duplicate archived customer id', (d) => d.archived_customers.push({ id: A1, user_id: 'gone-2' }), 'archived_customers[1].id'],
  ['an archived customer id a live customer has', (d) => d.archived_customers.push({ id: U2, user_id: 'gone-2' }), 'archived_customers[1].id'],
  ['an archived lead', (d) => d.archived_customers.push({ id: 'a0000000000000000000000b', type: 'contact', user_id: 'gone-2' }), 'archived_customers[1].type'],
  ['an archived user with neither user_id nor email', (d) => d.archived_customers.push({ id: 'a0000000000000000000000b' }), 'archived_customers[1]'],
  ['an archived user_id a live customer has', (d) => d.archived_customers.push({ id: 'a0000000000000000000000b', user_id: 'u-1' }), 'archived_customers[1].user_id'],
  ['a duplicate customer id', (d) => d.customers.push({ id: U1, user_id: 'u-9' }), 'customers[6].id'],
  ['a duplicate conversation id', (d) => d.conversations.push({ ...d.conversations[0], parts: [] }), 'conversations[2].id'],
  ['a team id an admin has', (d) => d.teams.push({ id: '2', name: 'Clash' }), 'teams'],
  ['a team member who is no admin', (d) => (d.teams[0].admin_ids = ['1', '99']), 'teams[0].admin_ids[1]'],
  ['a blank tag name', (d) => d.tags.push({ id: '6', name: '   ' }), 'tags[1].name'],
  // U+0958 is two code points in NFC: 200 sent, 400 stored.
  ['a tag name over 255 characters once normalised', (d) => d.tags.push({ id: '6', name: '\u0958'.repeat(200) }), 'tags[1].name'],
  ['two tag names equal but for case', (d) => d.tags.push({ id: '6', name: 'vip' }), 'tags[1].name'],
  ['a duplicate company_id', (d) => d.companies.push({ id: 'c0000000000000000000000b', company_id: 'co-1' }), 'companies[1].company_id'],
  ['a company tag the document lacks', (d) => (d.companies[0].tags = ['404']), 'companies[0].tags[0]'],
  ['a company segment the document lacks', (d) => (d.companies[0].segments = [S1, 'nope']), 'companies[0].segments[1]'],
  ['a user with neither user_id nor email', (d) => d.customers.push({ id: 'u0000000000000000000000c' }), 'customers[6]'],
  ['a lead without a user_id', (d) => d.customers.push({ id: 'u0000000000000000000000c', type: 'contact' }), 'customers[6].user_id'],
  ['a visitor without a user_id', (d) => d.customers.push({ id: 'u0000000000000000000000c', type: 'visitor' }), 'customers[6].user_id'],
  ['a duplicate user_id', (d) => d.customers.push({ id: 'u0000000000000000000000c', user_id: 'u-1' }), 'customers[6].user_id'],
  ['a visitor with an email', (d) => d.customers.push({ id: 'u0000000000000000000000c', type: 'visitor', user_id: 'v-1', email: 'v@example.com' }), 'customers[6].email'],
  // İ lower-cases to two code points: 255 sent, 455 stored.
  ['an email over 255 characters once lower-cased', (d) => (d.customers[0].email = `${'\u0130'.repeat(200)}${'e'.repeat(43)}@example.com`), 'customers[0].email'],
  ['a customer company the document lacks', (d) => (d.customers[0].companies = ['nope']), 'customers[0].companies[0]'],
  ['a customer tag the document lacks', (d) => (d.customers[0].tags = ['404']), 'customers[0].tags[0]'],
  ['a customer segment the document lacks', (d) => (d.customers[0].segments = ['nope']), 'customers[0].segments[0]'],
  ['a conversation customer the document lacks', (d) => (d.conversations[0].customers = [U1, 'nope']), 'conversations[0].customers[1]'],
  ['a conversation tag the document lacks', (d) => (d.conversations[0].tags = ['404']), 'conversations[0].tags[0]'],
  ['a conversation author the document lacks', (d) => (d.conversations[0].author = { type: 'user', id: 'nope' }), 'conversations[0].author.id'],
  ['an admin author the document lacks', (d) => (d.conversations[0].author = { type: 'admin', id: '99' }), 'conversations[0].author.id'],
  ['a lead author the document lacks', (d) => (d.conversations[0].author = { type: 'lead', id: 'nope' }), 'conversations[0].author.id'],
  ['an assignee the document lacks', (d) => (d.conversations[0].assignee = { type: 'admin', id: '99' }), 'conversations[0].assignee.id'],
  ['a duplicate part id', (d) => d.conversations[0].parts.push({ id: '1', author: { type: 'admin', id: '1' } }), 'conversations[0].parts[2].id'],
  ['a part author the document lacks', (d) => (d.conversations[0].parts[1].author = { type: 'user', id: 'nope' }), 'conversations[0].parts[1].author.id'],
  ['a job for a customer the document lacks', (d) => d.jobs.push({ id: 2, kind: 'enrich_customer', customer_id: 'nope', due_at: 1 }), 'jobs[2].customer_id'],
  ['a duplicate data attribute', (d) => d.data_attributes.push({ name: 'plan', data_type: 'integer' }), 'data_attributes[1].name'],
];

describe('POST /__admin/seed with records that do not hold together', () => {
  it('accepts the intact document, at the limits too', async () => {
    const d = valid();
    d.tags.push({ id: '6', name: 't'.repeat(255) });
    d.customers[1].email = `${'E'.repeat(243)}@example.com`;
    const res = await mock({ fixturesDir: FIXTURES }).call('POST', '/__admin/seed', { token: null, body: d });
    expect(res.status).toBe(200);
  });

  for (const [what, breakIt, field] of cases) {
    it(`refuses ${what}, naming the member at fault`, async () => {
      const m = mock({ fixturesDir: FIXTURES });
      const d = valid();
      breakIt(d);
      const res = await m.call('POST', '/__admin/seed', { token: null, body: d });
      expect(res.status).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_invalid']);
      expect(res.body.errors[0].field).toBe(field);
      expect((await m.call('GET', '/__admin/state?app=refs', { token: null })).status).toBe(404);
    });
  }
});
