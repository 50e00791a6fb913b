// Property-based fuzzing of every operation of the route registry, API and control plane alike.
// Seeded and bounded: FUZZ_SEED and FUZZ_RUNS override the defaults for a longer local hunt, e.g.
// `FUZZ_RUNS=500 npx vitest run test/hardening/fuzz.test.ts`.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, wireCode, type ErrorCode } from '../../src/core/errors.js';
import { exportState } from '../../src/fixtures/base.js';
import { ROUTES } from '../../src/resources/index.js';
import { errorCodes, mock, type CallResult, type TestMock } from '../helpers.js';
import { hostileKey, junkString, requestArb, type FuzzRequest } from './arbitraries.js';

const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_2026);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

/** The (status, wire code) pairs the catalogue allows: 413 answers with code bad_request. */
const CATALOGUED = new Set(Object.entries(ERROR_STATUS).map(([code, status]) => `${status} ${wireCode(code as ErrorCode)}`));

/**
 * The exported state of both seeded apps, as the control plane's GET /__admin/state writes it:
 * read directly, as that route's text costs three times the request being checked.
 */
function exported(m: TestMock): string[] {
  return ['demo', 'other'].map((id) => {
    const app = m.store.app(id);
    return app === undefined ? `no app ${id}` : JSON.stringify(exportState(app));
  });
}

