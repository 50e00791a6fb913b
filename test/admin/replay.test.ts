// Determinism across resets: the same requests after a reset, a seed or a snapshot restore get
// byte-identical responses (status, headers with X-Request-Id, body with every id), because those
// rewind the app's id, random, request-id and fault streams; `ids=fresh` keeps them running.

import { describe, expect, it } from 'vitest';
import type { FixtureInput } from '../../src/fixtures/fixture-doc.js';
import { startMockServer } from '../../src/testing.js';
import { mock, TEST_NOW, type TestMock } from '../helpers.js';

const CONVERSATION = '5714dd359a3fd47136000501';

type Step = [method: string, path: string, body?: unknown];

/** Writes that draw every kind of id: object ids, lead user_ids and pseudonyms, tag ids, part ids, jobs. */
const WRITES: Step[] = [
  ['POST', '/users', { user_id: 'replay-1', email: 'replay-1@example.com', last_seen_ip: '81.2.69.160', companies: [{ company_id: 'replay-co', name: 'Replay Co' }] }],
  ['POST', '/contacts', {}],
  ['POST', '/contacts', { name: 'Second lead' }],
  ['POST', '/tags', { name: 'Replayed', users: [{ user_id: 'replay-1' }] }],
  ['POST', '/companies', { company_id: 'replay-co-2', name: 'Second' }],
  ['POST', `/conversations/${CONVERSATION}/reply`, { type: 'admin', admin_id: '814860', message_type: 'comment', body: '<p>again</p>' }],
  ['POST', '/users', { user_id: 'replay-bad', signed_up_at: 'yesterday' }],
  ['GET', '/users/nope'],
  ['GET', '/contacts?per_page=3'],
  ['GET', '/counts'],
];

/** Each response in full: status, every header (X-Request-Id, rate-limit headers) and the body text. */
async function run(m: TestMock, token = 'demo-token', steps: Step[] = WRITES): Promise<string[]> {
  const out: string[] = [];
  for (const [method, path, body] of steps) {
    const res = await m.call(method, path, { token, ...(body === undefined ? {} : { body }) });
    out.push(`${method} ${path} -> ${res.status} ${JSON.stringify([...res.headers])}\n${res.text}`);
  }
  return out;
}

/** A request that names no app: its id comes from the store's stream, which only a reset of every app rewinds. */
async function anonymous(m: TestMock): Promise<string> {
  const res = await m.call('GET', '/admins', { token: 'no-such-token' });
  return `${res.status} ${JSON.stringify([...res.headers])}\n${res.text}`;
}

const admin = (m: TestMock, method: string, path: string, body?: unknown) => m.call(method, path, { token: null, ...(body === undefined ? {} : { body }) });

/** What a run got handed out: every X-Request-Id, and the ids (and lead user_ids) of what it created. */
function handedOut(responses: string[]): string[] {
  return responses.flatMap((r) => {
    const [head = '', text = ''] = r.split('\n', 2);
    const requestId = /"x-request-id","([a-z0-9]+)"/.exec(head)?.[1];
    const created = / -> 200 /.test(head) && /^POST \/(users|contacts|companies|tags) /.test(head) ? (JSON.parse(text) as { id: string; user_id?: string }) : undefined;
    const lead = head.startsWith('POST /contacts') ? created?.user_id : undefined;
    return [requestId, created?.id, lead].filter((x): x is string => x !== undefined);
  });
}

