// Reads after a removal or a rejected write do not walk the app. Not timed: the work is counted
// (entries a join-log slice visits, walks that build the order index or a sorted index), and must
// stay bounded by the page, not by the 3000 records the app holds.

import { describe, expect, it } from 'vitest';
import { CustomerOrder } from '../../src/resources/customers/order.js';
import type { FixtureInput } from '../../src/fixtures/fixture-doc.js';
import { sliceWork } from '../../src/engine/join-log.js';
import { SortedIndex } from '../../src/engine/sorted-index.js';
import { CowMap } from '../../src/engine/cow.js';
import type { Customer } from '../../src/engine/types.js';
import { errorCodes, mock, type TestMock } from '../helpers.js';
import { removeCustomer, saveCustomer } from '../../src/resources/customers/indexes.js';
import { LIST_WALK_BUDGET } from '../../src/resources/customers/rules.js';

const N = 3000;
const TAG = '7001';
const id = (i: number) => `a0${i.toString(16).padStart(22, '0')}`;
const T0 = 1_400_000_000;

const LEAD = 'b0000000000000000000lead';

/** 3000 users, oldest first in fixture order, all holding one tag, and one lead created between users 2995 and 2996; `limit` caps the app's customers. */
function bigApp(limit?: number): TestMock {
  const m = mock(limit === undefined ? {} : { limits: { customers: limit } });
  const doc: FixtureInput = {
    app: { id: 'demo', tokens: ['demo-token'] },
    tags: [{ id: TAG, name: 'everyone' }],
    customers: [
      ...Array.from({ length: N }, (_, i) => ({ type: 'user' as const, id: id(i), user_id: `u-${i}`, created_at: T0 + 2 * i, updated_at: T0 + 2 * i, tags: [TAG] })),
      { type: 'contact' as const, id: LEAD, user_id: '8a7c6b2e-0000-4000-8000-000000000001', created_at: T0 + 2 * 2995 + 1, updated_at: T0 },
    ],
  };
  m.store.seedApp(doc, 'replace');
  return m;
}

const ids = (res: { body: { users: { id: string }[] } }) => res.body.users.map((u) => u.id);

/** Entries read from any big map (over 1,000 entries) while `run` runs. */
async function entriesRead(run: () => Promise<void>): Promise<number> {
  const entries = CowMap.prototype.entries;
  let walked = 0;
  CowMap.prototype.entries = function* (this: CowMap<unknown>) {
    for (const entry of entries.call(this)) {
      if (this.size > 1000) walked++;
      yield entry;
    }
  };
  try {
    await run();
  } finally {
    CowMap.prototype.entries = entries;
  }
  return walked;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => id(from + i));

