import { describe, expect, it } from 'vitest';
import { conversationListSchema, conversationSchema, customersListSchema } from '../../../src/resources/conversations/shapes.js';
import type { Schema } from '../../../src/schemas/json-schema.js';
import { validate } from '../../../src/schemas/validate.js';
import { errorCodes, expectRejected, mock, TEST_NOW, type CallResult, type TestMock, stateText as state } from '../../helpers.js';
import { ADA, ALAN, GRACE, GROUP, LEAD, VISITOR } from '../../fixture-ids.js';

const LEAD_CONV = '5714dd359a3fd47136000502'; // the lead ...0007 alone
const LONG = '5714dd359a3fd47136000503'; // grace, 620 generated parts
const APP = { id: 'demo', tokens: ['demo-token'] };
const SEEDED = '5714dd359a3fd4713600c0c0';

const shaped = (schema: Schema, body: unknown) => expect(validate(schema, body)).toEqual([]);

async function fetchConversation(m: TestMock, id: string, query = '') {
  const res = await m.call('GET', `/conversations/${id}${query}`);
  expect(res.status).toBe(200);
  shaped(conversationSchema, res.body);
  return res.body;
}

/** Seeds a conversation for ada with `count` parts, one a minute, long before the test clock. */
async function seedConversation(m: TestMock, count: number, extra: Record<string, unknown> = {}) {
  const author = { type: 'admin', id: '814860' };
  const parts = Array.from({ length: count }, (_, i) => ({ id: String(i + 1), body: `<p>part ${i + 1}</p>`, created_at: TEST_NOW - 86_400 + i * 60, author }));
  const conversation = { id: SEEDED, created_at: TEST_NOW - 90_000, author: { type: 'user', id: ADA }, customers: [ADA], parts, ...extra };
  const res = await m.call('POST', '/__admin/seed?mode=merge', { body: { app: APP, conversations: [conversation] } });
  expect(res.status).toBe(200);
}

const partIds = (body: any): string[] => body.conversation_parts.conversation_parts.map((p: { id: string }) => p.id);
const adminReply = (body = '<p>On it.</p>', message_type = 'comment') => ({ type: 'admin', admin_id: '814860', message_type, body });