describe('a reset rewinds the app\'s streams', () => {
  it('gives byte-identical responses, ids and request ids included, to the same requests after a whole-store reset', async () => {
    const m = mock();
    await admin(m, 'POST', '/__admin/reset');
    const first = [...(await run(m)), await anonymous(m)];
    expect(first[0]).toContain('"user_id":"replay-1"');
    expect(first[1]).toMatch(/"pseudonym":"[A-Z]/);
    expect(first.at(-1)).toMatch(/^401 /);
    expect(await admin(m, 'POST', '/__admin/reset')).toMatchObject({ status: 200 });
    expect([...(await run(m)), await anonymous(m)]).toEqual(first);
  });

  it('does the same after a reset of one app, and leaves the other app\'s streams where they are', async () => {
    const m = mock();
    const first = await run(m);
    const otherBefore = (await m.call('POST', '/contacts', { token: 'other-token', body: {} })).body;
    expect((await admin(m, 'POST', '/__admin/reset?app=demo')).body).toEqual({ reset: ['demo'] });
    expect(await run(m)).toEqual(first);
    const otherAfter = (await m.call('POST', '/contacts', { token: 'other-token', body: {} })).body;
    expect(otherAfter.id).not.toBe(otherBefore.id);
    expect(otherAfter.user_id).not.toBe(otherBefore.user_id);
  });

  it('rewinds a provisioned test_ app the same way, reset by its token', async () => {
    const m = mock();
    const token = 'test_replay';
    const first = await run(m, token);
    expect(first[0]).toContain('"user_id":"replay-1"');
    const reset = await m.call('POST', '/__admin/reset', { token });
    expect(reset.body).toEqual({ reset: ['test_replay'] });
    expect(await run(m, token)).toEqual(first);
  });

  it('rewinds the draws of a fault with a fraction', async () => {
    const m = mock();
    expect((await admin(m, 'POST', '/__admin/faults?app=demo', { error: 'server_error', fraction: 0.5, operation_id: 'listAdmins' })).status).toBe(201);
    const statuses = async () => {
      const out: number[] = [];
      for (let i = 0; i < 16; i++) out.push((await m.call('GET', '/admins')).status);
      return out;
    };
    const first = await statuses();
    expect(new Set(first)).toEqual(new Set([200, 500]));
    await admin(m, 'POST', '/__admin/reset?app=demo');
    expect(await statuses()).toEqual(first);
  });

  it('with ?ids=fresh keeps the streams running: nothing handed out before is handed out again', async () => {
    const m = mock();
    const first = await run(m);
    expect((await admin(m, 'POST', '/__admin/reset?ids=fresh')).status).toBe(200);
    const second = await run(m);
    expect(second).not.toEqual(first);
    // 10 request ids; ids of the user, both leads (and their user_ids), the company and the tag.
    expect(handedOut(first)).toHaveLength(17);
    const before = new Set(handedOut(first));
    expect(handedOut(second).filter((id) => before.has(id))).toEqual([]);
    // The state itself is the seeded one again: the user made before the reset is gone.
    expect((await m.call('GET', `/users/${JSON.parse(first[0]!.split('\n')[1]!).id}`)).status).toBe(404);
  });

  it('refuses an ids value it does not know with 400 parameter_invalid, resetting nothing', async () => {
    const m = mock();
    const created = await m.call('POST', '/users', { body: { user_id: 'stays' } });
    const res = await admin(m, 'POST', '/__admin/reset?ids=never');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { code: string }) => e.code)).toEqual(['parameter_invalid']);
    expect((await m.call('GET', `/users/${created.body.id}`)).status).toBe(200);
  });
});

const DOC: FixtureInput = {
  app: { id: 'seeded', tokens: ['seeded-token'] },
  admins: [{ id: '814860', name: 'Ciaran', email: 'ciaran@example.com' }],
  customers: [{ id: '5714dd359a3fd47136000001', user_id: 'ada-1', email: 'ada@example.com' }],
  conversations: [{ id: CONVERSATION, customers: ['5714dd359a3fd47136000001'], author: { type: 'user', id: '5714dd359a3fd47136000001' }, body: '<p>Hi</p>' }],
  generate: { users: 5, leads: 2, companies: 2 },
};

