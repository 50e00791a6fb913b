// Over a real socket a body with a declared length is read from Node's request stream
// (src/http/read-incoming.ts), not through the adapter: a body that arrives in pieces is read whole,
// its bytes are checked as UTF-8 exactly as in process, a body that arrived whole is handled even
// if the client closes at once, and one cut short is a 499 (client-abort.test.ts).

import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { Clock } from '../src/core/clock.js';
import { listen } from '../src/server.js';
import { createStore } from '../src/setup.js';
import { TEST_NOW } from './helpers.js';

async function started() {
  const store = createStore({ clock: new Clock({ start: TEST_NOW, frozen: true }) });
  const app = createApp({ store, log: () => undefined });
  const server = await listen(app, 0, '127.0.0.1', { requestId: () => store.nextRequestId() });
  return { server, store };
}

const opened = (port: number): Promise<Socket> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
  });

const head = (path: string, bytes: number) => `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token\r\nContent-Type: application/json\r\nContent-Length: ${bytes}\r\nConnection: close\r\n\r\n`;

/** Sends the head and then each piece of the body in its own write, a pause between them; the whole answer. */
async function sendInPieces(port: number, path: string, pieces: Buffer[]): Promise<string> {
  const socket = await opened(port);
  const reply = new Promise<string>((resolve) => {
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('close', () => resolve(out));
  });
  socket.write(head(path, pieces.reduce((n, p) => n + p.length, 0)));
  for (const piece of pieces) {
    await new Promise((r) => setTimeout(r, 15));
    socket.write(piece);
  }
  return reply;
}

const bodyOf = (reply: string) => JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as Record<string, any>;

describe('a request body read from the socket', () => {
  it('arrives in three writes, one character split across two of them, and is read whole', async () => {
    const { server } = await started();
    try {
      const text = Buffer.from(JSON.stringify({ user_id: 'pieces-1', name: 'Zoë Piece' }));
      const split = text.indexOf(Buffer.from('ë')) + 1; // inside the two bytes of ë
      const reply = await sendInPieces(server.port, '/users', [text.subarray(0, 10), text.subarray(10, split), text.subarray(split)]);
      expect(reply).toMatch(/^HTTP\/1\.1 200 /);
      expect(bodyOf(reply)).toMatchObject({ type: 'user', user_id: 'pieces-1', name: 'Zoë Piece' });
      const read = await fetch(`${server.url}/users?user_id=pieces-1`, { headers: { authorization: 'Bearer demo-token' } });
      expect(((await read.json()) as { name: string }).name).toBe('Zoë Piece');
    } finally {
      await server.close();
    }
  });

  it('answers invalid UTF-8 split across writes with the 400 of app.request(), and writes nothing', async () => {
    const { server } = await started();
    try {
      const body = Buffer.concat([Buffer.from('{"user_id":"bad-utf8","name":"a'), Buffer.from([0xc3]), Buffer.from([0x28]), Buffer.from('"}')]);
      const reply = await sendInPieces(server.port, '/users', [body.subarray(0, 31), body.subarray(31, 32), body.subarray(32)]);
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(reply).errors).toEqual([{ code: 'bad_request', message: 'The request body is not valid UTF-8.' }]);
      const read = await fetch(`${server.url}/users?user_id=bad-utf8`, { headers: { authorization: 'Bearer demo-token' } });
      expect(read.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('keeps a literal U+FFFD the client sent (valid UTF-8), unlike a replaced byte', async () => {
    const { server } = await started();
    try {
      const reply = await sendInPieces(server.port, '/users', [Buffer.from(JSON.stringify({ user_id: 'fffd-1', name: 'a\uFFFDb' }))]);
      expect(reply).toMatch(/^HTTP\/1\.1 200 /);
      expect(bodyOf(reply).name).toBe('a\uFFFDb');
    } finally {
      await server.close();
    }
  });

  it('handles a body that arrived whole although the client closed the connection at once', async () => {
    const { server } = await started();
    try {
      const socket = await opened(server.port);
      const body = JSON.stringify({ user_id: 'gone-early' });
      socket.end(`${head('/users', Buffer.byteLength(body))}${body}`);
      socket.destroy();
      let found = 0;
      for (let i = 0; i < 200 && found === 0; i++) {
        await new Promise((r) => setTimeout(r, 10));
        const read = await fetch(`${server.url}/users?user_id=gone-early`, { headers: { authorization: 'Bearer demo-token' } });
        found = read.status === 200 ? 1 : 0;
        await read.arrayBuffer();
      }
      expect(found).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('a body whose client left before it was read', () => {
  it('arrived whole during injected latency: handled as the adapter does (the user is written, the journal says 200)', async () => {
    const { server } = await started();
    try {
      const fault = await fetch(`${server.url}/__admin/faults?app=demo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latency_ms: 150 }) });
      expect(fault.status).toBe(201);
      const socket = await opened(server.port);
      const body = JSON.stringify({ user_id: 'left-during-latency' });
      socket.end(`${head('/users', Buffer.byteLength(body))}${body}`);
      await new Promise((r) => setTimeout(r, 30));
      socket.destroy();
      await fetch(`${server.url}/__admin/faults?app=demo`, { method: 'DELETE' });
      let entries: { operationId: string; status: number }[] = [];
      for (let i = 0; i < 100 && !entries.some((e) => e.operationId === "upsertUser"); i++) {
        await new Promise((r) => setTimeout(r, 20));
        const res = await fetch(`${server.url}/__admin/requests?app=demo`);
        entries = ((await res.json()) as { requests: typeof entries }).requests;
      }
      expect(entries.filter((e) => e.operationId === "upsertUser").map((e) => e.status)).toEqual([200]);
      const read = await fetch(`${server.url}/users?user_id=left-during-latency`, { headers: { authorization: 'Bearer demo-token' } });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { user_id: string }).user_id).toBe('left-during-latency');
    } finally {
      await server.close();
    }
  });
});