describe('GET /conversations/{id}', () => {
  it('answers the full conversation: message, user, customers, assignee, tags and parts', async () => {
    const m = mock();
    const body = await fetchConversation(m, GROUP);
    expect(body).toMatchObject({
      type: 'conversation',
      id: GROUP,
      created_at: 1766620800,
      updated_at: 1766707200,
      conversation_message: {
        type: 'conversation',
        subject: '<p>Invoice question</p>',
        author: { type: 'user', id: ADA },
        attachments: [{ name: 'invoice-42.pdf', url: 'https://files.example.com/invoice-42.pdf' }],
      },
      user: { type: 'user', id: ADA },
      customers: [
        { type: 'user', id: ADA },
        { type: 'user', id: GRACE },
      ],
      assignee: { type: 'admin', id: '814860' },
      open: true,
      read: true,
      tags: { type: 'tag.list', tags: [{ type: 'tag', id: '17513', name: 'VIP' }] },
    });
    expect(body.conversation_parts.type).toBe('conversation_part.list');
    expect(body.conversation_parts.total_count).toBe(4);
    expect(body.conversation_parts.conversation_parts[0]).toEqual({
      type: 'conversation_part',
      id: '1',
      part_type: 'assignment',
      body: null,
      created_at: 1766620860,
      updated_at: 1766620860,
      notified_at: 1766620860,
      assigned_to: { type: 'admin', id: '814860' },
      author: { type: 'admin', id: '991267' },
      attachments: [],
    });
  });

  it('returns the stored HTML by default and with display_as=html', async () => {
    const m = mock();
    const plain = await fetchConversation(m, GROUP);
    expect(plain.conversation_message.body).toBe(
      '<p>Hi, we were charged twice for <b>November</b>.</p><p>See <a href="https://acme.example.com/invoices/42">invoice 42</a> &amp; advise.</p>',
    );
    expect(await fetchConversation(m, GROUP, '?display_as=html')).toEqual(plain);
  });

  it('renders subject and bodies as plain text with display_as=plaintext: blocks as lines, links as label (url), entities decoded', async () => {
    const m = mock();
    const body = await fetchConversation(m, GROUP, '?display_as=plaintext');
    expect(body.conversation_message.subject).toBe('Invoice question');
    expect(body.conversation_message.body).toBe('Hi, we were charged twice for November.\nSee invoice 42 (https://acme.example.com/invoices/42) & advise.');
    expect(body.conversation_parts.conversation_parts.map((p: { body: string | null }) => p.body)).toEqual([
      null,
      'Thanks Ada \u2014 looking into it now.',
      'Adding Grace, who handles billing on our side.',
      'Refund issued; ticket #981.',
    ]);
  });

  it('renders nested markup, lists, links and entities as plain text', async () => {
    const m = mock();
    await seedConversation(m, 1, {
      subject: '<h1>Renewal &mdash; <span>Q3</span></h1>',
      body:
        '<div><p>Hello <b><i>there</i></b>,</p><ul><li>one &amp; two</li><li>see <a href="https://x.example/a?b=1&amp;c=2">the <em>docs</em></a></li></ul></div>' +
        '<p>&lt;tag&gt; &quot;q&quot; &#39;s&#39; &euro;5 &#x2713;</p>',
    });
    const body = await fetchConversation(m, SEEDED, '?display_as=plaintext');
    expect(body.conversation_message.subject).toBe('Renewal \u2014 Q3');
    expect(body.conversation_message.body).toBe('Hello there,\none & two\nsee the docs (https://x.example/a?b=1&c=2)\n<tag> "q" \'s\' \u20ac5 \u2713');
    expect(body.conversation_parts.conversation_parts[0].body).toBe('part 1');
  });

  // What html-to-text 9.0.5 got wrong when it was tried in place of src/core/html-text.ts (README,
  // Decisions): it overflowed the stack from about 2,250 nested elements (an 11 KB reply), dropped a
  // tag left open at the end with the rest of the text, and joined the lines of plain text.
  it('renders any nesting depth, a tag left open at the end and the lines of plain text', async () => {
    const m = mock();
    const bodies = [
      '<div>'.repeat(13_000) + 'deep',
      '<b><i>'.repeat(4_000) + 'x' + '</i></b>'.repeat(4_000),
      '<a href="u">'.repeat(5_000),
      'if x<y then z',
      '<p>ok</p>broken <a href="x',
      'Line one\nLine two\n\nLine four',
    ];
    for (const body of bodies) {
      expect(body.length).toBeLessThanOrEqual(65_535);
      expect((await m.call('POST', `/conversations/${GROUP}/reply`, { body: adminReply(body) })).status).toBe(200);
    }
    const parts = (await fetchConversation(m, GROUP, '?display_as=plaintext')).conversation_parts.conversation_parts;
    expect(parts.slice(4).map((p: { body: string }) => p.body)).toEqual([
      'deep',
      'x',
      'u'.repeat(5_000),
      'if x<y then z',
      'ok\nbroken <a href="x',
      'Line one\nLine two\n\nLine four',
    ]);
  });

  it('answers 400 bad_request for a display_as other than plaintext or html', async () => {
    const m = mock();
    const res = await m.call('GET', `/conversations/${GROUP}?display_as=markdown`);
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['bad_request']);
    expect(res.body.errors[0].field).toBe('display_as');
  });

  it('answers 404 not_found "Conversation not found" for an unknown id', async () => {
    const m = mock();
    const res = await m.call('GET', '/conversations/5714dd359a3fd471360fffff');
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['not_found']);
    expect(res.body.errors[0].message).toBe('Conversation not found');
  });

  it('shows a lead customer as type lead', async () => {
    const m = mock();
    const body = await fetchConversation(m, LEAD_CONV);
    expect(body.user).toEqual({ type: 'lead', id: LEAD });
    expect(body.customers).toEqual([{ type: 'lead', id: LEAD }]);
  });

  it('shows an unassigned conversation with a nobody_admin assignee', async () => {
    const m = mock();
    await seedConversation(m, 0, { assignee: null });
    expect((await fetchConversation(m, SEEDED)).assignee).toEqual({ type: 'nobody_admin', id: null });
  });

  it('orders parts oldest first whatever order they were stored in', async () => {
    const m = mock();
    const author = { type: 'admin', id: '814860' };
    await seedConversation(m, 0, {
      parts: [
        { id: 'c', created_at: TEST_NOW - 100, author },
        { id: 'a', created_at: TEST_NOW - 300, author },
        { id: 'b', created_at: TEST_NOW - 200, author },
      ],
    });
    expect(partIds(await fetchConversation(m, SEEDED))).toEqual(['a', 'b', 'c']);
  });

  it.each([
    [499, 499, '1'],
    [500, 500, '1'],
    [501, 500, '2'],
  ])('with %i parts answers %i, the most recent, oldest first', async (stored, shown, firstId) => {
    const m = mock();
    await seedConversation(m, stored);
    const body = await fetchConversation(m, SEEDED);
    const ids = partIds(body);
    expect(body.conversation_parts.total_count).toBe(shown);
    expect(ids).toHaveLength(shown);
    expect(ids[0]).toBe(firstId);
    expect(ids.at(-1)).toBe(String(stored));
  });

  it('answers the 500 most recent of the 620 seeded parts of a long conversation', async () => {
    const m = mock();
    const body = await fetchConversation(m, LONG);
    const parts = body.conversation_parts.conversation_parts as { id: string; created_at: number }[];
    expect(body.conversation_parts.total_count).toBe(500);
    expect(parts[0]?.id).toBe('121');
    expect(parts.at(-1)?.id).toBe('620');
    expect(parts.every((p, i) => i === 0 || (parts[i - 1] as { created_at: number }).created_at <= p.created_at)).toBe(true);
  });
});

