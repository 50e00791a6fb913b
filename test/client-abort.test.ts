// A client that goes away before its body arrives is not a fault of the mock: the journal shows
// 499 ("client closed the request") and nothing is logged; 500 stays for bugs and injected faults.

import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { Clock } from '../src/core/clock.js';
import { listen, type ServerLimits } from '../src/server.js';
import { createStore } from '../src/setup.js';
import { TEST_NOW } from './helpers.js';

const HEAD = 'POST /tags HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';

async function started(limits?: Partial<ServerLimits>) {
  const store = createStore({ clock: new Clock({ start: TEST_NOW, frozen: true }) });
  const logged: unknown[] = [];
  const app = createApp({ store, log: (message, error) => logged.push([message, error]) });
  const server = await listen(app, 0, '127.0.0.1', { requestId: () => store.nextRequestId(), ...(limits ? { limits } : {}) });
  const journal = async () => {
    const res = await fetch(`${server.url}/__admin/requests?app=demo`);
    return ((await res.json()) as { requests: { status: number; operationId: string; body: unknown }[] }).requests;
  };
  /** The journal once it holds an entry: the server records it when it notices the close. */
  const settled = async () => {
    for (let i = 0; i < 200; i++) {
      const entries = await journal();
      if (entries.length > 0) return entries;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('nothing journaled');
  };
  return { server, logged, settled };
}

const opened = (port: number): Promise<Socket> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
  });

describe('a client that closes mid-body', () => {
  it('is journaled as 499 with no body, nothing is logged, and the server keeps serving', async () => {
    const { server, logged, settled } = await started();
    try {
      const socket = await opened(server.port);
      socket.write(`${HEAD}{"name":"a`);
      await new Promise((r) => setTimeout(r, 20));
      socket.destroy();
      const entries = await settled();
      expect(entries.map((e) => [e.operationId, e.status, e.body])).toEqual([['saveTag', 499, null]]);
      expect(logged).toEqual([]);
      const ok = await fetch(`${server.url}/admins`, { headers: { authorization: 'Bearer demo-token' } });
      expect(ok.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('is journaled as 499 after the server answered 408, and nothing is logged', async () => {
    const { server, logged, settled } = await started({ headersTimeoutMs: 200, requestTimeoutMs: 200 });
    try {
      const socket = await opened(server.port);
      const reply = new Promise<string>((resolve) => {
        let out = '';
        socket.on('data', (d) => (out += d));
        socket.on('close', () => resolve(out));
      });
      socket.write(`${HEAD}{"name":"a`);
      expect(await reply).toMatch(/^HTTP\/1\.1 408 /);
      const entries = await settled();
      expect(entries.map((e) => [e.operationId, e.status])).toEqual([['saveTag', 499]]);
      expect(logged).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('sends the Date of the mock\'s clock, not the wall clock, over a real socket', async () => {
    const { server } = await started();
    try {
      const res = await fetch(`${server.url}/admins`, { headers: { authorization: 'Bearer demo-token' } });
      expect(res.headers.get('date')).toBe(new Date(TEST_NOW * 1000).toUTCString());
    } finally {
      await server.close();
    }
  });
});