/** Asserts the invariants every response must keep, whatever was sent. */
function checkResponse(req: FuzzRequest, res: CallResult): void {
  const where = `${req.method} ${req.path} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  expect(res.headers.get('content-type'), where).toBe('application/json; charset=utf-8');
  if (res.status < 400) return;
  const codes = errorCodes(res);
  expect(codes.length, where).toBeGreaterThan(0);
  for (const code of codes) expect(CATALOGUED.has(`${res.status} ${code}`), `${where}: ${res.status} ${code} is not catalogued`).toBe(true);
}

/**
 * One mock per property. The state of the seeded apps is exported after every request, so the
 * next request's "before" is the last "after" (one export per run, not two).
 */
function harness(m: TestMock) {
  let last: string[] | undefined;
  return async (req: FuzzRequest): Promise<void> => {
    const before = last ?? exported(m);
    let res: CallResult;
    try {
      res = await m.call(req.method, req.path, { token: null, headers: req.headers, ...(req.raw === undefined ? {} : { raw: req.raw }) });
    } finally {
      // An accepted fault or clock change must not leak into the next run: faults would answer
      // 5xx on purpose, and a running clock would make due jobs change the next "after".
      m.store.faults.clear();
      m.clock.freeze(true);
    }
    checkResponse(req, res);
    last = exported(m);
    if (res.status >= 400) expect(last, `${req.method} ${req.path} was rejected (${res.status}) but changed the state`).toEqual(before);
  };
}

/** The server still answers after the fuzzing: the control plane and an API read. */
async function stillServing(m: TestMock): Promise<void> {
  expect((await m.call('GET', '/__admin/health', { token: null })).status).toBe(200);
  // demo-token may have been re-seeded away by the seed route's fuzzing; a per-test app cannot be.
  expect((await m.call('GET', '/admins', { token: 'test_still_serving' })).status).toBe(200);
  if (m.store.appForToken('demo-token')?.id === 'demo') expect((await m.call('GET', '/admins')).status).toBe(200);
}

describe('fuzzing every operation of the registry', () => {
  ROUTES.forEach((route, i) => {
    it(`${route.method} ${route.path} (${route.operationId})`, async () => {
      const m = mock({ rateLimit: 1_000_000_000 });
      await fc.assert(fc.asyncProperty(requestArb(route), harness(m)), { seed: SEED + i, numRuns: RUNS });
      await stillServing(m);
    });
  });

  it('unknown routes and methods the registry does not have', async () => {
    const m = mock({ rateLimit: 1_000_000_000 });
    const check = harness(m);
    const segment = fc.oneof(fc.constantFrom('users', 'contacts', 'visitors', 'companies', 'tags', 'counts', 'admins', 'conversations', '__admin', 'state', 'faults', 'snapshots', '%2F', '%'), junkString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))).filter((s) => s !== '' && s !== '.' && s !== '..'));
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      segments: fc.array(segment, { minLength: 1, maxLength: 4 }),
      key: hostileKey,
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ method, segments, key }) => {
        const path = `/${segments.join('/')}?${encodeURIComponent(key.replace(/[\ud800-\udfff]/g, ''))}=1`;
        await check({ method, path, headers: { authorization: 'Bearer demo-token', accept: 'application/json' }, raw: method === 'GET' ? undefined : '{}' });
      }),
      { seed: SEED - 1, numRuns: RUNS * 2 },
    );
    await stillServing(m);
  });
});

describe('trailing slashes', () => {
  it('allow one, for every method: /users/ is /users (GET 200, DELETE without an identifier 400, PUT 405 with Allow), /users// is not', async () => {
    const m = mock();
    expect((await m.call('GET', '/users/')).status).toBe(200);
    const put = await m.call('PUT', '/users/', { body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
    expect(errorCodes(await m.call('DELETE', '/users/'))).toEqual(['parameter_not_found']);
    expect(errorCodes(await m.call('POST', '/users/', { body: {} }))).toEqual(['parameter_not_found']);
    // /users// is routed as /users with a warning (http/slashes.ts), and is no path at all under strict mode.
    expect((await m.call('GET', '/users//')).headers.get('x-mock-warning')).toMatch(/^path_normalized "/);
    for (const method of ['GET', 'DELETE', 'POST']) {
      const res = await m.call(method, '/users//', { headers: { 'x-mock-strict': 'true' } });
      expect(res.status).toBe(404);
      expect(errorCodes(res)).toEqual(['not_found']);
      expect(res.headers.get('allow')).toBeNull();
    }
    // The URL's dot segment resolves to /users/, which is /users.
    expect((await m.call('GET', '/users/.')).status).toBe(200);
  });
});

describe('adversarial bodies the fuzzer found or must always cover', () => {
  const json = { 'content-type': 'application/json' };
  const deep = (n: number) => `{"email":"deep@example.com","x":${'['.repeat(n)}${']'.repeat(n)}}`;

  it.each([100, 10_000, 200_000])('refuses a body nested %i levels deep in the envelope, changing nothing, and the journal still serves', async (depth) => {
    // Before the parse-time depth limit, a 10 000-deep member was stored and then the journal's
    // JSON.stringify overflowed the stack: the lead existed but the client got a 500.
    const m = mock();
    const before = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
    for (const path of ['/contacts', '/users']) {
      const res = await m.call('POST', path, { raw: deep(depth), headers: json });
      expect(res.status).toBe(400);
      expect(errorCodes(res)).toEqual(['bad_request']);
    }
    expect((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).toBe(before);
    expect((await m.call('GET', '/__admin/requests?app=demo', { token: null })).status).toBe(200);
  });

  it.each(['page', 'per_page'])('answers %s=1e400 (Infinity once coerced) with 400, not a page of nulls', async (name) => {
    const m = mock();
    for (const path of [`/users?${name}=1e400`, `/counts?type=company&count=tag&${name}=1e400`, `/conversations?${name}=Infinity`]) {
      const res = await m.call('GET', path);
      expect(res.status, path).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_invalid']);
      expect(res.body.errors[0].field).toBe(name);
    }
  });

  it.each([
    ['/companies', '{"company_id":"inf","monthly_spend":1e400}', 'monthly_spend'],
    ['/companies', '{"company_id":"inf","size":-1e400}', 'size'],
    ['/users', '{"email":"inf@example.com","last_request_at":1e400}', 'last_request_at'],
    ['/users', '{"email":"inf@example.com","custom_attributes":{"score":1e400}}', 'custom_attributes.score'],
    ['/companies', '{"company_id":"inf","custom_attributes":{"score":-1e400}}', 'custom_attributes.score'],
  ])('rejects a number JSON cannot write back (POST %s %s)', async (path, raw, field) => {
    const m = mock();
    const before = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
    const res = await m.call('POST', path, { raw, headers: json });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect(res.body.errors[0].field).toBe(field);
    expect((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).toBe(before);
  });
});
