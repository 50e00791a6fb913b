// Answers leave at the end of the event loop's turn (src/http/turn-response.ts), on real sockets:
// what a client sees of it, and what the server does when ending an answer fails.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TurnResponse } from '../src/http/turn-response.js';
import { startMockServer } from '../src/testing.js';
import { parseReply, rawRequest, waitFor } from './real.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const close of closers.splice(0)) await close();
});

/** A plain Node server that makes its responses as the mock's server does. */
async function plainServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const server = createServer({ ServerResponse: TurnResponse as typeof ServerResponse }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())) );
  server.on('connection', (socket) => closers.push(async () => void socket.destroy()));
  return (server.address() as AddressInfo).port;
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;

describe('an answer ended during a turn', () => {
  it('is written once the turn is over, whole', async () => {
    const ended: boolean[] = [];
    const port = await plainServer((_req, res) => {
      res.end('one');
      ended.push(res.writableEnded);
      // Scheduled after the mock's own end-of-turn callback, so it runs after it.
      setImmediate(() => ended.push(res.writableEnded));
    });
    const reply = await rawRequest(port, get('/'));
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('one');
    expect(ended).toEqual([false, true]);
  });

  it('a second end() while the first waits changes nothing written, and its callback runs once the answer is out', async () => {
    const calls: string[] = [];
    const port = await plainServer((_req, res) => {
      res.end('first');
      res.end(() => calls.push(`finished ${res.writableFinished}`));
    });
    const reply = await rawRequest(port, get('/'));
    expect(reply.body).toBe('first');
    expect(reply.headers['content-length']).toBe('5');
    await waitFor(() => (calls.length > 0 ? true : undefined));
    expect(calls).toEqual(['finished true']);
  });

  it('one that fails to end loses its connection; the others of the turn leave and the server goes on', async () => {
    let parked: ServerResponse | undefined;
    const port = await plainServer((req, res) => {
      if (req.url === '/park') {
        parked = res;
        return;
      }
      // Both end in this turn, the failing one first: Node throws on a chunk that is a number.
      (parked?.end as (chunk: unknown) => void)(42);
      res.end(req.url);
    });
    const first = rawRequest(port, get('/park'));
    await waitFor(() => parked);
    const second = await rawRequest(port, get('/second'));
    expect(second.status).toBe(200);
    expect(second.body).toBe('/second');
    expect((await first).text).toBe('');
    expect((await rawRequest(port, get('/third'))).body).toBe('/third');
  });
});

describe('the mock behind real sockets', () => {
  it('answers pipelined requests on one connection in the order they came', async () => {
    const mock = await startMockServer({ now: 1_700_000_000 });
    closers.push(() => mock.stop());
    const head = (path: string, close = false) => `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-token\r\n${close ? 'Connection: close\r\n' : ''}\r\n`;
    const reply = await rawRequest(mock.port, head('/admins') + head('/nope') + head('/users?per_page=1', true));
    const answers = reply.text.split(/(?=HTTP\/1\.1 )/).map(parseReply);
    expect(answers.map((a) => a.status)).toEqual([200, 404, 200]);
    expect(JSON.parse(answers[0]?.body ?? '').type).toBe('admin.list');
    expect(JSON.parse(answers[1]?.body ?? '').type).toBe('error.list');
    expect(JSON.parse(answers[2]?.body ?? '').type).toBe('user.list');
    for (const a of answers) expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
  });

  it('keeps answering while the test suite fakes the timers (setImmediate among them)', async () => {
    const mock = await startMockServer({ now: 1_700_000_000 });
    closers.push(() => mock.stop());
    vi.useFakeTimers();
    const reply = await rawRequest(mock.port, 'GET /admins HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-token\r\nConnection: close\r\n\r\n');
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).type).toBe('admin.list');
  });
});
