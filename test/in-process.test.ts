import { describe, expect, it } from 'vitest';
import { ControlError, startMockServer } from '../src/lib.js';
import { rawRequest } from './real.js';

const tcpHandles = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap' || r === 'TCPSocketWrap').length;

describe('startMockServer', () => {
  it('starts on an ephemeral port, serves a provisioned test app, drives the control plane, and stops without leaked handles', async () => {
    const before = tcpHandles();
    const mock = await startMockServer({ port: 0, seed: 4, now: 1_767_312_000 });
    try {
      expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const token = mock.testToken('in-process');
      expect(token).toMatch(/^test_in-process_\d+_\d+$/);
      const tag = await fetch(`${mock.url}/tags`, {
        method: 'POST',
        headers: { ...mock.headers(token), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'from-a-test' }),
      });
      expect(tag.status).toBe(200);
      const ref = { token };
      expect((await mock.control.health()).seed).toBe(4);
      expect(await mock.control.snapshot(ref, 'clean')).toMatchObject({ name: 'clean' });
      await fetch(`${mock.url}/tags`, { method: 'POST', headers: { ...mock.headers(token), 'content-type': 'application/json' }, body: '{"name":"later"}' });
      await mock.control.restore(ref, 'clean');
      const names = (await mock.control.state(ref)).tags.map((t) => t.name);
      expect(names).toContain('from-a-test');
      expect(names).not.toContain('later');
      expect(await mock.control.countRequests({ operationId: 'saveTag' }, ref)).toBe(2);
      expect((await mock.control.requests({ limit: 1 }, ref))[0]?.path).toBe('/tags');
      expect(await mock.control.setClock({ advance: 10 })).toEqual({ now: 1_767_312_010, frozen: true });
      await mock.control.addFault({ error: 'server_error', count: 1 }, ref);
      expect((await fetch(`${mock.url}/admins`, { headers: mock.headers(token) })).status).toBe(500);
      expect(await mock.control.faults()).toEqual([]);
      expect(await mock.control.runJobs(ref)).toEqual({ ran: 0 });
      expect(await mock.control.reset(ref)).toEqual({ reset: [mock.store.appForToken(token)?.id] });
      await expect(mock.control.state({ app: 'nope' })).rejects.toBeInstanceOf(ControlError);
    } finally {
      await mock.stop();
    }
    // Client sockets of fetch's pool notice the close asynchronously; give them a moment.
    for (let i = 0; i < 40 && tcpHandles() > before; i++) await new Promise((r) => setTimeout(r, 25));
    expect(tcpHandles()).toBe(before);
  });

  it("answers an oversized request itself with an id from the connections' own stream: the API's request ids do not move", async () => {
    const firstId = async (oversizedFirst: boolean): Promise<{ refused?: string; api: string | null }> => {
      const mock = await startMockServer({ seed: 7 });
      try {
        const out: { refused?: string; api: string | null } = { api: null };
        if (oversizedFirst) {
          const reply = await rawRequest(mock.port, `GET /admins HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
          expect(reply.status).toBe(431);
          out.refused = JSON.parse(reply.body).request_id;
        }
        // Without a token: its id comes from the store's stream, the one the server's own answers must not draw from.
        const unauthorized = await fetch(`${mock.url}/admins`);
        expect(unauthorized.status).toBe(401);
        out.api = unauthorized.headers.get('x-request-id');
        return out;
      } finally {
        await mock.stop();
      }
    };
    const plain = await firstId(false);
    const after = await firstId(true);
    expect(after.api).toBe(plain.api);
    expect(after.refused).toMatch(/^[0-9a-z]{20}$/);
    expect(after.refused).not.toBe(plain.api);
    expect((await firstId(true)).refused).toBe(after.refused);
  });

  it('runs two servers side by side without sharing state', async () => {
    const [a, b] = await Promise.all([startMockServer(), startMockServer()]);
    try {
      expect(a.port).not.toBe(b.port);
      await fetch(`${a.url}/tags`, { method: 'POST', headers: { ...a.headers(), 'content-type': 'application/json' }, body: '{"name":"only-a"}' });
      const names = (await b.control.state({ app: 'demo' })).tags.map((t) => t.name);
      expect(names).not.toContain('only-a');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
