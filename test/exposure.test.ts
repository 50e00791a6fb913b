import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { listen } from '../src/server.js';
import { createStore } from '../src/setup.js';
import { BUILT, rawRequest, ROOT } from './real.js';

const rawText = async (port: number, text: string): Promise<string> => (await rawRequest(port, text)).text;

describe('server limits and timeouts', () => {
  it('answers request headers over the limit with 431 in the envelope, and keeps serving', async () => {
    const store = createStore();
    const server = await listen(createApp({ store }), 0, '127.0.0.1', { requestId: () => store.nextRequestId() });
    try {
      const reply = await rawText(server.port, `GET /admins HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(reply).toMatch(/^HTTP\/1\.1 431 /);
      const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
      expect(body.type).toBe('error.list');
      expect(body.errors[0].code).toBe('bad_request');
      expect(body.request_id).toMatch(/^[0-9a-z]{20}$/);
      const ok = await fetch(`${server.url}/admins`, { headers: { authorization: 'Bearer demo-token' } });
      expect(ok.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('answers bytes that are not HTTP with 400 in the envelope', async () => {
    const server = await listen(createApp({ store: createStore() }), 0, '127.0.0.1');
    try {
      const reply = await rawText(server.port, 'HELLO THERE\r\n\r\n');
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)).errors[0].code).toBe('bad_request');
    } finally {
      await server.close();
    }
  });

  it('times out a stalled client without blocking others', async () => {
    const server = await listen(createApp({ store: createStore() }), 0, '127.0.0.1', { limits: { headersTimeoutMs: 300, requestTimeoutMs: 300 } });
    try {
      const stalled = new Promise<string>((resolve) => {
        const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /admins HTTP/1.1\r\nHost: localhost\r\n'));
        let out = '';
        socket.on('data', (d) => (out += d));
        socket.on('close', () => resolve(out));
      });
      const ok = await fetch(`${server.url}/admins`, { headers: { authorization: 'Bearer demo-token' } });
      expect(ok.status).toBe(200);
      const reply = await stalled;
      expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await server.close();
    }
  });
});

describe('binding beyond loopback', () => {
  const start = (args: string[]) => {
    const child = spawn(process.execPath, [...BUILT, '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const ready = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start-up message: ${stdout}`)), 15_000);
      child.stdout.on('data', () => {
        if (stdout.includes('try:')) {
          clearTimeout(timer);
          setTimeout(() => resolve(stdout), 50);
        }
      });
    });
    return { child, ready };
  };

  it('warns that the control plane is open when listening on 0.0.0.0 without --admin-token', async () => {
    const { child, ready } = start(['--host', '0.0.0.0']);
    try {
      expect(await ready).toContain('WARNING:    listening on 0.0.0.0, beyond loopback: the control plane /__admin');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('says webhooks are not delivered when listening beyond loopback without --webhook-hosts, and warns when loopback is named there', async () => {
    const beyond = start(['--host', '0.0.0.0']);
    const named = start(['--host', '0.0.0.0', '--webhook-hosts', 'loopback']);
    try {
      expect(await beyond.ready).toContain('  webhooks:   not delivered: the mock listens on 0.0.0.0, beyond loopback; start it with --webhook-hosts loopback or any to deliver');
      expect(await named.ready).toContain("WARNING:    --webhook-hosts loopback while listening on 0.0.0.0: anyone who reaches the mock can make it POST to this machine's loopback services");
    } finally {
      beyond.child.kill('SIGTERM');
      named.child.kill('SIGTERM');
    }
  });

  it('answers only the Host names it is told beyond its address: --allowed-hosts', async () => {
    const { child, ready } = start(['--allowed-hosts', 'mock.internal']);
    try {
      const url = /listening on (\S+)/.exec(await ready)?.[1] as string;
      const port = new URL(url).port;
      const named = await rawText(Number(port), 'GET /admins HTTP/1.1\r\nHost: mock.internal\r\nAuthorization: Bearer demo-token\r\nConnection: close\r\n\r\n');
      expect(named).toMatch(/^HTTP\/1\.1 200 /);
      const other = await rawText(Number(port), 'GET /admins HTTP/1.1\r\nHost: evil.test\r\nAuthorization: Bearer demo-token\r\nConnection: close\r\n\r\n');
      expect(other).toMatch(/^HTTP\/1\.1 421 /);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('holds --max-connections below the open-file limit, and says so', async () => {
    const child = spawn('sh', ['-c', `ulimit -n 300 && exec "${process.execPath}" ${BUILT.join(' ')} --port 0`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up message: ${stdout}`)), 15_000);
        child.stdout.on('data', () => stdout.includes('try:') && (clearTimeout(timer), setTimeout(resolve, 50)));
      });
      expect(stdout).toContain('  note:       --max-connections held at 172: this process may open 300 files (ulimit -n), 128 of them kept for webhooks and files');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('warns when webhooks may go to any host (--webhook-hosts any)', async () => {
    const { child, ready } = start(['--webhook-hosts', 'any']);
    try {
      expect(await ready).toContain('WARNING:    --webhook-hosts any: webhook subscriptions may make this mock POST to any host');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('says the control plane needs X-Admin-Token when --admin-token is set, and says nothing on loopback', async () => {
    const guarded = start(['--host', '0.0.0.0', '--admin-token', 'tok']);
    const local = start([]);
    try {
      expect(await guarded.ready).toContain('/__admin requires X-Admin-Token');
      const out = await local.ready;
      expect(out).toContain('listening on http://127.0.0.1:');
      expect(out).not.toContain('WARNING');
    } finally {
      guarded.child.kill('SIGTERM');
      local.child.kill('SIGTERM');
    }
  });
});