describe('a seed rewinds the app\'s streams to the seeded state', () => {
  it('gives byte-identical responses after the same document is seeded again (replace)', async () => {
    const m = mock();
    expect((await admin(m, 'POST', '/__admin/seed', DOC)).status).toBe(200);
    const first = await run(m, 'seeded-token');
    expect(first[0]).toContain('"user_id":"replay-1"');
    expect((await admin(m, 'POST', '/__admin/seed', DOC)).status).toBe(200);
    expect(await run(m, 'seeded-token')).toEqual(first);
  });

  it('makes a merged state what a reset returns to, streams included', async () => {
    const m = mock();
    await run(m);
    const merge = { app: { id: 'demo', tokens: ['demo-token'] }, generate: { users: 3, leads: 1 } };
    expect((await admin(m, 'POST', '/__admin/seed?mode=merge', merge)).status).toBe(200);
    const first = await run(m, 'demo-token', WRITES.slice(1));
    await admin(m, 'POST', '/__admin/reset?app=demo');
    expect(await run(m, 'demo-token', WRITES.slice(1))).toEqual(first);
  });

  it('with ?ids=fresh keeps counting: a re-seed hands out none of the ids handed out before', async () => {
    const m = mock();
    await admin(m, 'POST', '/__admin/seed', DOC);
    const first = await run(m, 'seeded-token');
    await admin(m, 'POST', '/__admin/seed?ids=fresh', DOC);
    const second = await run(m, 'seeded-token');
    const before = new Set(handedOut(first));
    expect(handedOut(second).filter((id) => before.has(id))).toEqual([]);
    // ...and a later reset comes back to the streams as the fresh seed left them.
    await admin(m, 'POST', '/__admin/reset?app=seeded');
    expect(await run(m, 'seeded-token')).toEqual(second);
  });
  it('skips an id the seeded document holds when the rewound stream draws it again', async () => {
    const m = mock();
    const doc = { app: { id: 'ids', tokens: ['ids-token'] }, customers: [{ id: '5714dd359a3fd47136000001', user_id: 'ada-1' }] };
    const create = (userId: string) => m.call('POST', '/users', { token: 'ids-token', body: { user_id: userId } });
    await admin(m, 'POST', '/__admin/seed', doc);
    const drawn = (await create('first')).body.id as string;
    // The same document plus a user holding the id the stream draws first: the new user gets the next one.
    const held = { id: drawn, user_id: 'held', email: 'held@example.com' };
    expect((await admin(m, 'POST', '/__admin/seed', { ...doc, customers: [...doc.customers, held] })).status).toBe(200);
    const created = await create('second');
    expect(created.status).toBe(200);
    expect(created.body.id).not.toBe(drawn);
    // Ids keep counting up from there (same second, so they sort in the order they were made).
    const third = (await create('third')).body.id as string;
    expect(third > created.body.id).toBe(true);
    expect((await m.call('GET', `/users/${drawn}`, { token: 'ids-token' })).body).toMatchObject({ user_id: 'held', email: 'held@example.com' });
    expect((await m.call('GET', '/users?per_page=10', { token: 'ids-token' })).body.total_count).toBe(4);
  });

  it('with ?ids=fresh counts object ids on from the records the document generated', async () => {
    const m = mock();
    const counter = (id: string) => parseInt(id.slice(-6), 16);
    await admin(m, 'POST', '/__admin/seed', DOC);
    await run(m, 'seeded-token');
    await admin(m, 'POST', '/__admin/seed?ids=fresh', DOC);
    const state = JSON.parse((await admin(m, 'GET', '/__admin/state?app=seeded')).text) as { customers: { id: string }[]; companies: { id: string }[] };
    const generated = [...state.customers, ...state.companies].map((r) => r.id).filter((id) => id !== DOC.customers?.[0]?.id);
    expect(generated).toHaveLength(9);
    const made = await m.call('POST', '/users', { token: 'seeded-token', body: { user_id: 'after-fresh' } });
    // One counter numbers every object id the app makes, generated or written: the next one is past them all.
    expect(counter(made.body.id)).toBe(Math.max(...generated.map(counter)) + 1);
  });

  it('with ?ids=fresh keeps counting job ids too: a queued job never takes the id of one queued before', async () => {
    const m = mock();
    const jobIds = async () => (JSON.parse((await admin(m, 'GET', '/__admin/state?app=seeded')).text).jobs as { id: number }[]).map((j) => j.id);
    const enrich = async (userId: string) => expect((await m.call('POST', '/users', { token: 'seeded-token', body: { user_id: userId, last_seen_ip: '81.2.69.160' } })).status).toBe(200);
    await admin(m, 'POST', '/__admin/seed', DOC);
    await enrich('first-1');
    await enrich('first-2');
    const first = await jobIds();
    expect(first).toHaveLength(2);
    // The document queues no job, so its own counter would start again at 1.
    await admin(m, 'POST', '/__admin/seed?ids=fresh', DOC);
    expect(await jobIds()).toEqual([]);
    await enrich('second-1');
    const [second] = await jobIds();
    expect(second).toBe(Math.max(...first) + 1);
  });
});

