// The habits of real clients (surface §0), applied by the pipeline to every route: one trailing
// slash, the real 404 for unknown paths, undeclared query parameters refused, echoed path
// parameters dropped, DELETE identifiers from the query or a JSON body, and page links that work.

import { describe, expect, it } from 'vitest';
import { appRoute, type AppRoute } from '../../src/http/route.js';
import { ROUTES } from '../../src/resources/index.js';
import { arr, obj, str } from '../../src/schemas/json-schema.js';
import { ACME, ADA, GROUP, LEAD } from '../fixture-ids.js';
import { errorCodes, expectRejected, mock, stateText } from '../helpers.js';

const UNKNOWN_PATH = 'The requested resource does not exist; check your path and try again';
const STRICT = { headers: { 'x-mock-strict': 'true' } };

describe('one trailing slash', () => {
  it('is the same path: POST /users/ creates, GET /users/?email= and GET /users/{id}/ find', async () => {
    const m = mock();
    const created = await m.call('POST', '/users/', { body: { user_id: 'py-1', email: 'py@example.com' } });
    expect(created.status).toBe(200);
    expect(created.body.user_id).toBe('py-1');
    const byEmail = await m.call('GET', '/users/?email=py@example.com');
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.users.map((u: { id: string }) => u.id)).toEqual([created.body.id]);
    expect((await m.call('GET', `/users/${created.body.id}/`)).body.user_id).toBe('py-1');
    expect((await m.call('GET', '/contacts/?per_page=1')).body.type).toBe('contact.list');
  });

  it('links the next page to the path as routed, keeping every filter', async () => {
    const m = mock();
    const res = await m.call('GET', '/users/?email=shared@example.com&per_page=1');
    expect(res.body.pages).toEqual({ type: 'pages', page: 1, per_page: 1, total_pages: 2, next: 'http://localhost/users?email=shared%40example.com&per_page=1&page=2' });
    const next = await m.call('GET', res.body.pages.next);
    expect(next.body.users).toHaveLength(1);
    expect(next.body.pages.next).toBeNull();
  });

  it('is the path faults match, while the journal keeps the path as sent', async () => {
    const m = mock();
    await m.call('POST', '/__admin/faults', { token: null, body: { path: '/users', method: 'GET', rate_limit: true, count: 1 } });
    expect((await m.call('GET', '/users/')).status).toBe(429);
    const journal = await m.call('GET', '/__admin/requests?app=demo', { token: null });
    expect(journal.body.requests.map((r: { path: string }) => r.path)).toEqual(['/users/']);
  });

  it('answers a wrong method on a slashed path with 405 and Allow', async () => {
    const res = await mock().call('DELETE', '/admins/');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });

  it.each(['/users//', '//users', `/users//${ADA}`, `/users/${ADA}//`])('is one slash only: %s is routed with its slashes folded, with a warning; under strict mode an unknown path', async (path) => {
    const m = mock();
    const url = `http://localhost${path}`;
    const res = await m.call('GET', url);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-mock-warning')).toMatch(/^path_normalized "/);
    const strict = await m.call('GET', url, STRICT);
    expect(strict.status).toBe(404);
    expect(strict.body.errors).toEqual([{ code: 'not_found', message: UNKNOWN_PATH }]);
  });
});

describe('unknown paths', () => {
  it.each(['/nope', '/users/a/b/c', '/teams/x/y', '/v2/users'])('answer %s with the real 404 message', async (path) => {
    const res = await mock().call('GET', path);
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([{ code: 'not_found', message: UNKNOWN_PATH }]);
  });

  it('keep "Resource Not Found"-style messages for unknown records on known paths', async () => {
    const res = await mock().call('GET', '/users/nope');
    expect(res.body.errors).toEqual([{ code: 'not_found', message: 'User Not Found' }]);
  });
});

