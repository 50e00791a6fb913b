// Requests Node or the adapter would answer on their own (a bare 400 or 417, or a closed socket)
// still get the API's envelope with a request id: spoken over a raw socket to a real server.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { Clock } from '../src/core/clock.js';
import { listen, type RunningServer } from '../src/server.js';
import { createStore } from '../src/setup.js';
import { rawRequest, type RawReply } from './real.js';

// 2026-01-02T00:00:00Z: every answer the server writes itself carries it as its Date, not the wall clock.
const FROZEN = 1767312000;
let server: RunningServer;
beforeAll(async () => {
  const store = createStore({ clock: new Clock({ start: FROZEN, frozen: true }) });
  server = await listen(createApp({ store, log: () => undefined, guard: { allowedHosts: ['api.example.test', 'ignored.example'] } }), 0, '127.0.0.1', { requestId: () => store.nextRequestId(), now: () => store.now() });
});
afterAll(() => server.close());

function expectEnvelope(reply: RawReply, status: number, code: string, message: RegExp) {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(reply.headers['x-request-id']).toMatch(/^[0-9a-z]{20}$/);
  expect(reply.headers.date).toBe('Fri, 02 Jan 2026 00:00:00 GMT');
  expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
  const body = JSON.parse(reply.body);
  expect(body).toEqual({ type: 'error.list', request_id: reply.headers['x-request-id'], errors: [{ code, message: expect.stringMatching(message) }] });
}

// Each asks to close, so the reply is complete when the socket closes.
const auth = 'Authorization: Bearer demo-token\r\nConnection: close\r\n';

describe('requests the app cannot route still get the envelope', () => {
  it.each([
    ['GET *', `GET * HTTP/1.1\r\nHost: localhost\r\n${auth}\r\n`],
    ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
    ['an absolute URL of another scheme', `GET ftp://x/admins HTTP/1.1\r\nHost: localhost\r\n${auth}\r\n`],
  ])('answers %s with 400 bad_request naming the target', async (_name, text) => {
    expectEnvelope(await rawRequest(server.port, text), 400, 'bad_request', /request target/);
  });

  it.each([
    ['with a space', 'a b'],
    ['with an unclosed bracket', '[zz'],
    ['with a port out of range', 'x:99999'],
    ['with a path in it', 'x/y'],
  ])('answers a malformed Host header (%s) with 400 bad_request', async (_name, host) => {
    expectEnvelope(await rawRequest(server.port, `GET /admins HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\n`), 400, 'bad_request', /Host/);
  });

  it('answers an HTTP/1.1 request without Host with 400 bad_request, and still serves HTTP/1.0 without one', async () => {
    expectEnvelope(await rawRequest(server.port, `GET /admins HTTP/1.1\r\n${auth}\r\n`), 400, 'bad_request', /needs a Host header/);
    const old = await rawRequest(server.port, `GET /admins HTTP/1.0\r\n${auth}\r\n`);
    expect(old.status).toBe(200);
    expect(JSON.parse(old.body).type).toBe('admin.list');
  });

  it('answers a path with a backslash with 400 bad_request', async () => {
    expectEnvelope(await rawRequest(server.port, `GET /ad\\mins HTTP/1.1\r\nHost: localhost\r\n${auth}\r\n`), 400, 'bad_request', /request target/);
  });

  it('answers CONNECT with 405 method_not_allowed: the mock is no proxy', async () => {
    expectEnvelope(await rawRequest(server.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 405, 'method_not_allowed', /CONNECT/);
  });

  it('answers an Expect other than 100-continue with 417 bad_request naming it, without reading a body', async () => {
    const reply = await rawRequest(server.port, `POST /users HTTP/1.1\r\nHost: localhost\r\n${auth}Expect: pigeons\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n`);
    expectEnvelope(reply, 417, 'bad_request', /"pigeons"/);
    expect(reply.headers.connection).toBe('close');
  });

  it('still answers Expect: 100-continue with 100, then the request', async () => {
    const reply = await rawRequest(server.port, `POST /tags HTTP/1.1\r\nHost: localhost\r\n${auth}Expect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
    expect(reply.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 400 /);
  });

  it('keeps serving ordinary requests after all of them', async () => {
    const ok = await fetch(`${server.url}/admins`, { headers: { authorization: 'Bearer demo-token' } });
    expect(ok.status).toBe(200);
  });
});

// Ruby follows `pages.next` by sending the whole URL as the request target (absolute form).
describe('absolute-form request targets', () => {
  // Ruby's client as its README sets it for this lookup: version 1.1, where an email lists.
  const get = (target: string, host = `127.0.0.1:${server.port}`) => rawRequest(server.port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nIntercom-Version: 1.1\r\n${auth}\r\n`);

  it('are routed by their path, and the next page they link to is absolute from that URL\'s origin', async () => {
    const origin = `http://127.0.0.1:${server.port}`;
    const first = await get(`${origin}/users?email=shared@example.com&per_page=1`);
    expect(first.status).toBe(200);
    const next = JSON.parse(first.body).pages;
    expect(next).toMatchObject({ type: 'pages', page: 1, total_pages: 2, next: `${origin}/users?email=shared%40example.com&per_page=1&page=2` });
    const second = await get(next.next);
    expect(second.status).toBe(200);
    expect(JSON.parse(second.body).pages).toEqual({ type: 'pages', page: 2, per_page: 1, total_pages: 2, next: null });
  });

  it('name the effective request URI: another authority than Host is the origin of next (RFC 9112 §3.2.2)', async () => {
    const reply = await get('http://api.example.test/users/?per_page=1', 'ignored.example');
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).pages.next).toBe('http://api.example.test/users?per_page=1&page=2');
  });

  it('get the same answers as the path alone: 404 with the real message, 405, a write', async () => {
    const unknown = await get(`http://127.0.0.1:${server.port}/nope`);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).errors[0].message).toBe('The requested resource does not exist; check your path and try again');
    const body = '{"name":"absolute-form"}';
    const post = await rawRequest(server.port, `POST http://127.0.0.1:${server.port}/tags/ HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expect(post.status).toBe(200);
    expect(JSON.parse(post.body).name).toBe('absolute-form');
    const wrong = await rawRequest(server.port, `DELETE http://127.0.0.1:${server.port}/admins HTTP/1.1\r\nHost: localhost\r\n${auth}\r\n`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET');
  });
});