describe('no read walks the app after a removal', () => {
  it('reads the last page of a tag\'s holders, descending, after one holder is archived, in work bounded by the page', async () => {
    const m = bigApp();
    expect((await m.call('DELETE', `/users/${id(10)}`)).status).toBe(200);
    sliceWork.visited = 0;
    const res = await m.call('GET', `/users?tag_id=${TAG}&per_page=20&order=desc`);
    expect(res.status).toBe(200);
    expect(res.body.total_count).toBe(N - 1);
    expect(ids(res)).toEqual(range(N - 20, N).reverse());
    const deep = await m.call('GET', `/users?tag_id=${TAG}&per_page=20&page=150`);
    expect(ids(deep)).toEqual(range(2981, N));
    expect(sliceWork.visited).toBeLessThan(400);
  });

  it('pages deep and opens a scroll after an archive without rebuilding the order index', async () => {
    const m = bigApp();
    expect(ids(await m.call('GET', '/users?per_page=20&page=150'))).toEqual(range(2980, N));
    const builds = CustomerOrder.builds;
    expect((await m.call('DELETE', `/users/${id(2990)}`)).status).toBe(200);
    expect(ids(await m.call('GET', '/users?per_page=20&page=150'))).toEqual([...range(2980, 2990), ...range(2991, N)]);
    const scroll = await m.call('GET', '/users/scroll');
    expect(scroll.status).toBe(200);
    expect(ids(scroll)).toEqual(range(0, 100));
    // Archived while the scroll is open: skipped by the scroll, which still sees the order it opened on.
    expect((await m.call('DELETE', `/users/${id(150)}`)).status).toBe(200);
    const next = await m.call('GET', `/users/scroll?scroll_param=${scroll.body.scroll_param}`);
    expect(ids(next)).toEqual([...range(100, 150), ...range(151, 201)]);
    expect(ids(await m.call('GET', '/users?per_page=20&page=8'))).toEqual([...range(140, 150), ...range(151, 161)]);
    expect(CustomerOrder.builds).toBe(builds);
  });

  it('places a lead converted in place among the users without rebuilding the order index', async () => {
    const m = bigApp();
    expect(ids(await m.call('GET', '/users?per_page=20&page=150'))).toEqual(range(2980, N));
    const builds = CustomerOrder.builds;
    const res = await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { user_id: 'converted-1' } } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(LEAD);
    expect(ids(await m.call('GET', '/users?per_page=20&page=150'))).toEqual([...range(2980, 2996), LEAD, ...range(2996, 2999)]);
    expect(ids(await m.call('GET', '/users?per_page=20&page=151'))).toEqual([id(2999)]);
    expect((await m.call('GET', '/contacts')).body.contacts).toEqual([]);
    expect(CustomerOrder.builds).toBe(builds);
  });

  it('pages deep after a reset and after a restore from copies of the seeded order, with the app\'s changes laid over them', async () => {
    const m = bigApp();
    const admin = (path: string, body?: unknown) => m.call('POST', path, { token: null, ...(body === undefined ? {} : { body }) });
    const seededPage = ids(await m.call('GET', '/users?per_page=20&page=150'));
    expect(seededPage).toEqual(range(2980, N));
    const walks = CustomerOrder.baseBuilds;
    // Changes of every kind the overlay holds: an archive, a lead becoming a user in place, a new user.
    expect((await m.call('DELETE', `/users/${id(2990)}`)).status).toBe(200);
    expect((await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { user_id: 'converted-1' } } })).status).toBe(200);
    const created = await m.call('POST', '/users', { body: { user_id: 'newest' } });
    expect(created.status).toBe(200);
    const changed = [...range(2980, 2990), ...range(2991, 2996), LEAD, ...range(2996, N)];
    expect(ids(await m.call('GET', '/users?per_page=20&page=150'))).toEqual(changed);
    expect((await admin('/__admin/snapshots?app=demo', { name: 'changed' })).status).toBe(201);
    expect((await admin('/__admin/reset?app=demo')).status).toBe(200);
    // Entries read from any big map while the pages are read: the short walk a list tries before its index, and no more.
    const walked = await entriesRead(async () => {
      let builds = CustomerOrder.builds;
      expect(ids(await m.call('GET', '/users?per_page=20&page=150'))).toEqual(seededPage);
      expect(CustomerOrder.builds).toBe(builds + 1);
      expect((await admin('/__admin/snapshots/changed/restore?app=demo')).status).toBe(200);
      builds = CustomerOrder.builds;
      expect(ids(await m.call('GET', '/users?per_page=20&page=150'))).toEqual(changed);
      expect(ids(await m.call('GET', '/users?per_page=20&page=151'))).toEqual([created.body.id]);
      expect(CustomerOrder.builds).toBe(builds + 1);
    });
    // Two pages, each a bounded walk that gives up, then the index.
    expect(walked).toBe(2 * (LIST_WALK_BUDGET + 1));
    // Built from the base's lists made once, not by walking the app each time.
    expect(CustomerOrder.baseBuilds).toBe(walks);
  });

  it('sorts a list after a reset and after a restore from a template of the seeded base, with the app\'s changes laid over it', async () => {
    const m = bigApp();
    const admin = (path: string) => m.call('POST', path, { token: null });
    const lists = [`/users?sort=updated_at&per_page=20`, `/users?sort=created_at&order=asc&per_page=20&page=150`, `/users?tag_id=${TAG}&sort=updated_at&per_page=20`];
    const read = async () => Promise.all(lists.map(async (path) => (await m.call('GET', path)).text));
    const seeded = await read();
    const builds = SortedIndex.builds;
    // Changes of every kind: an archive, an update that moves a user to the front, a new user with the tag, a lead made a user.
    expect((await m.call('DELETE', `/users/${id(2999)}`)).status).toBe(200);
    expect((await m.call('POST', '/users', { body: { id: id(5), name: 'moved' } })).status).toBe(200);
    expect((await m.call('POST', '/users', { body: { user_id: 'newest', tags: [{ id: TAG }] } })).status).toBe(200);
    expect((await m.call('POST', '/contacts/convert', { body: { contact: { id: LEAD }, user: { user_id: 'converted-1' } } })).status).toBe(200);
    const changed = await read();
    const first = (text: string | undefined) => (JSON.parse(text as string) as { users: { id: string }[] }).users.map((u) => u.id);
    expect(first(changed[0])).not.toEqual(first(seeded[0]));
    expect(first(changed[2])).not.toEqual(first(seeded[2]));
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'changed' } })).status).toBe(201);
    expect((await admin('/__admin/reset?app=demo')).status).toBe(200);
    const walked = await entriesRead(async () => {
      expect(await read()).toEqual(seeded);
      expect((await admin('/__admin/snapshots/changed/restore?app=demo')).status).toBe(200);
      expect(await read()).toEqual(changed);
    });
    expect(walked).toBe(0);
    // Each list's template was built once, from the seeded base, before the changes.
    expect(SortedIndex.builds).toBe(builds);
  });

  it('keeps the sorted index through a rejected write that had written a company', async () => {
    const m = bigApp(N + 1);
    const first = await m.call('GET', '/users?sort=updated_at&per_page=20');
    expect(ids(first)).toEqual(range(N - 20, N).reverse());
    const builds = SortedIndex.builds;
    const res = await m.call('POST', '/users', { body: { user_id: 'one-too-many', companies: [{ company_id: 'brand-new-co', name: 'New' }] } });
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect((await m.call('GET', '/users?sort=updated_at&per_page=20')).text).toBe(first.text);
    expect(SortedIndex.builds).toBe(builds);
    expect((await m.call('GET', '/companies?per_page=60')).body.companies).toEqual([]);
  });
});

