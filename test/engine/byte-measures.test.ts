// Exact figures of the byte measures (src/engine/byte-budget.ts keptBytes, record-bytes.ts,
// subscriptions/bytes.ts), each worked out by hand in the test from the README's rules: a string 16 + 2 a
// character, a number 16, null or a boolean 8, an array 32 + 8 a slot, an object 32 + 24 + 2 a key
// character per member; a customer 1,024, a company 512, a conversation 512 and a part 256 beside
// their texts and lists. Every text below has its own length, so a term dropped, doubled or
// subtracted changes the total.

import { describe, expect, it } from 'vitest';
import { keptBytes } from '../../src/engine/byte-budget.js';
import { companyBytes, companyShare, conversationDelta, customerBytes, customerShare, partBytes } from '../../src/engine/record-bytes.js';
import type { Company, Conversation, ConversationPart, Customer, CustomAttributes } from '../../src/engine/types.js';
import { deliveryBytes, entryBytes, notificationBytes } from '../../src/resources/subscriptions/bytes.js';
import { mock } from '../helpers.js';

const text = (n: number): string => 'x'.repeat(n);
/** A string's figure: 16 + 2 a character. */
const s = (n: number): number => 16 + 2 * n;

describe('keptBytes', () => {
  it('counts each kind of value by its rule', () => {
    expect(keptBytes('abc')).toBe(22);
    expect(keptBytes(7)).toBe(16);
    expect(keptBytes(null)).toBe(8);
    expect(keptBytes(true)).toBe(8);
    expect(keptBytes(undefined)).toBe(8);
    expect(keptBytes([])).toBe(32);
    expect(keptBytes({})).toBe(32);
    // [1, 'ab', null]: 32 + 3 slots, then 16, 20, 8.
    expect(keptBytes([1, 'ab', null])).toBe(32 + 24 + 16 + 20 + 8);
    // { key: [2, 3], k: { z: 'hello' } }
    const nested = 32 + (24 + 6) + (32 + 16 + 16 + 16) + (24 + 2) + (32 + (24 + 2) + (16 + 10));
    expect(keptBytes({ key: [2, 3], k: { z: 'hello' } })).toBe(nested);
  });

  it('walks a deep value without recursion', () => {
    let deep: unknown = 'end';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(keptBytes(deep)).toBe(100_000 * 40 + 22);
  });
});