describe('GET /conversations', () => {
  it('answers a conversation.list without parts, most recently updated first', async () => {
    const m = mock();
    const res = await m.call('GET', '/conversations');
    expect(res.status).toBe(200);
    shaped(conversationListSchema, res.body);
    const list = res.body.conversations as { updated_at: number; conversation_parts?: unknown }[];
    expect(list.length).toBeGreaterThan(3);
    expect(list.every((c) => c.conversation_parts === undefined)).toBe(true);
    expect(list.every((c, i) => i === 0 || (list[i - 1] as { updated_at: number }).updated_at >= c.updated_at)).toBe(true);
    expect(res.body.pages).toMatchObject({ type: 'pages', page: 1, per_page: 20, total_pages: 1 });
    expect(res.body.pages.next).toBeNull();
  });

  it('pages with per_page, the next link followed to the end giving every conversation once', async () => {
    const m = mock();
    const all = (await m.call('GET', '/conversations')).body.conversations.map((c: { id: string }) => c.id);
    const seen: string[] = [];
    let url: string | undefined = '/conversations?per_page=4';
    while (url) {
      const res: CallResult = await m.call('GET', url);
      shaped(conversationListSchema, res.body);
      seen.push(...res.body.conversations.map((c: { id: string }) => c.id));
      url = res.body.pages.next;
    }
    expect(seen).toEqual(all);
  });

  it('moves a conversation replied to to the top, and back on reset, however often it was listed before', async () => {
    const m = mock();
    const first = async () => (await m.call('GET', '/conversations?per_page=1')).body.conversations[0].id as string;
    const before = await first();
    expect(before).not.toBe(LONG);
    m.clock.advance(10);
    await m.call('POST', `/conversations/${LONG}/reply`, { body: adminReply() });
    expect(await first()).toBe(LONG);
    expect((await m.call('POST', '/__admin/reset', { token: null, body: { app: 'demo' } })).status).toBe(200);
    expect(await first()).toBe(before);
  });

  it('answers 400 for a bad per_page or display_as', async () => {
    const m = mock();
    expect(errorCodes(await m.call('GET', '/conversations?per_page=61'))).toEqual(['parameter_invalid']);
    expect(errorCodes(await m.call('GET', '/conversations?display_as=text'))).toEqual(['bad_request']);
  });
});