describe('no company list after a reset sorts the app', () => {
  const CO = (i: number) => `c0${i.toString(16).padStart(22, '0')}`;
  const LONELY = 'c0000000000000000000lonely';
  /** 1200 companies with one user each, and one company no user is in (not listed). */
  function companyApp(): TestMock {
    const m = mock();
    m.store.seedApp(
      {
        app: { id: 'demo', tokens: ['demo-token'] },
        companies: [
          ...Array.from({ length: 1200 }, (_, i) => ({ id: CO(i), company_id: `co-${i}`, name: `Co ${i}`, last_request_at: T0 + i })),
          { id: LONELY, company_id: 'lonely', name: 'Lonely', last_request_at: T0 + 5000 },
        ],
        customers: Array.from({ length: 1200 }, (_, i) => ({ type: 'user' as const, id: id(i), user_id: `u-${i}`, created_at: T0 + i, companies: [CO(i)] })),
      },
      'replace',
    );
    return m;
  }
  const names = (res: { body: { companies: { company_id: string }[] } }) => res.body.companies.map((c) => c.company_id);

  it('makes the base\'s list once; after a reset the list is a copy, with the writes since laid over it', async () => {
    const m = companyApp();
    const reset = async () => expect((await m.call('POST', '/__admin/reset?app=demo', { token: null })).status).toBe(200);
    const read = async () => names(await m.call('GET', '/companies?per_page=20&page=3'));
    let builds = SortedIndex.builds;
    const seeded = await read();
    expect(seeded[0]).toBe('co-1159');
    // The base's list (its template), made once.
    expect(SortedIndex.builds).toBe(builds + 1);
    for (let round = 0; round < 2; round++) {
      await reset();
      builds = SortedIndex.builds;
      const walked = await entriesRead(async () => expect(await read()).toEqual(seeded));
      expect(walked).toBe(0);
      expect(SortedIndex.builds).toBe(builds);
    }
    // A user joining the company no one was in, before the first read after a reset: it lists first.
    await reset();
    expect((await m.call('POST', '/users', { body: { user_id: 'joiner', companies: [{ company_id: 'lonely' }] } })).status).toBe(200);
    builds = SortedIndex.builds;
    const walked = await entriesRead(async () => expect(names(await m.call('GET', '/companies?per_page=20')).slice(0, 2)).toEqual(['lonely', 'co-1199']));
    expect(walked).toBe(0);
    expect(SortedIndex.builds).toBe(builds);
    // A snapshot keeps what changed since the seed: its restore's list is a copy with the change.
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'joined' } })).status).toBe(201);
    // The template is the base's still: the next reset's list is the seeded one.
    await reset();
    expect(await read()).toEqual(seeded);
    expect(SortedIndex.builds).toBe(builds);
    expect((await m.call('POST', '/__admin/snapshots/joined/restore?app=demo', { token: null })).status).toBe(200);
    const restored = await entriesRead(async () => expect(names(await m.call('GET', '/companies?per_page=20')).slice(0, 2)).toEqual(['lonely', 'co-1199']));
    expect(restored).toBe(0);
    expect(SortedIndex.builds).toBe(builds);
  });

  it('makes the base\'s list from the base even when the app changed before its first read', async () => {
    const m = companyApp();
    expect((await m.call('POST', '/users', { body: { user_id: 'joiner', companies: [{ company_id: 'lonely' }] } })).status).toBe(200);
    expect(names(await m.call('GET', '/companies?per_page=2'))).toEqual(['lonely', 'co-1199']);
    expect((await m.call('POST', '/__admin/reset?app=demo', { token: null })).status).toBe(200);
    expect(names(await m.call('GET', '/companies?per_page=2'))).toEqual(['co-1199', 'co-1198']);
  });
});