describe('record measures', () => {
  // Lengths 1..13 for the 13 texts a customer counts, 3 companies, 2 tags, 1 segment.
  const customer = {
    type: 'user',
    id: 'nope',
    user_id: text(1),
    email: text(2),
    phone: text(3),
    name: text(4),
    pseudonym: text(5),
    last_seen_ip: text(6),
    user_agent_data: text(7),
    referrer: text(8),
    utm_campaign: text(9),
    utm_content: text(10),
    utm_medium: text(11),
    utm_source: text(12),
    utm_term: text(13),
    companies: ['a', 'b', 'c'],
    tags: ['t', 'u'],
    segments: ['s'],
    custom_attributes: { plan: 'gold' },
  } as unknown as Customer;
  let texts = 0;
  for (let n = 1; n <= 13; n++) texts += s(n);
  const attributes = 32 + (24 + 8) + s(4);
  const customerFigure = 1024 + attributes + texts + 8 * 6;

  it('measures a custom attributes object once: records are replaced, never changed in place', () => {
    const attrs: CustomAttributes = { a: 'b' };
    const c = { ...customer, custom_attributes: attrs } as Customer;
    const first = customerBytes(c);
    // Changed in place (which no write does), the object keeps its first figure: it is not walked again.
    attrs.more = 'x'.repeat(100);
    expect(customerBytes(c)).toBe(first);
    expect(customerBytes({ ...c, custom_attributes: { ...attrs } })).toBe(first + 24 + 8 + s(100));
  });

  it('a customer: 1,024, its attributes, its 13 texts and its lists', () => {
    expect(customerBytes(customer)).toBe(customerFigure);
    // A null text counts nothing.
    expect(customerBytes({ ...customer, utm_term: null, email: null })).toBe(customerFigure - s(13) - s(2));
  });

  const company = {
    id: 'nope',
    company_id: text(3),
    name: text(5),
    plan: text(7),
    website: text(11),
    industry: text(13),
    tags: ['t'],
    segments: ['s', 'r'],
    custom_attributes: {},
  } as unknown as Company;
  const companyFigure = 512 + 32 + s(3) + s(5) + s(7) + s(11) + s(13) + 8 * 3;

  it('a company: 512, its attributes, its 5 texts and its lists', () => {
    expect(companyBytes(company)).toBe(companyFigure);
    expect(companyBytes({ ...company, plan: null })).toBe(companyFigure - s(7));
  });

  it('a share is what the API added past the seeded version, never less than nothing', () => {
    const m = mock();
    const app = m.store.app('demo')!;
    expect(customerShare(app, customer)).toBe(customerFigure);
    expect(companyShare(app, company)).toBe(companyFigure);
    const seeded = [...app.base.data.customers.values()].find((c) => c.name !== null) as Customer;
    expect(customerShare(app, { ...seeded, name: `${seeded.name}abc` })).toBe(6);
    expect(customerShare(app, { ...seeded, name: null })).toBe(0);
    const seededCompany = [...app.base.data.companies.values()][0] as Company;
    expect(companyShare(app, { ...seededCompany, name: `${seededCompany.name}abcd` })).toBe(8);
    expect(companyShare(app, { ...seededCompany, plan: null, name: '' })).toBe(0);
  });

  const part = (body: string | null, attachments: { name: string; url: string }[] = []) => ({ body, attachments }) as unknown as ConversationPart;

  it('a part: 256, its body and its attachments (32 and a slot each, with their name and URL)', () => {
    expect(partBytes(part(text(9)))).toBe(256 + s(9) + 0);
    expect(partBytes(part(null, [{ name: text(2), url: text(17) }, { name: text(4), url: text(19) }]))).toBe(256 + 16 + (32 + s(2) + s(17)) + (32 + s(4) + s(19)));
  });

  it('a conversation: its head, and only the parts a write added', () => {
    const head = {
      subject: text(3),
      body: text(21),
      attachments: [{ name: text(1), url: text(6) }],
      customers: ['a', 'b'],
      tags: ['t', 'u', 'v'],
      parts: [part(text(5)), part(text(7))],
    } as unknown as Conversation;
    const headFigure = 512 + s(3) + s(21) + (8 + 32 + s(1) + s(6)) + 16 + 24;
    const first = 256 + s(5);
    const second = 256 + s(7);
    expect(conversationDelta(undefined, head)).toBe(headFigure + first + second);
    // One part appended: only it is measured, the head unchanged.
    const replied = { ...head, parts: [...head.parts, part(text(11))] };
    expect(conversationDelta(head, replied)).toBe(256 + s(11));
    // Same parts list: nothing of the parts; a longer subject moves the head only.
    expect(conversationDelta(head, { ...head, subject: text(10) })).toBe(14);
    expect(conversationDelta(replied, { ...replied, tags: [] })).toBe(-24);
  });
});

describe('webhook measures', () => {
  const item = { type: 'ping', message: text(12) };
  const notification = (id: string) => ({ id, topic: 'ping', data: { type: 'notification_event_data', item }, created_at: 5 });
  const itemFigure = 32 + (24 + 8) + s(4) + (24 + 14) + s(12);
  const dataFigure = 32 + (24 + 8) + s(23) + (24 + 8) + itemFigure;
  const figure = (idLength: number) => 32 + (24 + 4) + s(idLength) + (24 + 10) + s(4) + (24 + 8) + dataFigure + (24 + 20) + 16;

  it('a notification is keptBytes of it, its shared item counted in each', () => {
    const a = notification('notif_a');
    const b = notification('notif_bb');
    expect(notificationBytes(a)).toBe(figure(7));
    expect(notificationBytes(b)).toBe(figure(8));
    expect(notificationBytes(a)).toBe(keptBytes(a));
    expect(deliveryBytes({ id: 1, kind: 'webhook', subscription_id: 'nsub_x', notification: b, attempt: 1, due_at: 0 })).toBe(256 + figure(8));
  });

  it('a feed entry: 256, the notification and the exchange', () => {
    const exchange = { request_method: 'POST', request_entity: text(30), response_headers: { a: 'b' } };
    const exchangeFigure = 32 + (24 + 28) + s(4) + (24 + 28) + s(30) + (24 + 32) + (32 + (24 + 2) + s(1));
    expect(entryBytes({ notification: notification('n'), http_request: exchange })).toBe(256 + figure(1) + exchangeFigure);
  });
});