describe('POST /conversations/{id}/customers', () => {
  const add = (m: TestMock, body: unknown, id = GROUP) => m.call('POST', `/conversations/${id}/customers`, { body });

  it('lets an admin add a user by intercom_user_id, answering every customer of the conversation', async () => {
    const m = mock();
    const res = await add(m, { admin_id: '814860', customer: { intercom_user_id: ALAN } });
    expect(res.status).toBe(200);
    shaped(customersListSchema, res.body);
    expect(res.body).toEqual({
      customers: [
        { type: 'user', id: ADA },
        { type: 'user', id: GRACE },
        { type: 'user', id: ALAN },
      ],
    });
    expect((await fetchConversation(m, GROUP)).customers.map((c: { id: string }) => c.id)).toEqual([ADA, GRACE, ALAN]);
  });

  it.each([
    ['service_user_id', { service_user_id: LEAD }],
    ['user_id', { user_id: '8a88a590-e1c3-41e2-a502-e0649dbf721c' }],
    ['email', { email: 'LEAD@example.com' }],
  ])('identifies the customer to add by %s', async (_label, customer) => {
    const m = mock();
    const res = await add(m, { admin_id: 991267, customer });
    expect(res.status).toBe(200);
    expect(res.body.customers.at(-1)).toEqual({ type: 'lead', id: LEAD });
  });

  it('lets a customer already in the conversation add someone', async () => {
    const m = mock();
    const res = await add(m, { user_id: 'grace-2', customer: { email: 'alan@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body.customers.map((c: { id: string }) => c.id)).toEqual([ADA, GRACE, ALAN]);
  });

  it('creates a lead for an email that matches nobody and adds it', async () => {
    const m = mock();
    m.clock.advance(30);
    const res = await add(m, { admin_id: '814860', customer: { email: 'New.Person@Example.com' } });
    expect(res.status).toBe(200);
    const added = res.body.customers.at(-1);
    expect(added.type).toBe('lead');
    const lead = JSON.parse(await state(m)).customers.find((c: { id: string }) => c.id === added.id);
    expect(lead).toMatchObject({ type: 'contact', email: 'new.person@example.com', anonymous: true, signed_up_at: null, created_at: TEST_NOW + 30 });
    expect(lead.user_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await fetchConversation(m, GROUP)).updated_at).toBe(TEST_NOW + 30);
  });

  it('changes nothing when the customer is already in the conversation', async () => {
    const m = mock();
    const before = await state(m);
    const res = await add(m, { admin_id: '814860', customer: { user_id: 'grace-2' } });
    expect(res.status).toBe(200);
    expect(res.body.customers).toHaveLength(2);
    expect(await state(m)).toBe(before);
  });

  const rejected: [string, unknown, number, string, string?][] = [
    ['an unknown admin', { admin_id: '4242', customer: { intercom_user_id: ALAN } }, 404, 'admin_not_found', 'admin_id'],
    ['a requester not in the conversation', { email: 'alan@example.com', customer: { intercom_user_id: ALAN } }, 403, 'action_forbidden'],
    ['a lead requester not in the conversation', { intercom_user_id: LEAD, customer: { intercom_user_id: ALAN } }, 403, 'action_forbidden'],
    ['an unknown requester', { user_id: 'nobody', customer: { intercom_user_id: ALAN } }, 404, 'not_found', 'user_id'],
    ['no requester', { customer: { intercom_user_id: ALAN } }, 400, 'parameter_not_found', 'admin_id'],
    ['an admin and a customer requester', { admin_id: '814860', user_id: 'ada-1', customer: { intercom_user_id: ALAN } }, 400, 'parameter_invalid', 'admin_id'],
    ['no customer', { admin_id: '814860' }, 400, 'parameter_not_found', 'customer'],
    ['a customer without identifier', { admin_id: '814860', customer: {} }, 400, 'parameter_not_found', 'customer'],
    ['a customer with two identifiers', { admin_id: '814860', customer: { user_id: 'alan-3', email: 'alan@example.com' } }, 400, 'parameter_invalid', 'customer'],
    ['both id spellings', { admin_id: '814860', customer: { intercom_user_id: ALAN, service_user_id: ALAN } }, 400, 'parameter_invalid', 'customer'],
    ['an unknown customer id', { admin_id: '814860', customer: { intercom_user_id: '5714dd359a3fd471360fffff' } }, 404, 'not_found'],
    ['an unknown user_id', { admin_id: '814860', customer: { user_id: 'nobody' } }, 404, 'not_found'],
    ['a visitor', { admin_id: '814860', customer: { intercom_user_id: VISITOR } }, 404, 'not_found'],
    ['an email two users share', { admin_id: '814860', customer: { email: 'shared@example.com' } }, 409, 'conflict'],
    ['an invalid email', { admin_id: '814860', customer: { email: 'not-an-email' } }, 400, 'parameter_invalid', 'customer.email'],
    ['a customer that is not an object', { admin_id: '814860', customer: 'alan' }, 400, 'parameter_invalid', 'customer'],
  ];
  it.each(rejected)('answers for %s with %i %s and changes nothing', async (_label, body, status, code, field) => {
    const res = await expectRejected(mock(), 'POST', `/conversations/${GROUP}/customers`, { body }, status, [code]);
    if (field) expect(res.body.errors[0].field).toBe(field);
  });

  it('answers 404 not_found for an unknown conversation', async () => {
    const m = mock();
    const res = await add(m, { admin_id: '814860', customer: { intercom_user_id: ALAN } }, '5714dd359a3fd471360fffff');
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['not_found']);
    expect(res.body.errors[0].message).toBe('Conversation not found');
  });
});

describe('POST /conversations/{id}/reply', () => {
  const reply = (m: TestMock, body: unknown, id = GROUP) => m.call('POST', `/conversations/${id}/reply`, { body });

  it('appends an admin comment as the newest part and answers the conversation', async () => {
    const m = mock();
    m.clock.advance(5);
    const res = await reply(m, adminReply('<p>Refund <b>sent</b>.</p>'));
    expect(res.status).toBe(200);
    shaped(conversationSchema, res.body);
    expect(res.body.updated_at).toBe(TEST_NOW + 5);
    expect(res.body.conversation_parts.total_count).toBe(5);
    expect(res.body.conversation_parts.conversation_parts.at(-1)).toEqual({
      type: 'conversation_part',
      id: '5',
      part_type: 'comment',
      body: '<p>Refund <b>sent</b>.</p>',
      created_at: TEST_NOW + 5,
      updated_at: TEST_NOW + 5,
      notified_at: TEST_NOW + 5,
      assigned_to: null,
      author: { type: 'admin', id: '814860' },
      attachments: [],
    });
    expect(partIds(await fetchConversation(m, GROUP))).toEqual(['1', '2', '3', '4', '5']);
  });

  it('appends an admin note with attachments named after their URLs', async () => {
    const m = mock();
    const res = await reply(m, { ...adminReply('<p>internal</p>', 'note'), attachment_urls: ['https://files.example.com/a/report%201.pdf?sig=x'] });
    expect(res.body.conversation_parts.conversation_parts.at(-1)).toMatchObject({
      part_type: 'note',
      attachments: [{ name: 'report 1.pdf', url: 'https://files.example.com/a/report%201.pdf?sig=x' }],
    });
  });

  it('appends a comment by a customer of the conversation, as a user or a lead', async () => {
    const m = mock();
    const byUser = await reply(m, { type: 'user', user_id: 'grace-2', message_type: 'comment', body: 'Thanks!' });
    expect(byUser.body.conversation_parts.conversation_parts.at(-1).author).toEqual({ type: 'user', id: GRACE });
    const byLead = await reply(m, { type: 'user', email: 'lead@example.com', message_type: 'comment', body: 'Hi' }, LEAD_CONV);
    expect(byLead.body.conversation_parts.conversation_parts.at(-1).author).toEqual({ type: 'lead', id: LEAD });
  });

  it('gives a new part an id no other part of the conversation has', async () => {
    const m = mock();
    const author = { type: 'admin', id: '814860' };
    await seedConversation(m, 0, { parts: [{ id: '2', created_at: TEST_NOW - 500, author }, { id: '3', created_at: TEST_NOW - 400, author }] });
    const ids = partIds((await reply(m, adminReply(), SEEDED)).body);
    expect(new Set(ids).size).toBe(3);
  });

  const rejected: [string, unknown, number, string, string?][] = [
    ['an unknown admin', { ...adminReply(), admin_id: '4242' }, 404, 'admin_not_found', 'admin_id'],
    ['an admin reply without admin_id', { type: 'admin', message_type: 'comment', body: 'x' }, 400, 'parameter_not_found', 'admin_id'],
    ['a user note', { type: 'user', user_id: 'ada-1', message_type: 'note', body: 'x' }, 400, 'parameter_invalid', 'message_type'],
    ['a user not in the conversation', { type: 'user', user_id: 'alan-3', message_type: 'comment', body: 'x' }, 403, 'action_forbidden'],
    ['an unknown user', { type: 'user', user_id: 'nobody', message_type: 'comment', body: 'x' }, 404, 'not_found'],
    ['a user reply without identifier', { type: 'user', message_type: 'comment', body: 'x' }, 400, 'parameter_not_found'],
    ['no body', { type: 'admin', admin_id: '814860', message_type: 'comment' }, 400, 'parameter_not_found', 'body'],
    ['an empty body', adminReply(''), 400, 'parameter_invalid', 'body'],
    ['an unknown message_type', adminReply('x', 'reopen'), 400, 'parameter_invalid', 'message_type'],
    ['an unknown type', { ...adminReply(), type: 'bot' }, 400, 'parameter_invalid', 'type'],
  ];
  it.each(rejected)('answers for %s with %i %s and changes nothing', async (_label, body, status, code, field) => {
    const res = await expectRejected(mock(), 'POST', `/conversations/${GROUP}/reply`, { body }, status, [code]);
    if (field) expect(res.body.errors[0].field).toBe(field);
  });

  it('answers 404 not_found for an unknown conversation', async () => {
    const m = mock();
    const res = await reply(m, adminReply(), '5714dd359a3fd471360fffff');
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['not_found']);
  });

  it('takes 60 parts a minute and answers 429 rate_limit_exceeded to the 61st, changing nothing', async () => {
    const m = mock();
    for (let i = 0; i < 60; i++) expect((await reply(m, adminReply(`<p>${i}</p>`))).status).toBe(200);
    const before = await state(m);
    const res = await reply(m, adminReply('<p>one too many</p>'));
    expect(res.status).toBe(429);
    expect(errorCodes(res)).toEqual(['rate_limit_exceeded']);
    expect(await state(m)).toBe(before);
  });

  it('counts the window per conversation', async () => {
    const m = mock();
    for (let i = 0; i < 60; i++) await reply(m, adminReply());
    expect((await reply(m, adminReply())).status).toBe(429);
    expect((await reply(m, adminReply(), LONG)).status).toBe(200);
  });

  it('slides the 60-second window: a part frees up 60 seconds after it was created', async () => {
    const m = mock();
    for (let i = 0; i < 30; i++) await reply(m, adminReply());
    m.clock.advance(30);
    for (let i = 0; i < 30; i++) await reply(m, adminReply());
    m.clock.advance(29);
    expect((await reply(m, adminReply())).status).toBe(429);
    m.clock.advance(1);
    for (let i = 0; i < 30; i++) expect((await reply(m, adminReply())).status).toBe(200);
    expect((await reply(m, adminReply())).status).toBe(429);
  });

  it('clears the window on POST /__admin/reset', async () => {
    const m = mock();
    for (let i = 0; i < 60; i++) await reply(m, adminReply());
    expect((await reply(m, adminReply())).status).toBe(429);
    expect((await m.call('POST', '/__admin/reset?app=demo')).status).toBe(200);
    const res = await reply(m, adminReply());
    expect(res.status).toBe(200);
    expect(res.body.conversation_parts.total_count).toBe(5);
  });

  it('crosses the 500-part cap through replies: the 501st part pushes the oldest out', async () => {
    const m = mock();
    await seedConversation(m, 499);
    const at500 = await reply(m, adminReply('<p>five hundred</p>'), SEEDED);
    expect(at500.body.conversation_parts.total_count).toBe(500);
    expect(partIds(at500.body)[0]).toBe('1');
    const at501 = await reply(m, adminReply('<p>five hundred and one</p>'), SEEDED);
    const ids = partIds(at501.body);
    expect(at501.body.conversation_parts.total_count).toBe(500);
    expect([ids[0], ids.at(-1)]).toEqual(['2', '501']);
    expect(JSON.parse(await state(m)).conversations.find((c: { id: string }) => c.id === SEEDED).parts).toHaveLength(501);
  });

  it('reaches 500 parts from 4 through replies alone, a minute at a time', async () => {
    const m = mock();
    let last: any;
    for (let n = 5; n <= 501; n++) {
      if ((n - 5) % 60 === 0 && n > 5) m.clock.advance(60);
      last = await reply(m, adminReply(`<p>${n}</p>`));
      expect(last.status).toBe(200);
    }
    expect(last.body.conversation_parts.total_count).toBe(500);
    expect(partIds(last.body)[0]).toBe('2');
    expect(partIds(last.body).at(-1)).toBe('501');
  });
});

describe('GET /conversations page size', () => {
  it('is 20 when none is asked for, as the real API\'s; per_page still sets it', async () => {
    const m = mock();
    for (let i = 0; i < 3; i++) expect((await m.call('POST', '/messages', { body: { from: { type: 'user', id: ADA }, body: `m${i}` } })).status).toBe(200);
    const first = await m.call('GET', '/conversations');
    expect(first.body.conversations).toHaveLength(20);
    expect(first.body.pages).toMatchObject({ page: 1, per_page: 20, total_pages: 2 });
    expect(first.body.pages.next).toBe('http://localhost/conversations?page=2');
    const wide = await m.call('GET', '/conversations?per_page=50');
    expect(wide.body.conversations).toHaveLength(21);
  });
});