describe('a person\'s notes are read through its index', () => {
  /** Two users; the first with 3000 notes, the second with 2; `values` of the notes map refuses to be walked. */
  function notedApp(): { m: TestMock; reads: () => number } {
    const m = mock();
    const doc: FixtureInput = {
      app: { id: 'demo', tokens: ['demo-token'] },
      admins: [{ id: '1', name: 'Admin', email: 'admin@example.com' }],
      customers: [{ type: 'user', id: id(0), user_id: 'u-0' }, { type: 'user', id: id(1), user_id: 'u-1' }],
      notes: [
        ...Array.from({ length: N }, (_, i) => ({ id: String(10 + i), customer: id(0), admin_id: '1', body: `<p>n${i}</p>` })),
        { id: '5', customer: id(1), admin_id: '1', body: '<p>first</p>' },
        { id: String(10 + N), customer: id(1), admin_id: '1', body: '<p>last</p>' },
      ],
    };
    m.store.seedApp(doc, 'replace');
    const notes = (m.store.app('demo') as NonNullable<ReturnType<typeof m.store.app>>).data.notes;
    let reads = 0;
    const get = notes.get.bind(notes);
    notes.get = (key: string) => {
      reads++;
      return get(key);
    };
    notes.values = () => {
      throw new Error('walked every note of the app');
    };
    return { m, reads: () => reads };
  }

  it('lists any page of a person with 3000 notes reading only that page\'s notes', async () => {
    const { m, reads } = notedApp();
    const first = await m.call('GET', `/notes?id=${id(0)}&per_page=20`);
    expect(first.body.total_count).toBe(N);
    expect(first.body.notes.map((n: { body: string }) => n.body).slice(0, 2)).toEqual([`<p>n${N - 1}</p>`, `<p>n${N - 2}</p>`]);
    const deep = await m.call('GET', `/notes?id=${id(0)}&per_page=20&page=150`);
    expect(deep.body.notes.at(-1).body).toBe('<p>n0</p>');
    expect(reads()).toBeGreaterThanOrEqual(40);
    expect(reads()).toBeLessThanOrEqual(40);
  });

  it('creates a note and lists a person with few notes without reading the others', async () => {
    const { m, reads } = notedApp();
    expect((await m.call('POST', '/notes', { body: { body: 'new', user: { id: id(1) } } })).status).toBe(200);
    const res = await m.call('GET', `/notes?id=${id(1)}`);
    expect(res.body.notes.map((n: { body: string }) => n.body)).toEqual(['<p>new</p>', '<p>last</p>', '<p>first</p>']);
    expect(reads()).toBeGreaterThan(0);
    expect(reads()).toBeLessThanOrEqual(10);
  });
});

