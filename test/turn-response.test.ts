// Answers leave at the end of the event loop's turn (src/http/turn-response.ts), on real sockets:
// what a client sees of it, what a handler that goes on using an ended response gets (Node's own
// answers), and the server around it: half-closing clients, draining, fake timers.

import { createServer, type IncomingMessage, ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { TurnResponse } from '../src/http/turn-response.js';
import { listen, type RunningServer, type ServerLimits } from '../src/server.js';
import { createStore } from '../src/setup.js';
import { startMockServer } from '../src/testing.js';
import { faultsHit, injectLatency, parseReply, rawRequest, waitFor } from './real.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const close of closers.splice(0)) await close();
});

/** A plain Node server whose responses are the given class (the mock's by default). */
async function plainServer(handler: (req: IncomingMessage, res: ServerResponse) => void, Response: typeof ServerResponse = TurnResponse as typeof ServerResponse): Promise<number> {
  const server = createServer({ ServerResponse: Response }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

async function mock(limits: Partial<ServerLimits> = {}): Promise<RunningServer> {
  const store = createStore();
  const server = await listen(createApp({ store, log: () => undefined }), 0, '127.0.0.1', { limits, requestId: () => store.nextConnectionRequestId() });
  closers.push(() => server.close(100));
  return server;
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token\r\n${extra}\r\n`;
const answers = (text: string) => text.split(/(?=HTTP\/1\.1 \d{3} )/).filter((t) => t !== '').map(parseReply);

/** Sends `text` and half-closes at once; resolves with all the server sent once it closes. */
function halfClosed(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(out));
  });
}

describe('an answer ended during a turn', () => {
  it('reaches the socket once the turn is over, whole; the response counts as ended from end() on', async () => {
    const seen: [boolean, number][] = [];
    const port = await plainServer((req, res) => {
      res.end('one');
      seen.push([res.writableEnded, req.socket.bytesWritten]);
      // Scheduled after the end of the turn's own callback, so it runs after it.
      setImmediate(() => seen.push([res.writableEnded, req.socket.bytesWritten]));
    });
    const reply = await rawRequest(port, get('/', 'Connection: close\r\n'));
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('one');
    expect(seen[0]).toEqual([true, 0]);
    expect(seen[1]?.[1]).toBe(reply.text.length);
  });

  it('answers of one turn are finished in the order they were ended', async () => {
    let parked: ServerResponse | undefined;
    const finished: string[] = [];
    const port = await plainServer((req, res) => {
      res.on('finish', () => finished.push(req.url ?? ''));
      if (req.url === '/first') {
        parked = res;
        return;
      }
      parked?.end('1');
      res.end('2');
    });
    const first = rawRequest(port, get('/first', 'Connection: close\r\n'));
    await waitFor(() => parked);
    const second = await rawRequest(port, get('/second', 'Connection: close\r\n'));
    expect([(await first).body, second.body]).toEqual(['1', '2']);
    expect(finished).toEqual(['/first', '/second']);
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
    const first = rawRequest(port, get('/park', 'Connection: close\r\n'));
    await waitFor(() => parked);
    const second = await rawRequest(port, get('/second', 'Connection: close\r\n'));
    expect(second.status).toBe(200);
    expect(second.body).toBe('/second');
    expect((await first).text).toBe('');
    expect((await rawRequest(port, get('/third', 'Connection: close\r\n'))).body).toBe('/third');
  });
});

describe('a handler that goes on with an ended response gets what Node gives it', () => {
  /** What the client receives and the errors the response emits, with Node's response and with the mock's. */
  async function both(handler: (res: ServerResponse, errors: string[]) => void) {
    const outcome = async (Response: typeof ServerResponse) => {
      const errors: string[] = [];
      const port = await plainServer((_req, res) => {
        res.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
        handler(res, errors);
      }, Response);
      const reply = await rawRequest(port, get('/', 'Connection: close\r\n'));
      await new Promise((r) => setImmediate(r));
      return { status: reply.status, body: reply.body, length: reply.headers['content-length'], errors };
    };
    return { node: await outcome(ServerResponse), turn: await outcome(TurnResponse as typeof ServerResponse) };
  }

  it('a write after end() is Node\'s error, and the answer is the one end() gave', async () => {
    const { node, turn } = await both((res) => {
      res.end('A');
      res.write('B');
    });
    expect(node).toEqual({ status: 200, body: 'A', length: '1', errors: ['ERR_STREAM_WRITE_AFTER_END'] });
    expect(turn).toEqual(node);
  });

  it('a second end() with a chunk is Node\'s error; one with a callback runs it once the answer is out', async () => {
    const calls: boolean[] = [];
    const { node, turn } = await both((res) => {
      res.end('first');
      res.end(() => calls.push(res.writableFinished));
      res.end('again');
    });
    expect(node).toEqual({ status: 200, body: 'first', length: '5', errors: ['ERR_STREAM_WRITE_AFTER_END'] });
    expect(turn).toEqual(node);
    expect(calls).toEqual([true, true]);
  });

  it('destroy() after end() still sends the whole answer first (the adapter does so when a body fails)', async () => {
    const { node, turn } = await both((res) => {
      res.writeHead(500, { 'content-type': 'text/plain', 'content-length': '22' });
      res.end('Error: the body failed');
      res.destroy();
    });
    expect(node).toEqual({ status: 500, body: 'Error: the body failed', length: '22', errors: [] });
    expect(turn).toEqual(node);
  });

  it('a header set after end() is Node\'s ERR_HTTP_HEADERS_SENT', async () => {
    const thrown: string[] = [];
    await both((res) => {
      res.end('x');
      try {
        res.setHeader('x-late', '1');
      } catch (err) {
        thrown.push((err as NodeJS.ErrnoException).code ?? '');
      }
    });
    expect(thrown).toEqual(['ERR_HTTP_HEADERS_SENT', 'ERR_HTTP_HEADERS_SENT']);
  });
});

describe('the mock\'s server', () => {
  it('makes its responses as TurnResponse', async () => {
    const app = new Hono<{ Bindings: { outgoing: unknown } }>();
    app.get('/', (c) => c.text(String(c.env.outgoing instanceof TurnResponse)));
    const server = await listen(app as unknown as Hono, 0, '127.0.0.1');
    closers.push(() => server.close(100));
    expect((await rawRequest(server.port, get('/', 'Connection: close\r\n'))).body).toBe('true');
  });

  it('answers pipelined requests on one connection in the order they came', async () => {
    const server = await mock();
    const reply = await rawRequest(server.port, get('/admins') + get('/nope') + get('/users?per_page=1', 'Connection: close\r\n'));
    const all = answers(reply.text);
    expect(all.map((a) => a.status)).toEqual([200, 404, 200]);
    expect(all.map((a) => JSON.parse(a.body).type)).toEqual(['admin.list', 'error.list', 'user.list']);
    for (const a of all) expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
  });

  it('answers a client that half-closes right after its request, also when the answer takes a while', async () => {
    const server = await mock();
    await injectLatency(server.url, 150);
    const all = answers(await halfClosed(server.port, get('/admins')));
    expect(all.map((a) => a.status)).toEqual([200]);
    expect(JSON.parse(all[0]?.body ?? '').type).toBe('admin.list');
  });

  it('answers every pipelined request of a client that half-closes, when its requests and its end arrive in one read', async () => {
    const server = await mock();
    // Eight requests of exactly 8 KiB each: 64 KiB, one full read, with the client's end behind it.
    const one = (i: number) => {
      const head = `GET /admins HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token\r\nX-Pad-${i}: `;
      return `${head}${'a'.repeat(8192 - head.length - 4)}\r\n\r\n`;
    };
    const text = Array.from({ length: 8 }, (_, i) => one(i)).join('');
    expect(text.length).toBe(65_536);
    expect(answers(await halfClosed(server.port, text)).map((a) => a.status)).toEqual(Array(8).fill(200));
  });

  it('close() while an answer waits for the end of its turn closes the connection once the answer is out, not at the grace period', async () => {
    let closing: Promise<void> | undefined;
    const app = new Hono();
    app.get('/', (c) => {
      // Runs in the check phase before the turn's answers are ended: the answer waits, its head stored.
      setImmediate(() => (closing = running.close()));
      return c.text('ok');
    });
    // Neither the keep-alive timeout nor the grace period would close the connection within the test's time.
    const running = await listen(app, 0, '127.0.0.1', { limits: { keepAliveTimeoutMs: 60_000, shutdownGraceMs: 60_000 } });
    const reply = await rawRequest(running.port, get('/'));
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('ok');
    await closing;
  });

  it('close() with pipelined requests in flight answers them all, the last one saying close', async () => {
    const server = await mock({ shutdownGraceMs: 60_000 });
    await injectLatency(server.url, 300);
    const socket = connect(server.port, '127.0.0.1', () => socket.write(get('/admins') + get('/admins')));
    let out = '';
    socket.on('data', (d) => (out += d));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    await waitFor(async () => ((await faultsHit(server.url)) === 2 ? true : undefined));
    const closing = server.close();
    await ended;
    const all = answers(out);
    expect(all.map((a) => a.status)).toEqual([200, 200]);
    expect(all.map((a) => a.headers.connection)).toEqual(['keep-alive', 'close']);
    await closing;
  });

  it('keeps answering while the test suite fakes the timers (setImmediate among them)', async () => {
    const server = await startMockServer({ now: 1_700_000_000 });
    closers.push(() => server.stop());
    vi.useFakeTimers();
    const reply = await rawRequest(server.port, get('/admins', 'Connection: close\r\n'));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).type).toBe('admin.list');
  });

  it('answers too when the timers were faked before the module was loaded', async () => {
    vi.useFakeTimers();
    // A copy of the module evaluated now, under the fake timers.
    const fresh = '../src/http/turn-response.js?under-fake-timers';
    const { TurnResponse: Loaded } = (await import(/* @vite-ignore */ fresh)) as { TurnResponse: typeof ServerResponse };
    expect(Loaded).not.toBe(TurnResponse);
    const port = await plainServer((_req, res) => res.end('late-faked'), Loaded);
    expect((await rawRequest(port, get('/', 'Connection: close\r\n'))).body).toBe('late-faked');
  });
});