describe('query parameters an operation does not declare', () => {
  it('are ignored as the real API ignored them, with a warning; under strict mode a 400 naming the parameter', async () => {
    const m = mock();
    const lenient = await m.call('GET', '/users?company_id=acme');
    expect(lenient.status).toBe(200);
    expect(lenient.body.users).toEqual((await m.call('GET', '/users')).body.users);
    const res = await expectRejected(m, 'GET', '/users?company_id=acme', STRICT, 400, ['parameter_invalid']);
    expect(res.body.errors[0]).toEqual({
      code: 'parameter_invalid',
      field: 'company_id',
      message: 'company_id is not a query parameter of this operation (it takes user_id, email, tag_id, segment_id, created_since, sort, order, page, per_page).',
    });
  });

  it('are refused on operations that declare no query at all, writes included, and change nothing', async () => {
    const m = mock();
    const read = await expectRejected(m, 'GET', `/users/${ADA}?expand=companies`, STRICT, 400, ['parameter_invalid']);
    expect(read.body.errors[0].message).toBe('expand is not a query parameter of this operation (it takes none).');
    await expectRejected(m, 'POST', '/users?dry_run=1', { body: { user_id: 'q-1' }, ...STRICT }, 400, ['parameter_invalid']);
    expect((await m.call('GET', '/users?user_id=q-1')).status).toBe(404);
    await expectRejected(m, 'GET', '/admins?x=', STRICT, 400, ['parameter_invalid']);
  });

  it('are listed with the operation\'s other problems, at most 20 items', async () => {
    const m = mock();
    const two = await m.call('GET', '/users?per_page=0&company_id=1', STRICT);
    expect(two.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['company_id', 'per_page']);
    const lenient = await m.call('GET', '/users?per_page=0&company_id=1');
    expect(lenient.body.errors.map((e: { field: string }) => e.field)).toEqual(['per_page']);
    const many = await m.call('GET', `/users?${Array.from({ length: 50 }, (_, i) => `p${i}=1`).join('&')}`, STRICT);
    expect(many.status).toBe(400);
    expect(many.body.errors).toHaveLength(20);
  });

  it('do not include the declared ones, which still work', async () => {
    const m = mock();
    expect((await m.call('GET', '/users?user_id=ada-1&per_page=5&page=1')).status).toBe(200);
    expect((await m.call('GET', `/companies?company_id=acme&type=user&per_page=1`)).status).toBe(200);
    expect((await m.call('GET', `/conversations/${GROUP}?display_as=plaintext`)).status).toBe(200);
  });
});

