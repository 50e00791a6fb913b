// Webhook deliveries to a real receiver on 127.0.0.1: topics, the notification_event envelope,
// headers and signature, order per subscription, the retry after a 500, the feeds and the journal,
// and a receiver that never answers. Deliveries are flushed with POST /__admin/jobs/run, so no test
// sleeps.

import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADA, GROUP, VISITOR } from '../../fixture-ids.js';
import { mock, TEST_NOW, type TestMock } from '../../helpers.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
  body: any;
}

let server: Server;
let base = '';
let received: Received[] = [];
/** What the receiver answers per path: a list of statuses used in turn (the last one repeats); 0 = never answer. */
let answers = new Map<string, number[]>();
const held: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, text, body: JSON.parse(text) });
      const plan = answers.get(path) ?? [200];
      const status = plan.length > 1 ? (plan.shift() as number) : (plan[0] as number);
      if (status === 0) {
        held.push(res);
        return;
      }
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : `status ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  answers = new Map();
});

const run = async (m: TestMock) => {
  const res = await m.call('POST', '/__admin/jobs/run?app=demo', { token: null });
  expect(res.status).toBe(200);
  return res.body.ran as number;
};

async function subscribed(m: TestMock, body: Record<string, unknown>) {
  const res = await m.call('POST', '/subscriptions', { body });
  expect(res.status, res.text).toBe(200);
  // Drain the seeded enrichment jobs so counts below are the deliveries only.
  return res.body as { id: string };
}

async function fresh(options: Parameters<typeof mock>[0] = {}): Promise<TestMock> {
  const m = mock(options);
  await run(m);
  return m;
}

const topicsOf = (list: Received[]) => list.map((r) => r.body.topic);

/** A REST user, lead or company as webhooks carry it: these dates as ISO-8601 strings (research §1.5). */
function iso(rest: Record<string, unknown>): Record<string, unknown> {
  const out = { ...rest };
  for (const key of ['created_at', 'updated_at', 'signed_up_at', 'remote_created_at', 'last_request_at']) {
    if (typeof out[key] === 'number') out[key] = new Date((out[key] as number) * 1000).toISOString();
  }
  return out;
}

describe('webhook delivery', () => {
  it('POSTs a signed notification_event for user.created with the research brief\'s headers and envelope, and records it in the sent feed and the journal', async () => {
    const m = await fresh();
    const sub = await subscribed(m, { url: `${base}/signed`, topics: ['user.created'], hub_secret: 's3cret' });
    const created = await m.call('POST', '/users', { body: { user_id: 'hook-1', email: 'hook@example.com' } });
    expect(received).toEqual([]);
    await run(m);
    expect(received).toHaveLength(1);
    const [got] = received as [Received];
    expect(got.path).toBe('/signed');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers.accept).toBe('application/json');
    expect(got.headers['user-agent']).toBe('intercom-parrot-service-client/1.0');
    expect(got.headers['x-hub-signature']).toBe(`sha1=${createHmac('sha1', 's3cret').update(got.text).digest('hex')}`);
    expect(Object.keys(got.body)).toEqual(['type', 'app_id', 'data', 'links', 'id', 'topic', 'delivery_status', 'delivery_attempts', 'delivered_at', 'first_sent_at', 'created_at', 'self']);
    expect(got.body).toMatchObject({
      type: 'notification_event',
      app_id: 'demo',
      data: { type: 'notification_event_data', item: iso(created.body) },
      links: {},
      topic: 'user.created',
      delivery_status: 'pending',
      delivery_attempts: 1,
      delivered_at: 0,
      first_sent_at: TEST_NOW,
      created_at: TEST_NOW,
      self: null,
    });
    expect(got.body.data.item).toMatchObject({ created_at: new Date(TEST_NOW * 1000).toISOString(), updated_at: new Date(TEST_NOW * 1000).toISOString() });
    expect(got.body.id).toMatch(/^notif_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const sent = await m.call('GET', `/subscriptions/${sub.id}/sent`);
    expect(sent.status).toBe(200);
    expect(sent.body.type).toBe('notification.list');
    expect(sent.body.notifications).toEqual([{ ...got.body, delivery_status: 'delivered', delivered_at: TEST_NOW }]);
    expect((await m.call('GET', `/subscriptions/${sub.id}/error`)).body.notifications).toEqual([]);

    const journal = await m.call('GET', '/__admin/requests?app=demo&operationId=webhookDelivery', { token: null });
    expect(journal.body.requests).toEqual([
      expect.objectContaining({ method: 'POST', path: `${base}/signed`, status: 200, operationId: 'webhookDelivery', request_id: got.body.id, body: got.body, touched: [sub.id, got.body.id] }),
    ]);
  });

  it('sends no X-Hub-Signature without a hub_secret', async () => {
    const m = await fresh();
    await subscribed(m, { url: `${base}/plain`, topics: ['user.created'] });
    await m.call('POST', '/users', { body: { user_id: 'hook-2' } });
    await run(m);
    expect(received.map((r) => r.headers['x-hub-signature'])).toEqual([undefined]);
  });

  it('delivers the user topics in the order the writes happened, user.deleted with a minimal item', async () => {
    const m = await fresh();
    await subscribed(m, { url: `${base}/users`, topics: ['user.created', 'user.updated', 'user.tag.created', 'user.tag.deleted', 'user.deleted'] });
    const u = (await m.call('POST', '/users', { body: { user_id: 'order-1', email: 'order@example.com' } })).body;
    await m.call('POST', '/users', { body: { user_id: 'order-1', name: 'Renamed' } });
    const tag = (await m.call('POST', '/tags', { body: { name: 'VIP', users: [{ id: u.id }] } })).body;
    await m.call('POST', '/tags', { body: { name: 'VIP', users: [{ id: u.id, untag: true }] } });
    await m.call('DELETE', `/users/${u.id}`);
    await run(m);
    expect(topicsOf(received)).toEqual(['user.created', 'user.updated', 'user.tag.created', 'user.tag.deleted', 'user.deleted']);
    expect(received[1]!.body.data.item.name).toBe('Renamed');
    expect(received[2]!.body.data.item).toMatchObject({ type: 'user_tag', tag: { type: 'tag', id: tag.id, name: 'VIP' }, user: { type: 'user', id: u.id } });
    expect(received[4]!.body.data.item).toEqual({ type: 'user', id: u.id, user_id: 'order-1', email: 'order@example.com' });
    // Each notification has its own id.
    expect(new Set(received.map((r) => r.body.id)).size).toBe(5);
  });

  it('delivers the lead topics: created, added email, tag, signed up (converted into a user)', async () => {
    const m = await fresh();
    await subscribed(m, { url: `${base}/leads`, topics: ['contact.created', 'contact.added_email', 'contact.tag.created', 'contact.signed_up', 'user.created'] });
    const lead = (await m.call('POST', '/contacts', { body: { name: 'New lead' } })).body;
    await m.call('PUT', `/contacts/${lead.id}`, { body: { email: 'lead@example.com' } });
    await m.call('POST', '/tags', { body: { name: 'Warm', users: [{ id: lead.id }] } });
    const user = await m.call('POST', '/contacts/convert', { body: { contact: { id: lead.id }, user: { user_id: 'converted-1' } } });
    expect(user.status).toBe(200);
    await run(m);
    expect(topicsOf(received)).toEqual(['contact.created', 'contact.added_email', 'contact.tag.created', 'contact.signed_up']);
    expect(received[0]!.body.data.item).toMatchObject({ type: 'contact', id: lead.id });
    expect(received[2]!.body.data.item).toMatchObject({ type: 'contact_tag', contact: { type: 'contact', id: lead.id }, tag: { name: 'Warm' } });
    expect(received[3]!.body.data.item).toEqual(iso(user.body));
    expect(received[0]!.body.data.item).toEqual(iso(lead));
  });

  it('delivers user.created for a visitor converted into a user', async () => {
    const m = await fresh();
    await subscribed(m, { url: `${base}/visitors`, topics: ['user.created', 'contact.created', 'visitor.signed_up'] });
    const user = await m.call('POST', '/visitors/convert', { body: { visitor: { id: VISITOR }, user: { user_id: 'from-visitor' }, type: 'user' } });
    expect(user.status).toBe(200);
    await run(m);
    expect(received.map((r) => [r.body.topic, r.body.data.item])).toEqual([
      ['user.created', iso(user.body)],
      ['visitor.signed_up', iso(user.body)],
    ]);
  });

  it('delivers user.email.updated and user.unsubscribed', async () => {
    const m = await fresh();
    await subscribed(m, { url: `${base}/email`, topics: ['user.email.updated', 'user.unsubscribed'] });
    await m.call('POST', '/users', { body: { user_id: 'ada-1', email: 'ada.new@example.com' } });
    const last = await m.call('POST', '/users', { body: { user_id: 'ada-1', unsubscribed_from_emails: true } });
    await run(m);
    expect(received.map((r) => r.body.topic)).toEqual(['user.email.updated', 'user.unsubscribed']);
    expect(received[1]!.body.data.item).toEqual(iso(last.body));
  });

  /** Every conversation topic, in the order the writes below cause them. */
  const CONVERSATION_TOPICS = [
    'conversation.user.created',
    'conversation.user.replied',
    'conversation.admin.replied',
    'conversation.admin.noted',
    'conversation.admin.assigned',
    'conversation.admin.closed',
    'conversation.admin.opened',
    'conversation.admin.snoozed',
    'conversation.admin.unsnoozed',
  ];

  it('delivers the conversation topics with the conversation as the item', async () => {
    const m = await fresh();
    await subscribed(m, {
      url: `${base}/conversations`,
      topics: [...CONVERSATION_TOPICS],
    });
    const reply = (body: Record<string, unknown>) => m.call('POST', `/conversations/${GROUP}/reply`, { body });
    const admin = (message_type: string, extra: Record<string, unknown> = {}) => reply({ type: 'admin', admin_id: '814860', message_type, ...extra });
    expect((await m.call('POST', '/messages', { body: { from: { type: 'user', id: ADA }, body: 'Help please' } })).status).toBe(200);
    expect((await reply({ type: 'user', intercom_user_id: ADA, message_type: 'comment', body: 'Still there?' })).status).toBe(200);
    expect((await admin('comment', { body: 'Yes' })).status).toBe(200);
    expect((await admin('note', { body: 'Internal' })).status).toBe(200);
    expect((await admin('assignment', { assignee_id: '991267' })).status).toBe(200);
    expect((await admin('close')).status).toBe(200);
    expect((await admin('open')).status).toBe(200);
    expect((await admin('snoozed', { snoozed_until: TEST_NOW + 3600 })).status).toBe(200);
    const last = await admin('open');
    expect(last.status).toBe(200);
    await run(m);
    expect(topicsOf(received)).toEqual(CONVERSATION_TOPICS);
    // The conversation as webhooks carried it: int dates, the user with its identity, only the new part.
    const ada = (await m.call('GET', `/users/${ADA}`)).body;
    const parts = last.body.conversation_parts.conversation_parts;
    expect(received.at(-1)!.body.data.item).toEqual({
      ...last.body,
      user: { type: 'user', id: ADA, user_id: ada.user_id, name: ada.name, email: ada.email, do_not_track: null },
      conversation_parts: { type: 'conversation_part.list', conversation_parts: [parts.at(-1)], total_count: 1 },
    });
    expect(received[0]!.body.data.item.conversation_parts).toEqual({ type: 'conversation_part.list', conversation_parts: [], total_count: 0 });
    expect(received[0]!.body.data.item.assignee).toEqual({ type: 'nobody_admin', id: null });
  });

  it('delivers company.created, and event.created only for the event names the metadata lists', async () => {
    const m = await fresh();
    await subscribed(m, { url: `${base}/misc`, topics: ['company.created', 'event.created'], metadata: { event_names: ['invited-friend'] } });
    await m.call('POST', '/companies', { body: { company_id: 'hooks-co', name: 'Hooks Co' } });
    expect((await m.call('POST', '/events', { body: { event_name: 'placed-order', created_at: TEST_NOW, user_id: 'ada-1' } })).status).toBe(202);
    expect((await m.call('POST', '/events', { body: { event_name: 'invited-friend', created_at: TEST_NOW, user_id: 'ada-1' } })).status).toBe(202);
    await run(m);
    expect(topicsOf(received)).toEqual(['company.created', 'event.created']);
    expect(received[0]!.body.data.item).toMatchObject({ type: 'company', company_id: 'hooks-co' });
    expect(received[1]!.body.data.item).toMatchObject({ type: 'event', event_name: 'invited-friend' });
  });

  it('sends nothing for a rejected request, nor for topics not subscribed', async () => {
    const m = await fresh();
    await subscribed(m, { url: `${base}/none`, topics: ['company.created', 'user.tag.created'] });
    const inactive = await subscribed(m, { url: `${base}/none`, topics: ['user.created'] });
    expect((await m.call('POST', `/subscriptions/${inactive.id}`, { body: { active: false } })).body.active).toBe(false);
    // Tags Ada, then meets an unknown user: the whole request is undone, so nothing is owed.
    const tagsBefore = (await m.call('GET', `/users/${ADA}`)).body.tags;
    const rejected = await m.call('POST', '/tags', { body: { name: 'Nope', users: [{ id: ADA }, { id: 'missing' }] } });
    expect(rejected.status).toBe(404);
    expect((await m.call('GET', `/users/${ADA}`)).body.tags).toEqual(tagsBefore);
    await m.call('POST', '/users', { body: { user_id: 'quiet' } });
    expect(await run(m)).toBe(0);
    expect(received).toEqual([]);
  });

  it('retries a failed delivery once, a minute later on the mock\'s clock, with the same id and delivery_attempts 2', async () => {
    const m = await fresh();
    answers.set('/flaky', [500, 200]);
    const sub = await subscribed(m, { url: `${base}/flaky`, topics: ['user.created'] });
    await m.call('POST', '/users', { body: { user_id: 'retry-1' } });
    await run(m);
    expect(received.map((r) => r.body.delivery_attempts)).toEqual([1]);
    const errors = (await m.call('GET', `/subscriptions/${sub.id}/error`)).body.notifications;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ id: received[0]!.body.id, delivery_status: 'failed', delivery_attempts: 1 });
    expect(errors[0].http_request).toMatchObject({
      request_method: 'POST',
      request_uri: `${base}/flaky`,
      request_headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'User-Agent': 'intercom-parrot-service-client/1.0' },
      request_entity: received[0]!.text,
      response_status_code: 500,
      response_headers: { 'content-type': 'text/plain' },
      response_entity: 'status 500',
    });
    expect((await m.call('GET', `/subscriptions/${sub.id}/errors`)).body).toEqual((await m.call('GET', `/subscriptions/${sub.id}/error`)).body);
    // Not due yet: a request 59 s later sends nothing.
    m.clock.advance(59);
    await m.call('GET', '/users?per_page=1');
    await m.store.webhooks!.settled();
    expect(received).toHaveLength(1);
    m.clock.advance(1);
    await m.call('GET', '/users?per_page=1');
    await m.store.webhooks!.settled();
    expect(received).toHaveLength(2);
    expect(received[1]!.body).toEqual({ ...received[0]!.body, delivery_attempts: 2 });
    const sent = (await m.call('GET', `/subscriptions/${sub.id}/sent`)).body.notifications;
    expect(sent).toEqual([expect.objectContaining({ id: received[0]!.body.id, delivery_attempts: 2, delivery_status: 'delivered' })]);
  });

  it('gives up after the retry fails too, and deactivates a subscription whose receiver answers 410', async () => {
    const m = await fresh();
    answers.set('/down', [503]);
    answers.set('/gone', [410]);
    const down = await subscribed(m, { url: `${base}/down`, topics: ['user.created'] });
    const gone = await subscribed(m, { url: `${base}/gone`, topics: ['user.created'] });
    await m.call('POST', '/users', { body: { user_id: 'fail-1' } });
    await run(m);
    await run(m);
    expect(await run(m)).toBe(0);
    expect(received.filter((r) => r.path === '/down').map((r) => r.body.delivery_attempts)).toEqual([1, 2]);
    expect(received.filter((r) => r.path === '/gone')).toHaveLength(1);
    expect((await m.call('GET', `/subscriptions/${down.id}/error`)).body.notifications).toHaveLength(2);
    expect((await m.call('GET', `/subscriptions/${gone.id}`)).body.active).toBe(false);
  });

  it('keeps answering API requests while a receiver never answers; the attempt times out into the error feed', async () => {
    const m = await fresh({ webhookTimeoutMs: 300 });
    answers.set('/hang', [0]);
    const sub = await subscribed(m, { url: `${base}/hang`, topics: ['user.created', 'user.updated'] });
    const before = await m.call('POST', '/users', { body: { user_id: 'hang-1' } });
    // Due now: the next request hands it to the delivery module, which sends it in the background.
    m.clock.advance(m.store.jobDelaySeconds);
    const during = await m.call('POST', '/users', { body: { user_id: 'hang-1', name: 'Still served' } });
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ id: before.body.id, name: 'Still served' });
    expect((await m.call('GET', `/users/${before.body.id}`)).body.name).toBe('Still served');
    await m.store.webhooks!.settled();
    const errors = (await m.call('GET', `/subscriptions/${sub.id}/error`)).body.notifications;
    expect(errors).toHaveLength(1);
    expect(errors[0].http_request).toMatchObject({ response_status_code: 0, response_entity: 'No response within 300 ms' });
  });

  it('queues no retry for a subscription deleted while its attempt was out, so the export still seeds back', async () => {
    const m = await fresh({ webhookTimeoutMs: 200 });
    answers.set('/gone-meanwhile', [0]);
    const sub = await subscribed(m, { url: `${base}/gone-meanwhile`, topics: ['user.created'] });
    await m.call('POST', '/users', { body: { user_id: 'meanwhile-1' } });
    m.clock.advance(m.store.jobDelaySeconds);
    await m.call('GET', '/users?per_page=1'); // hands the delivery over; the receiver holds it
    expect((await m.call('DELETE', `/subscriptions/${sub.id}`)).status).toBe(200);
    await m.store.webhooks!.settled();
    const state = JSON.parse((await m.call('GET', '/__admin/state?app=demo', { token: null })).text);
    expect(state.jobs.filter((j: { kind: string }) => j.kind === 'webhook')).toEqual([]);
    expect((await m.call('POST', '/__admin/seed', { token: null, body: state })).status).toBe(200);
  });

  it('gives the same notification ids and bodies for the same requests', async () => {
    const bodies: string[][] = [];
    for (let i = 0; i < 2; i++) {
      received = [];
      const m = await fresh();
      await subscribed(m, { url: `${base}/same`, topics: ['user.created', 'company.created'], hub_secret: 'k' });
      await m.call('POST', '/users', { body: { user_id: 'same-1' } });
      await m.call('POST', '/companies', { body: { company_id: 'same-co' } });
      await run(m);
      bodies.push(received.map((r) => `${r.headers['x-hub-signature']} ${r.text}`));
    }
    expect(bodies[0]).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
  });

  it('delivers a ping on POST /subscriptions/{id}/ping', async () => {
    const m = await fresh();
    const sub = await subscribed(m, { url: `${base}/ping`, topics: ['company.created'] });
    const res = await m.call('POST', `/subscriptions/${sub.id}/ping`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(sub.id);
    await run(m);
    expect(received.map((r) => [r.body.topic, r.body.data.item])).toEqual([['ping', { type: 'ping', message: "shipping is your company's heartbeat" }]]);
  });
});
