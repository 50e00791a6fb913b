import { describe, expect, it } from 'vitest';
import { appRoute } from '../../src/http/route.js';
import { ROUTES } from '../../src/resources/index.js';
import { obj } from '../../src/schemas/json-schema.js';
import { errorCodes, mock } from '../helpers.js';

describe('the error envelope', () => {
  it('is error.list with a 20-character request_id equal to X-Request-Id', async () => {
    const res = await mock().call('GET', '/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      type: 'error.list',
      request_id: res.headers.get('x-request-id'),
      errors: [{ code: 'not_found', message: 'The requested resource does not exist; check your path and try again' }],
    });
    expect(res.body.request_id).toMatch(/^[0-9a-z]{20}$/);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('answers an unknown route with 404 not_found even without a token', async () => {
    const res = await mock().call('POST', '/nothing-here', { token: null });
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['not_found']);
  });

  it('answers a known path with the wrong method with 405 and an Allow header', async () => {
    const res = await mock().call('DELETE', '/admins');
    expect(res.status).toBe(405);
    expect(errorCodes(res)).toEqual(['method_not_allowed']);
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('gives every response, success or error, a distinct X-Request-Id', async () => {
    const m = mock();
    const ids = new Set<string | null>();
    for (const path of ['/admins', '/admins', '/missing']) ids.add((await m.call('GET', path)).headers.get('x-request-id'));
    expect(ids.size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-z]{20}$/);
  });
});

describe('content negotiation', () => {
  it.each(['application/json', 'application/vnd.intercom.3+json', '*/*', 'application/*', 'text/html, application/json;q=0.5'])(
    'accepts Accept: %s',
    async (accept) => {
      expect((await mock().call('GET', '/admins', { headers: { accept } })).status).toBe(200);
    },
  );

  it('accepts a request with no Accept header', async () => {
    const m = mock();
    const res = await m.app.request('/admins', { headers: { authorization: 'Bearer demo-token' } });
    expect(res.status).toBe(200);
  });

  it('answers 406 not_acceptable when Accept allows no JSON', async () => {
    const res = await mock().call('GET', '/admins', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(406);
    expect(errorCodes(res)).toEqual(['not_acceptable']);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('answers 415 when a body is sent with a non-JSON Content-Type', async () => {
    const res = await mock().call('POST', '/__admin/clock', { raw: 'now=5', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(errorCodes(res)).toEqual(['unsupported_media_type']);
  });

  it('answers 400 bad_request for malformed JSON', async () => {
    const res = await mock().call('POST', '/__admin/clock', { raw: '{"now": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['bad_request']);
  });

  it('answers 400 bad_request for a JSON body that is not an object', async () => {
    const res = await mock().call('POST', '/__admin/clock', { raw: '[1,2]', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['bad_request']);
  });

  it('answers 400 bad_request for a body nested deeper than 64 levels, and keeps serving', async () => {
    const m = mock();
    const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const res = await m.call('POST', '/tags', { raw: deep, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['bad_request']);
    expect(res.body.errors[0].message).toContain('deeper than 64');
    const ok = `{"name":"fine","x":${'['.repeat(60)}${']'.repeat(60)}}`;
    expect((await m.call('POST', '/tags', { raw: ok, headers: { 'content-type': 'application/json' } })).status).toBe(200);
  });

  it('answers 413 with code bad_request for a body over the limit, and keeps serving', async () => {
    const m = mock({ bodyLimit: 2048 });
    const res = await m.call('POST', '/__admin/clock', { raw: JSON.stringify({ pad: 'x'.repeat(4096) }), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(errorCodes(res)).toEqual(['bad_request']);
    expect((await m.call('GET', '/admins')).status).toBe(200);
  });

  it('holds a streamed body (no Content-Length) to the same limit: one byte over is 413, the limit itself is read', async () => {
    const m = mock({ bodyLimit: 2048 });
    const streamed = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      // Two chunks, so the limit is crossed mid-stream.
      const stream = new ReadableStream({ start: (c) => (c.enqueue(bytes.subarray(0, 1000)), c.enqueue(bytes.subarray(1000)), c.close()) });
      return m.app.request('/tags', { method: 'POST', body: stream, headers: { 'content-type': 'application/json', authorization: 'Bearer demo-token' }, duplex: 'half' } as RequestInit);
    };
    const body = (size: number) => { const head = '{"name":"streamed","pad":"'; return `${head}${'x'.repeat(size - head.length - 2)}"}`; };
    const over = await streamed(body(2049));
    expect(over.status).toBe(413);
    expect(((await over.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('bad_request');
    expect((await m.call('GET', '/tags')).body.tags.map((t: { name: string }) => t.name)).not.toContain('streamed');
    expect((await streamed(body(2048))).status).toBe(200);
  });
});

describe('unexpected exceptions', () => {
  it('become a 500 server_error in the envelope, are logged, and the server keeps serving', async () => {
    const boom = appRoute({
      method: 'GET',
      path: '/boom',
      operationId: 'boom',
      summary: 'test',
      description: 'test',
      tag: 'test',
      response: { status: 200, description: 'never', schema: obj({}) },
      errors: [],
      handler: () => {
        throw new Error('kaput');
      },
    });
    const { createApp } = await import('../../src/app.js');
    const m = mock();
    const logged: string[] = [];
    const app = createApp({ store: m.store, routes: [...ROUTES, boom], log: (msg) => logged.push(msg) });
    const res = await app.request('/boom', { headers: { authorization: 'Bearer demo-token' } });
    expect(res.status).toBe(500);
    const body = (await res.json()) as any;
    expect(body.type).toBe('error.list');
    expect(body.errors[0].code).toBe('server_error');
    expect(logged).toHaveLength(1);
    expect((await app.request('/admins', { headers: { authorization: 'Bearer demo-token' } })).status).toBe(200);
  });
});
