// Prototype pollution: `__proto__`, `constructor` and `prototype` wherever a client or a fixture
// names a key. Bodies are sent as raw text, since JSON.stringify leaves `__proto__` members out.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppState } from '../../src/state/app-state.js';
import { errorCodes, mock, type TestMock } from '../helpers.js';
import { ADA, LEAD, VISITOR, VISITOR_USER_ID } from '../fixture-ids.js';
import { companyByCompanyId } from '../../src/resources/companies/indexes.js';

const KEYS = ['__proto__', 'constructor', 'prototype'] as const;
const json = { 'content-type': 'application/json' };

type Descriptors = [string | symbol, PropertyDescriptor | undefined][];
const descriptorsOf = (o: object): Descriptors => Reflect.ownKeys(o).map((k) => [k, Object.getOwnPropertyDescriptor(o, k)]);
let prototypes: Descriptors[];
const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];

// Every test must leave the built-in prototypes exactly as they were, whatever it sent.
beforeEach(() => {
  prototypes = PROTOTYPES.map(descriptorsOf);
});
afterEach(() => {
  expect(({} as any).polluted).toBeUndefined();
  expect(([] as any).polluted).toBeUndefined();
  expect(PROTOTYPES.map(descriptorsOf)).toEqual(prototypes);
});

const state = async (m: TestMock, app = 'demo') => JSON.parse((await m.call('GET', `/__admin/state?app=${app}`, { token: null })).text) as Record<string, { id?: string; name?: string }[]>;
const post = (m: TestMock, path: string, raw: string, method = 'POST') => m.call(method, path, { raw, headers: json });

/** Every record of the exported state except those named, as they were. */
async function othersUnchanged(m: TestMock, before: Record<string, { id?: string; name?: string }[]>, changed: readonly string[]) {
  const after = await state(m);
  for (const [section, records] of Object.entries(before)) {
    if (!Array.isArray(records) || section === 'jobs' || section === 'data_attributes' || section === 'company_data_attributes') continue;
    const keep = (list: { id?: string }[]) => list.filter((r) => !changed.includes(r.id ?? ''));
    expect(keep(after[section] as { id?: string }[]), section).toEqual(keep(records));
  }
  // Data attributes can only be added (a first write registers a name), never changed.
  expect((after.data_attributes ?? []).slice(0, before.data_attributes?.length)).toEqual(before.data_attributes);
  expect((after.company_data_attributes ?? []).slice(0, before.company_data_attributes?.length)).toEqual(before.company_data_attributes);
}

/** The stored record's custom attributes: a plain object, each hostile name an own data property. */
function expectOwnPlain(attributes: Record<string, unknown>, expected: [string, unknown][]) {
  expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
  for (const [k, v] of expected) {
    expect(Object.hasOwn(attributes, k), k).toBe(true);
    expect(Object.getOwnPropertyDescriptor(attributes, k)?.value).toBe(v);
  }
}

const stored = (m: TestMock, id: string) => m.store.app('demo')?.data.customers.get(id);
const storedCompany = (m: TestMock, companyId: string) => companyByCompanyId(m.store.app('demo') as AppState, companyId);