describe('a snapshot restore rewinds the app\'s streams to where they stood when it was taken', () => {
  it('gives byte-identical responses, rate-limit headers included, to the same requests after each restore', async () => {
    const m = mock();
    await run(m, 'demo-token', WRITES.slice(0, 2));
    expect((await admin(m, 'POST', '/__admin/snapshots?app=demo', { name: 'warm' })).status).toBe(201);
    const first = await run(m);
    expect((await admin(m, 'POST', '/__admin/snapshots/warm/restore?app=demo')).status).toBe(200);
    expect(await run(m)).toEqual(first);
    await admin(m, 'POST', '/__admin/snapshots/warm/restore?app=demo');
    expect(await run(m)).toEqual(first);
  });

  it('with ?ids=fresh restores the records but hands out new ids', async () => {
    const m = mock();
    await admin(m, 'POST', '/__admin/snapshots?app=demo', { name: 'start' });
    const first = await run(m);
    await admin(m, 'POST', '/__admin/snapshots/start/restore?app=demo&ids=fresh');
    const second = await run(m);
    const before = new Set(handedOut(first));
    expect(handedOut(second).filter((id) => before.has(id))).toEqual([]);
  });

  it('with ?ids=fresh never gives a new event the id of an event the restored state holds', async () => {
    const m = mock();
    const event = (name: string) => m.call('POST', '/events', { body: { event_name: name, created_at: TEST_NOW - 60, user_id: 'ada-1' } });
    expect((await event('before-snapshot')).status).toBe(202);
    await admin(m, 'POST', '/__admin/snapshots?app=demo', { name: 'with-event' });
    // The reset rewinds the streams to the seed: the next id drawn is the one that event took.
    await admin(m, 'POST', '/__admin/reset?app=demo');
    expect((await admin(m, 'POST', '/__admin/snapshots/with-event/restore?app=demo&ids=fresh')).status).toBe(200);
    expect((await event('after-restore')).status).toBe(202);
    const events = (await m.call('GET', '/events?type=user&user_id=ada-1&per_page=50')).body.events as { id: string; event_name: string }[];
    const ours = events.filter((e) => e.event_name === 'before-snapshot' || e.event_name === 'after-restore');
    expect(ours.map((e) => e.event_name).sort()).toEqual(['after-restore', 'before-snapshot']);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });
});

describe('ControlClient', () => {
  it('passes ids to reset, seed and restore over a real socket', async () => {
    const server = await startMockServer({ now: 1_767_312_000 });
    try {
      const create = async () => {
        const res = await fetch(`${server.url}/contacts`, { method: 'POST', headers: { ...server.headers(), 'content-type': 'application/json' }, body: '{}' });
        return { requestId: res.headers.get('x-request-id'), body: (await res.json()) as { id: string; user_id: string } };
      };
      await server.control.reset();
      const first = await create();
      await server.control.reset({ app: 'demo' });
      expect(await create()).toEqual(first);
      await server.control.reset({ app: 'demo' }, { ids: 'fresh' });
      const fresh = await create();
      expect(fresh.body.id).not.toBe(first.body.id);
      expect(fresh.requestId).not.toBe(first.requestId);

      await server.control.snapshot({ app: 'demo' }, 's');
      const afterSnapshot = await create();
      await server.control.restore({ app: 'demo' }, 's');
      expect(await create()).toEqual(afterSnapshot);
      await server.control.restore({ app: 'demo' }, 's', { ids: 'fresh' });
      expect((await create()).body.id).not.toBe(afterSnapshot.body.id);

      await server.control.seed(DOC);
      const seeded = await fetch(`${server.url}/contacts`, { method: 'POST', headers: { authorization: 'Bearer seeded-token', 'content-type': 'application/json' }, body: '{}' });
      const seededLead = await seeded.text();
      await server.control.seed(DOC, 'replace', { ids: 'rewind' });
      const again = await fetch(`${server.url}/contacts`, { method: 'POST', headers: { authorization: 'Bearer seeded-token', 'content-type': 'application/json' }, body: '{}' });
      expect(await again.text()).toBe(seededLead);
    } finally {
      await server.stop();
    }
  });
});