describe('echoed path parameters', () => {
  it('are dropped from the query when they repeat the path (the Node client\'s conversations.find)', async () => {
    const res = await mock().call('GET', `/conversations/${GROUP}?id=${GROUP}&display_as=plaintext`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(GROUP);
  });

  it('are dropped from a body when they repeat the path (the Node client\'s reply)', async () => {
    const m = mock();
    const res = await m.call('POST', `/conversations/${GROUP}/reply`, { body: { id: GROUP, type: 'admin', admin_id: '814860', message_type: 'note', body: 'echo' } });
    expect(res.status).toBe(200);
    expect(res.body.conversation_parts.conversation_parts.at(-1).body).toBe('echo');
  });

  it('are a 400 naming the member when they contradict the path, and change nothing', async () => {
    const m = mock();
    const q = await expectRejected(m, 'GET', `/users/${ADA}?id=${LEAD}`, {}, 400, ['parameter_invalid']);
    expect(q.body.errors[0]).toMatchObject({ field: 'id', message: `id in the query ("${LEAD}") differs from the path's id ("${ADA}").` });
    const body = { id: 'other', type: 'admin', admin_id: '814860', message_type: 'note', body: 'x' };
    const b = await expectRejected(m, 'POST', `/conversations/${GROUP}/reply`, { body }, 400, ['parameter_invalid']);
    expect(b.body.errors[0].field).toBe('id');
  });

  it('are only the path parameter\'s own name: other members keep their meaning', async () => {
    // `company_id` on /companies/{id}/users is not an echo of `id`: the operation does not declare it.
    const m = mock();
    expect((await m.call('GET', `/companies/${ACME}/users?company_id=acme`)).headers.get('x-mock-warning')).toMatch(/^unknown_parameter "company_id /);
    const res = await m.call('GET', `/companies/${ACME}/users?company_id=acme`, STRICT);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('company_id');
  });
});

// No API operation of this branch deletes yet: a route of the test's own proves the pipeline rule.
const deleteProbe: AppRoute = appRoute({
  method: 'DELETE',
  path: '/probes/{id}',
  operationId: 'deleteProbe',
  summary: 'Test route',
  description: 'Answers the query it read.',
  tag: 'Test',
  params: { id: str() },
  query: obj({ email: str(), user_id: str(), tags: arr(str()) }),
  response: { status: 200, description: 'the query', schema: obj({ query: { type: 'object' } }) },
  errors: [],
  handler: ({ query }) => ({ body: { query } }),
});

describe('DELETE identifiers', () => {
  const m = mock({ routes: [...ROUTES, deleteProbe] });
  const del = (path: string, body?: unknown, raw?: string) => m.call('DELETE', path, raw === undefined ? (body === undefined ? {} : { body }) : { raw, headers: { 'content-type': 'application/json' } });

  it('come from the query', async () => {
    expect((await del('/probes/1?email=a@example.com')).body.query).toEqual({ email: 'a@example.com' });
  });

  it('come from a JSON body (PHP 1.5), numbers read as their text', async () => {
    expect((await del('/probes/1', { email: 'a@example.com', user_id: 42 })).body.query).toEqual({ email: 'a@example.com', user_id: '42' });
  });

  it('accept the {} body Ruby and Python send, with the query', async () => {
    expect((await del('/probes/1?user_id=u', {})).body.query).toEqual({ user_id: 'u' });
    expect((await del('/probes/1/?user_id=u', undefined, '{}')).body.query).toEqual({ user_id: 'u' });
  });

  it('may be given in both when they agree; disagreeing values are a 400 naming the member', async () => {
    expect((await del('/probes/1?email=a@example.com', { email: 'a@example.com' })).body.query).toEqual({ email: 'a@example.com' });
    const res = await del('/probes/1?email=a@example.com', { email: 'b@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ code: 'parameter_invalid', field: 'email', message: 'email is given twice with different values (query "a@example.com", body "b@example.com").' }]);
  });

  it('drop an echoed id and refuse members the route does not declare, __proto__ included', async () => {
    expect((await del('/probes/1', { id: '1', email: 'e' })).body.query).toEqual({ email: 'e' });
    const lenient = await del('/probes/1', undefined, '{"__proto__":{"polluted":true},"force":true}');
    expect(lenient.body.query).toEqual({});
    const res = await m.call('DELETE', '/probes/1', { raw: '{"__proto__":{"polluted":true},"force":true}', headers: { 'content-type': 'application/json', 'x-mock-strict': 'true' } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['__proto__', 'force']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('must be text: an object where a string is declared is a 400', async () => {
    const res = await del('/probes/1', { email: { $ne: null } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
  });

  it('leave the app unchanged when refused', async () => {
    const before = await stateText(m);
    await del('/probes/1', { nope: 1 });
    expect(await stateText(m)).toBe(before);
  });
});

describe('paged lists', () => {
  it('GET /counts/?type=company&count=tag: the nested pages too, behind a trailing slash', async () => {
    const res = await mock().call('GET', '/counts/?type=company&count=tag&per_page=1');
    expect(res.body.pages.pages).toMatchObject({ type: 'pages', page: 1, per_page: 1, next: 'http://localhost/counts?type=company&count=tag&per_page=1&page=2' });
  });

  it.each([
    ['/users?per_page=1', 'users'],
    ['/contacts?per_page=1', 'contacts'],
    [`/companies/${ACME}/users?per_page=1`, 'users'],
    ['/companies?company_id=acme&type=user&per_page=1', 'users'],
    ['/conversations?per_page=1&display_as=html', 'conversations'],
  ])('%s: pages.type is "pages" and next is absolute, from the request\'s origin, every filter kept', async (path) => {
    const res = await mock().call('GET', path);
    expect(res.body.pages.type).toBe('pages');
    const next = new URL(res.body.pages.next);
    expect(next.origin).toBe('http://localhost');
    const sent = new URL(path, 'http://localhost');
    for (const [k, v] of sent.searchParams) expect(next.searchParams.get(k)).toBe(v);
    expect(next.searchParams.get('page')).toBe('2');
  });
});