describe('custom attribute names', () => {
  const targets = [
    { what: 'a user', path: '/users', method: 'POST', ident: '"email":"proto@example.com"' },
    { what: 'a lead', path: '/contacts', method: 'POST', ident: '"name":"Proto lead"' },
    { what: 'a visitor', path: '/visitors', method: 'PUT', ident: `"user_id":"${VISITOR_USER_ID}"` },
    { what: 'a lead updated by PUT /contacts/{id}', path: `/contacts/${LEAD}`, method: 'PUT', ident: '"name":"Proto lead"' },
    { what: 'a visitor updated by PUT /visitors/{id}', path: `/visitors/${VISITOR}`, method: 'PUT', ident: '"name":"Proto visitor"' },
  ];

  for (const { what, path, method, ident } of targets) {
    it(`rejects an object under __proto__ for ${what}, changing nothing`, async () => {
      const m = mock();
      const before = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
      const res = await post(m, path, `{${ident},"custom_attributes":{"__proto__":{"polluted":1}}}`, method);
      expect(res.status).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_invalid']);
      expect(res.body.errors[0].field).toBe('custom_attributes.__proto__');
      expect((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).toBe(before);
    });

    it(`stores __proto__, constructor and prototype as ordinary attributes of ${what} only`, async () => {
      const m = mock();
      const before = await state(m);
      const res = await post(m, path, `{${ident},"custom_attributes":{"__proto__":"p","constructor":1,"prototype":true}}`, method);
      expect(res.status).toBe(200);
      const id = res.body.id as string;
      // The wire shape: JSON.parse makes every member an own property, so hasOwn sees them.
      expect(Object.keys(res.body.custom_attributes)).toEqual(expect.arrayContaining([...KEYS]));
      expect(res.body.custom_attributes).toMatchObject({ constructor: 1, prototype: true });
      expect(Object.getOwnPropertyDescriptor(res.body.custom_attributes, '__proto__')?.value).toBe('p');
      expectOwnPlain(stored(m, id)?.custom_attributes ?? {}, [['__proto__', 'p'], ['constructor', 1], ['prototype', true]]);
      // Read back the same, and a second write of other names keeps them.
      const again = await post(m, path, `{${ident.startsWith('"name"') ? `"id":"${id}"` : ident},"custom_attributes":{"plain":"x"}}`, method);
      expect(again.status).toBe(200);
      expectOwnPlain(stored(m, id)?.custom_attributes ?? {}, [['__proto__', 'p'], ['constructor', 1], ['prototype', true], ['plain', 'x']]);
      await othersUnchanged(m, before, [id]);
      // The registered data attributes carry the names as data too.
      const names = (await m.call('GET', '/data_attributes/customer')).body.data_attributes.filter((a: any) => a.custom).map((a: any) => a.name);
      expect(names).toEqual(expect.arrayContaining([...KEYS]));
    });
  }

  it('stores them on a company, created by POST /companies and by a user\'s companies[]', async () => {
    const m = mock();
    const before = await state(m);
    const direct = await post(m, '/companies', '{"company_id":"proto-co","custom_attributes":{"__proto__":"p","constructor":"c","prototype":0}}');
    expect(direct.status).toBe(200);
    expectOwnPlain(storedCompany(m, 'proto-co')?.custom_attributes ?? {}, [['__proto__', 'p'], ['constructor', 'c'], ['prototype', 0]]);
    const viaUser = await post(m, '/users', '{"user_id":"proto-user","companies":[{"company_id":"proto-co-2","custom_attributes":{"__proto__":1,"constructor":2}}]}');
    expect(viaUser.status).toBe(200);
    expectOwnPlain(storedCompany(m, 'proto-co-2')?.custom_attributes ?? {}, [['__proto__', 1], ['constructor', 2]]);
    await othersUnchanged(m, before, [direct.body.id, viaUser.body.id, viaUser.body.companies.companies[0].id]);
  });

  it('rejects an object under __proto__ in a company\'s attributes, creating neither the company nor the user', async () => {
    const m = mock();
    const before = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
    for (const [path, raw] of [
      ['/companies', '{"company_id":"proto-co","custom_attributes":{"__proto__":{"polluted":1}}}'],
      ['/users', '{"user_id":"proto-user","companies":[{"company_id":"proto-co","custom_attributes":{"__proto__":{"polluted":1}}}]}'],
    ] as const) {
      const res = await post(m, path, raw);
      expect(res.status).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_invalid']);
    }
    expect((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).toBe(before);
  });
});

describe('company members and identifiers', () => {
  it.each(KEYS)('takes %s as an ordinary company_id, from POST /companies and a user\'s companies[]', async (key) => {
    const m = mock();
    const before = await state(m);
    const user = await post(m, '/users', `{"user_id":"member-of-${key}","companies":[{"company_id":"${key}","name":"Named ${key}"}]}`);
    expect(user.status).toBe(200);
    expect(user.body.companies.companies).toEqual([expect.objectContaining({ company_id: key, name: `Named ${key}` })]);
    const update = await post(m, '/companies', `{"company_id":"${key}","plan":"pro"}`);
    expect(update.status).toBe(200);
    expect(update.body).toMatchObject({ company_id: key, name: `Named ${key}`, user_count: 1, plan: { type: 'plan', name: 'pro' } });
    const found = await m.call('GET', `/companies?company_id=${encodeURIComponent(key)}`);
    expect(found.body.id).toBe(update.body.id);
    expect((await m.call('GET', `/companies?company_id=${encodeURIComponent(key)}&type=user`)).body.users.map((u: any) => u.id)).toEqual([user.body.id]);
    await othersUnchanged(m, before, [user.body.id, update.body.id]);
  });

  it('does not read members through a __proto__ member of a company item or of the body', async () => {
    const m = mock();
    const before = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
    // Identifiers hidden under __proto__ identify nothing: each request lacks its required member.
    const cases = [
      ['/companies', '{"__proto__":{"company_id":"evil"}}', 'parameter_not_found'],
      ['/users', '{"__proto__":{"email":"evil@example.com"}}', 'parameter_not_found'],
      ['/users', '{"email":"x@example.com","companies":[{"__proto__":{"company_id":"evil"}}]}', 'parameter_not_found'],
      ['/tags', '{"__proto__":{"name":"evil"}}', 'parameter_not_found'],
    ] as const;
    for (const [path, raw, code] of cases) {
      const res = await post(m, path, raw);
      expect(res.status, `${path} ${raw}`).toBe(400);
      expect(errorCodes(res)).toContain(code);
    }
    expect((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).toBe(before);
    expect(companyByCompanyId(m.store.app('demo') as AppState, 'evil')).toBeUndefined();
  });

  it('keeps a __proto__ member beside real members as inert extra data', async () => {
    const m = mock();
    const res = await post(m, '/users', '{"email":"beside@example.com","__proto__":{"name":"Evil","signed_up_at":1},"companies":[{"company_id":"beside","__proto__":{"plan":"evil"}}]}');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'beside@example.com', name: null, signed_up_at: null });
    expect((await m.call('GET', '/companies?company_id=beside')).body.plan).toBeNull();
  });

  it.each(KEYS)('takes %s as an ordinary tag name, counted under its own key', async (key) => {
    const m = mock();
    const tag = await post(m, '/tags', `{"name":"${key}","users":[{"id":"${ADA}"}],"companies":[{"company_id":"acme"}]}`);
    expect(tag.status).toBe(200);
    expect(tag.body.name).toBe(key);
    // Case-insensitive lookup by name goes through a Map, so the same tag is found again.
    expect((await post(m, '/tags', `{"name":"${key.toUpperCase()}"}`)).body.id).toBe(tag.body.id);
    for (const type of ['user', 'company']) {
      const counts = (await m.call('GET', `/counts?type=${type}&count=tag`)).body[type].tag as Record<string, number>[];
      const entry = counts.find((e) => Object.hasOwn(e, key));
      expect(entry && Object.getOwnPropertyDescriptor(entry, key)?.value, type).toBe(1);
    }
  });
});

describe('fixture keys in POST /__admin/seed', () => {
  const app = (id: string) => `"app":{"id":"${id}","tokens":["${id}-token"]}`;

  it.each([
    ['the document', (inner: string) => `{${app('pollute')},"__proto__":${inner}}`],
    ['app', (inner: string) => `{"app":{"id":"pollute","tokens":["pollute-token"],"__proto__":${inner}}}`],
    ['a customer', (inner: string) => `{${app('pollute')},"customers":[{"id":"c1","email":"c@example.com","__proto__":${inner}}]}`],
    ['a company', (inner: string) => `{${app('pollute')},"companies":[{"id":"co1","company_id":"co","constructor":${inner}}]}`],
    ['generate', (inner: string) => `{${app('pollute')},"generate":{"prototype":${inner}}}`],
  ])('rejects a prototype key as a member of %s, naming it, and creates no app', async (_where, doc) => {
    const m = mock();
    const res = await post(m, '/__admin/seed', doc('{"polluted":1,"rate_limit_per_minute":6}'));
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect(res.body.errors[0].field).toMatch(/(__proto__|constructor|prototype)$/);
    expect(m.store.app('pollute')).toBeUndefined();
    expect((await m.call('GET', '/admins', { token: 'pollute-token' })).status).toBe(401);
  });

  it('seeds prototype names where the format allows any name (ids, custom attributes, generated parts) as ordinary data', async () => {
    const m = mock();
    const doc = `{${app('pollute')},
      "tags":[{"id":"1","name":"__proto__"}],
      "companies":[{"id":"__proto__","company_id":"constructor","custom_attributes":{"__proto__":"p"}}],
      "customers":[{"id":"prototype","email":"p@example.com","companies":["__proto__"],"tags":["1"],"custom_attributes":{"__proto__":1,"constructor":"c"}}],
      "data_attributes":[{"name":"__proto__","data_type":"string"}],
      "generate":{"parts":{"__proto__":3}}}`;
    const res = await post(m, '/__admin/seed', doc);
    expect(res.status).toBe(200);
    expect(res.body.counts).toMatchObject({ customers: 1, companies: 1, tags: 1 });
    const user = await m.call('GET', '/users/prototype', { token: 'pollute-token' });
    expect(user.status).toBe(200);
    expect(user.body.companies.companies).toEqual([{ type: 'company', id: '__proto__', company_id: 'constructor', name: 'constructor' }]);
    expect(Object.getOwnPropertyDescriptor(user.body.custom_attributes, '__proto__')?.value).toBe(1);
    expectOwnPlain(m.store.app('pollute')?.data.customers.get('prototype')?.custom_attributes ?? {}, [['__proto__', 1], ['constructor', 'c']]);
    expect((await m.call('GET', '/companies/__proto__', { token: 'pollute-token' })).body.user_count).toBe(1);
    expect((await m.call('GET', '/companies?company_id=constructor', { token: 'pollute-token' })).body.id).toBe('__proto__');
    // Export then seed gives the same state, prototype names and all.
    const exported = (await m.call('GET', '/__admin/state?app=pollute', { token: null })).text;
    expect((await post(m, '/__admin/seed', exported)).status).toBe(200);
    expect((await m.call('GET', '/__admin/state?app=pollute', { token: null })).text).toBe(exported);
    // demo never saw any of it.
    expect((await m.call('GET', '/users/prototype')).status).toBe(404);
  });

  it('merges a document with prototype-named records into an existing app without touching the rest', async () => {
    const m = mock();
    const before = await state(m);
    const res = await post(m, '/__admin/seed?mode=merge', `{"app":{"id":"demo","tokens":["demo-token"]},"companies":[{"id":"__proto__","company_id":"__proto__","custom_attributes":{"constructor":1}}]}`);
    expect(res.status).toBe(200);
    await othersUnchanged(m, before, ['__proto__']);
    expect((await m.call('GET', '/companies?company_id=__proto__')).body).toMatchObject({ id: '__proto__', custom_attributes: { constructor: 1 } });
  });
});

describe('query parameter names', () => {
  const paths = [
    '/users?__proto__=x&constructor=y&prototype=z&per_page=1',
    '/users?__proto__[polluted]=1&constructor[prototype][polluted]=1&per_page=1',
    '/contacts?__proto__=1&per_page=1',
    '/companies/5714dd359a3fd47136000101/users?constructor=1&per_page=1',
    '/counts?__proto__=1&type=company&count=tag&per_page=1',
    '/conversations?prototype=1&per_page=1',
    '/data_attributes/customer?__proto__=true&include_archived=true',
  ];

  it.each(paths)('answers GET %s as any parameter the operation does not take: ignored with a warning each, under strict mode a 400 naming each, nothing changed', async (path) => {
    const m = mock();
    const before = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
    const lenient = await m.call('GET', path);
    expect(lenient.status).toBe(200);
    expect(lenient.headers.get('x-mock-warning')).toMatch(/^unknown_parameter "/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const res = await m.call('GET', path, { headers: { 'x-mock-strict': 'true' } });
    expect(res.status).toBe(400);
    const sent = [...new URL(path, 'http://x').searchParams.keys()].filter((k) => KEYS.some((key) => k.startsWith(key)));
    expect(res.body.errors.map((e: { code: string; field: string }) => [e.code, e.field])).toEqual(sent.map((k) => ['parameter_invalid', k]));
    expect((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).toBe(before);
  });

  it.each(KEYS)('takes %s as a scroll_param only as an unknown one, and as an unknown parameter of the scroll', async (key) => {
    const m = mock();
    const named = await m.call('GET', `/users/scroll?scroll_param=${key}`);
    expect(named.status).toBe(400);
    expect(named.body.errors[0]).toMatchObject({ code: 'parameter_invalid', field: 'scroll_param' });
    const open = await m.call('GET', `/companies/scroll?${key}=1`, { headers: { 'x-mock-strict': 'true' } });
    expect(open.body.errors[0]).toMatchObject({ code: 'parameter_invalid', field: key });
    // Neither opened the app's scroll.
    expect((await m.call('GET', '/contacts/scroll')).status).toBe(200);
  });

  it('records prototype-named parameters in the journal as own members and filters on them harmlessly', async () => {
    const m = mock();
    await m.call('GET', '/users?__proto__=x&constructor=y&per_page=1');
    const list = await m.call('GET', '/__admin/requests?app=demo&__proto__=1&constructor=GET&path=/users');
    expect(list.status).toBe(200);
    expect(list.body.requests).toHaveLength(1);
    const query = list.body.requests[0].query as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(query, '__proto__')?.value).toBe('x');
    expect(query.constructor).toBe('y');
    const count = await post(m, '/__admin/requests/count?app=demo', '{"path":"/users"}');
    expect(count.body.count).toBe(1);
  });

  it.each(['/__admin/state?app=demo&__proto__=other', '/__admin/snapshots?app=demo&constructor=1', '/__admin/faults?app=demo&prototype=1'])(
    'lets no prototype-named parameter choose the app on the control plane (GET %s)',
    async (path) => {
      const m = mock();
      const res = await m.call('GET', path, { token: null });
      expect(res.status).toBe(200);
      if (path.startsWith('/__admin/state')) expect(res.body.app.id).toBe('demo');
    },
  );

  it('takes __proto__ as an app name on the control plane only as an unknown app', async () => {
    const m = mock();
    for (const app of KEYS) {
      const res = await m.call('GET', `/__admin/state?app=${app}`, { token: null });
      expect(res.status).toBe(404);
      expect(errorCodes(res)).toEqual(['not_found']);
    }
  });
});

describe('catalog lookups named by prototype names', () => {
  it.each(KEYS)('answers %s as an ordinary unknown tag, segment or company name, and finds a tag of that name', async (key) => {
    const m = mock();
    const before = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
    for (const path of [`/users?tag_id=${key}`, `/users?segment_id=${key}`, `/contacts?tag_id=${key}`, `/companies?tag_id=${key}`, `/companies?segment_id=${key}`]) {
      const res = await m.call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.body.total_count, path).toBe(0);
    }
    for (const [method, path] of [['GET', `/companies?name=${key}`], ['GET', `/tags?name=${key}`], ['GET', `/tags/${key}`], ['DELETE', `/tags/${key}`], ['GET', `/segments/${key}`]] as const) {
      const res = await m.call(method, path);
      expect(res.status, path).toBe(404);
      errorCodes(res);
    }
    expect((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).toBe(before);
    const tag = await post(m, '/tags', `{"name":"${key}","users":[{"id":"${ADA}"}],"companies":[{"company_id":"acme"}]}`);
    expect((await m.call('GET', `/tags?name=${key}`)).body.id).toBe(tag.body.id);
    expect((await m.call('GET', `/users?tag_id=${tag.body.id}`)).body.users.map((u: { id: string }) => u.id)).toEqual([ADA]);
    const company = await m.call('POST', '/companies', { body: { company_id: 'acme', name: key } });
    expect((await m.call('GET', `/companies?name=${key}`)).body.id).toBe(company.body.id);
    expect((await m.call('DELETE', `/tags/${tag.body.id}`)).status).toBe(200);
    expect((await m.call('GET', `/users/${ADA}`)).body.tags.tags.map((t: { name: string }) => t.name)).not.toContain(key);
  });
});

describe('the customer lifecycle routes', () => {
  it('reads no identifier through a __proto__ member of a body or a query', async () => {
    const m = mock();
    const before = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
    const cases = [
      ['POST', '/user_delete_requests', `{"__proto__":{"intercom_user_id":"${ADA}"}}`],
      ['POST', '/contacts/convert', `{"__proto__":{"contact":{"id":"${LEAD}"}},"user":{"email":"x@example.com"}}`],
      ['POST', '/contacts/convert', `{"contact":{"__proto__":{"id":"${LEAD}"}},"user":{"email":"x@example.com"}}`],
      ['POST', '/contacts/convert', `{"contact":{"id":"${LEAD}"},"user":{"__proto__":{"email":"x@example.com"}}}`],
      ['PUT', '/contacts', `{"__proto__":{"id":"${LEAD}"},"name":"Evil"}`],
    ] as const;
    for (const [method, path, raw] of cases) {
      const res = await post(m, path, raw, method);
      expect(res.status, `${path} ${raw}`).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_not_found']);
    }
    // Not parameters of these operations: ignored (so no identifier is left), refused by name under strict mode, never read as identifiers.
    for (const path of ['/users?__proto__=x', '/users?constructor[email]=ada@example.com', '/contacts?prototype=1']) {
      const res = await m.call('DELETE', path);
      expect(res.status, path).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_not_found']);
      expect(errorCodes(await m.call('DELETE', path, { headers: { 'x-mock-strict': 'true' } }))).toEqual(['parameter_invalid']);
    }
    expect((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).toBe(before);
  });

  it.each(KEYS)('archives and restores a user whose user_id and email are %s-named', async (key) => {
    const m = mock();
    const user = await post(m, '/users', `{"user_id":"${key}","email":"${key}@example.com"}`);
    expect(user.status).toBe(200);
    expect((await m.call('DELETE', `/users?user_id=${key}`)).body.id).toBe(user.body.id);
    expect((await m.call('GET', `/users?email=${key}@example.com`)).body.total_count).toBe(0);
    expect((await post(m, '/users', `{"email":"${key}@example.com"}`)).body.id).toBe(user.body.id);
    expect((await m.call('DELETE', `/users?email=${key}@example.com`)).status).toBe(200);
    expect((await post(m, '/users', `{"user_id":"${key}"}`)).body.id).toBe(user.body.id);
  });
});

describe('notes and admins', () => {
  it('reads no person, body or flag through a __proto__ member of a note or away-mode body', async () => {
    const m = mock();
    const before = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
    const cases = [
      ['POST', '/notes', `{"body":"x","user":{"__proto__":{"id":"${ADA}"}}}`],
      ['POST', '/notes', `{"body":"x","__proto__":{"user":{"id":"${ADA}"}}}`],
      ['POST', '/notes', `{"body":"x","__proto__":{"email":"ada@example.com"}}`],
      ['POST', '/notes', `{"__proto__":{"body":"x"},"user":{"id":"${ADA}"}}`],
      ['PUT', '/admins/814860/away', '{"__proto__":{"away_mode_enabled":true,"away_mode_reassign":true}}'],
    ] as const;
    for (const [method, path, raw] of cases) {
      const res = await post(m, path, raw, method);
      expect(res.status, `${path} ${raw}`).toBe(400);
      expect(errorCodes(res)).toEqual(method === 'PUT' ? ['parameter_not_found', 'parameter_not_found'] : ['parameter_not_found']);
    }
    for (const path of ['/notes?__proto__=x', `/notes?constructor[id]=${ADA}`]) {
      const res = await m.call('GET', path);
      expect(res.status, path).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_not_found']);
      expect(errorCodes(await m.call('GET', path, { headers: { 'x-mock-strict': 'true' } }))).toEqual(['parameter_invalid']);
    }
    expect((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).toBe(before);
  });

  it.each(KEYS)('keeps notes of a %s-named person apart from every other key', async (key) => {
    const m = mock();
    const user = await post(m, '/users', `{"user_id":"${key}","email":"${key}@example.com"}`);
    const created = await post(m, '/notes', `{"body":"about ${key}","user":{"user_id":"${key}"}}`);
    expect(created.body.user.id).toBe(user.body.id);
    const listed = await m.call('GET', `/notes?user_id=${key}`);
    expect(listed.body.notes.map((n: { id: string }) => n.id)).toEqual([created.body.id]);
    expect((await m.call('GET', `/notes?email=${key}@example.com`)).body.total_count).toBe(1);
    await expect(m.call('GET', `/notes/${key}`)).resolves.toMatchObject({ status: 404 });
  });
});

describe('conversation and message identifiers and members (issue 14)', () => {
  const GROUP = '5714dd359a3fd47136000501';
  it.each([
    ['/conversations?type=user&user_id=__proto__', 404, 'not_found'],
    ['/conversations?type=user&email=constructor', 404, 'not_found'],
    ['/conversations?type=user&intercom_user_id=prototype', 404, 'not_found'],
    ['/conversations?type=admin&admin_id=__proto__', 404, 'admin_not_found'],
    ['/conversations?type=admin&id=constructor', 404, 'admin_not_found'],
    ['/conversations?type=__proto__', 400, 'bad_request'],
    ['/counts?type=conversation&count=__proto__', 400, 'bad_request'],
  ])('GET %s answers %i %s', async (path, status, code) => {
    const m = mock();
    const res = await m.call('GET', path);
    expect(res.status).toBe(status);
    expect(errorCodes(res)).toEqual([code]);
  });

  it.each([
    ['/messages', '{"body":"x","from":{"type":"user","user_id":"__proto__"}}', 404, 'not_found'],
    ['/messages', '{"body":"x","from":{"type":"contact","id":"constructor"}}', 404, 'not_found'],
    // A member named __proto__ is a member, not a prototype: it supplies nothing.
    ['/messages', '{"body":"x","__proto__":{"from":{"type":"admin","id":"814860"},"to":{"id":"5714dd359a3fd47136000001"}}}', 400, 'parameter_not_found'],
    [`/conversations/${GROUP}/reply`, '{"type":"admin","admin_id":"814860","message_type":"assignment","__proto__":{"assignee_id":"991267"}}', 400, 'parameter_not_found'],
    [`/conversations/${GROUP}/reply`, '{"type":"admin","admin_id":"814860","message_type":"assignment","assignee_id":"__proto__"}', 404, 'admin_not_found'],
    ['/conversations/last/reply', '{"type":"admin","admin_id":"814860","message_type":"close","user_id":"constructor"}', 404, 'not_found'],
  ])('POST %s %s answers %i %s and changes nothing', async (path, raw, status, code) => {
    const m = mock();
    const before = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
    const res = await post(m, path, raw);
    expect(res.status).toBe(status);
    expect(errorCodes(res)).toEqual([code]);
    expect((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).toBe(before);
  });

  it('PUT /conversations/{id} with read only under __proto__ is 400 parameter_not_found', async () => {
    const m = mock();
    const res = await post(m, `/conversations/${GROUP}`, '{"__proto__":{"read":false}}', 'PUT');
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_not_found']);
  });
});

describe('events and bulk jobs', () => {
  it.each(KEYS)('keeps a %s-named metadata member as data, and an event of that name', async (key) => {
    const m = mock();
    const res = await post(m, '/events', `{"event_name":"${key}","created_at":1767300000,"user_id":"ada-1","metadata":{"${key}":"kept","after":1}}`);
    expect(res.status).toBe(202);
    const list = await m.call('GET', '/events?type=user&user_id=ada-1');
    expect(list.body.events.map((e: { event_name: string }) => e.event_name)).toEqual([key]);
    const stored = m.store.app('demo')?.data.events.get(1)?.metadata as Record<string, unknown>;
    expectOwnPlain(stored, [[key, 'kept'], ['after', 1]]);
    expect(Object.keys(list.body.events[0].metadata)).toEqual([key, 'after']);
    const summary = await m.call('GET', '/events?type=user&user_id=ada-1&summary=true');
    expect(summary.body.events.map((e: { name: string }) => e.name)).toEqual([key]);
  });

  it.each(KEYS)('runs a bulk item whose data carries a %s member like the single call would', async (key) => {
    const m = mock();
    const job = await post(m, '/bulk/users', `{"items":[{"method":"post","data":{"user_id":"bulk-${key}","${key}":{"email":"evil@example.com"}}}]}`);
    expect(job.status).toBe(202);
    expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
    const user = (await m.call('GET', `/users?user_id=bulk-${key}`)).body;
    expect(user.email).toBeNull();
    expect((await m.call('GET', '/users?email=evil@example.com')).body.total_count).toBe(0);
  });
});