describe('no read walks the app after the order index could not follow a change', () => {
  it('brings back a seeded user archived before the order index was built at its place, without a rebuild', async () => {
    const m = bigApp();
    expect((await m.call('DELETE', `/users/${id(2985)}`)).status).toBe(200);
    expect(ids(await m.call('GET', '/users?per_page=20&page=150'))).toEqual([...range(2980, 2985), ...range(2986, N)]);
    const builds = CustomerOrder.builds;
    expect((await m.call('POST', '/users', { body: { id: id(2985) } })).status).toBe(200);
    expect(ids(await m.call('GET', '/users?per_page=20&page=150'))).toEqual(range(2980, N));
    expect(CustomerOrder.builds).toBe(builds);
  });

  it('keeps the order index through a rejected write that had written customers', async () => {
    const m = bigApp();
    const before = await m.call('GET', '/users?per_page=20&page=150');
    const builds = CustomerOrder.builds;
    // No route writes a customer and then fails today; a store write that throws is what the
    // transaction of any such request undoes.
    const app = m.store.app('demo');
    if (app === undefined) throw new Error('no app');
    expect(() =>
      app.transaction(() => {
        removeCustomer(app, app.data.customers.get(id(2990)) as Customer);
        saveCustomer(app, { ...(app.data.customers.get(LEAD) as Customer), type: 'user' });
        saveCustomer(app, { ...(app.data.customers.get(id(0)) as Customer), id: 'a1000000000000000000fresh', user_id: 'fresh' });
        throw new Error('refused after writing');
      }),
    ).toThrow('refused after writing');
    expect((await m.call('GET', '/users?per_page=20&page=150')).text).toBe(before.text);
    expect((await m.call('GET', '/contacts?per_page=20')).body.contacts.map((c: { id: string }) => c.id)).toEqual([LEAD]);
    expect(CustomerOrder.builds).toBe(builds);
  });
});

describe('no company member page walks the company\'s visitors', () => {
  it('reads a page of a company\'s users in work bounded by the page when 3000 of its members are visitors', async () => {
    const m = mock();
    const CO = 'c00000000000000000000001';
    const visitor = (i: number) => ({ type: 'visitor' as const, id: `e0${i.toString(16).padStart(22, '0')}`, user_id: `8a7c6b2e-0000-4000-8000-${String(i).padStart(12, '0')}`, created_at: T0 + i, companies: [CO] });
    m.store.seedApp(
      {
        app: { id: 'demo', tokens: ['demo-token'] },
        companies: [{ id: CO, company_id: 'visited', name: 'Visited' }],
        customers: [
          ...Array.from({ length: N }, (_, i) => visitor(i)),
          ...Array.from({ length: 40 }, (_, i) => ({ type: 'user' as const, id: id(i), user_id: `u-${i}`, created_at: T0 + N + i, companies: [CO] })),
        ],
      },
      'replace',
    );
    sliceWork.visited = 0;
    const res = await m.call('GET', `/companies/${CO}/users?per_page=20&page=2`);
    expect(res.status).toBe(200);
    expect(res.body.total_count).toBe(40);
    expect(ids(res)).toEqual(range(20, 40));
    expect(sliceWork.visited).toBeLessThan(100);
    // A visitor that becomes a lead joins the company's people last.
    expect((await m.call('POST', '/visitors/convert', { body: { visitor: { id: visitor(7).id }, type: 'lead' } })).status).toBe(200);
    const after = await m.call('GET', `/companies/${CO}/users?per_page=20&page=3`);
    expect(after.body.total_count).toBe(41);
    expect(ids(after)).toEqual([visitor(7).id]);
    expect(sliceWork.visited).toBeLessThan(200);
  });
});
