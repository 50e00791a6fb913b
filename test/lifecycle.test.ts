// The server's life on real sockets and in real processes: idle connections, draining on close
// and on SIGTERM/SIGINT, `npm start` as a CI script runs it, and start-up failures.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { listen, type ServerLimits } from '../src/server.js';
import { createStore } from '../src/setup.js';
import { BUILT, connectOutcome, descendants, faultsHit, freePort, injectLatency, isAlive, listeningUrl, parseReply, rawRequest, ROOT, runCli, spawnLogged, waitFor, type RawReply } from './real.js';

const demo = { authorization: 'Bearer demo-token' };

async function start(limits: Partial<ServerLimits> = {}) {
  const store = createStore();
  return listen(createApp({ store, log: () => undefined }), 0, '127.0.0.1', { limits, requestId: () => store.nextConnectionRequestId() });
}

/** A connection that records what it receives; `closed` resolves with it when the server closes it. */
function openSocket(port: number) {
  let received = '';
  const socket: Socket = connect(port, '127.0.0.1');
  socket.on('data', (d) => (received += d));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, closed, connected, received: () => received };
}

/** Sends a keep-alive GET and resolves with the whole reply once the server closes the connection. */
function inFlight(port: number, path = '/admins'): Promise<RawReply> {
  const s = openSocket(port);
  s.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token\r\n\r\n`);
  return s.closed.then(parseReply);
}

describe('connections that send nothing', () => {
  it('take the request id of their 408 from a stream of their own, so the ids requests get do not depend on idle sockets', async () => {
    const ids = async (idleFirst: boolean) => {
      const server = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
      try {
        if (idleFirst) {
          const idle = openSocket(server.port);
          expect(await idle.closed).toMatch(/^HTTP\/1\.1 408 /);
        }
        const seen: string[] = [];
        for (const path of ['/__admin/health', '/no-such-route']) seen.push((await fetch(`${server.url}${path}`)).headers.get('x-request-id') ?? '');
        return seen;
      } finally {
        await server.close();
      }
    };
    expect(await ids(true)).toEqual(await ids(false));
  });

  it('get a 408 and are closed once the head timeout passes, even if the client never closes its side; an active one is served', async () => {
    const server = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    try {
      // allowHalfOpen: the client keeps its side open after the server's FIN, as a slow attacker would.
      const idle = Array.from({ length: 3 }, () => connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true }));
      const ended = idle.map((socket) => new Promise<string>((resolve) => {
        let received = '';
        socket.on('data', (d) => (received += d));
        socket.on('end', () => resolve(received));
      }));
      const blankLines = openSocket(server.port);
      await blankLines.connected;
      blankLines.socket.write('\r\n\r\n');
      const ok = await rawRequest(server.port, 'GET /admins HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token\r\nConnection: close\r\n\r\n');
      expect(ok.status).toBe(200);
      for (const reply of [...(await Promise.all(ended)), await blankLines.closed]) {
        expect(parseReply(reply).status).toBe(408);
        expect(JSON.parse(parseReply(reply).body).errors[0].code).toBe('bad_request');
      }
      await waitFor(async () => ((await server.connections()) === 0 ? true : undefined));
      for (const socket of idle) socket.destroy();
    } finally {
      await server.close();
    }
  });

  it('leave a connection alone once its request has arrived, however long the answer takes', async () => {
    const server = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    try {
      await injectLatency(server.url, 700);
      const reply = await rawRequest(server.port, 'GET /admins HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token\r\nConnection: close\r\n\r\n');
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body).type).toBe('admin.list');
    } finally {
      await server.close();
    }
  });

  it('answer a connection past the cap 503 in the envelope with Retry-After, then close it, while the ones inside are served', async () => {
    const server = await start({ maxConnections: 2 });
    try {
      const a = openSocket(server.port);
      const b = openSocket(server.port);
      for (const s of [a, b]) s.socket.write('GET /admins HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token\r\n\r\n');
      await waitFor(() => (a.received().includes('"admin.list"') && b.received().includes('"admin.list"') ? true : undefined));
      const over = openSocket(server.port);
      const refused = parseReply(await over.closed);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers.connection).toBe('close');
      expect(JSON.parse(refused.body).errors).toEqual([{ code: 'service_unavailable', message: 'The mock already serves 2 connections (--max-connections); retry in a moment.' }]);
      // One that sends its request at once gets the same answer, and nothing of its request is served.
      const eager = openSocket(server.port);
      eager.socket.write('POST /users HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token\r\nContent-Type: application/json\r\nContent-Length: 23\r\n\r\n{"user_id":"over-cap"}\n');
      expect(parseReply(await eager.closed).status).toBe(503);
      a.socket.write('GET /users?user_id=over-cap HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token\r\nConnection: close\r\n\r\n');
      const answers = (await a.closed).match(/HTTP\/1\.1 \d{3} /g);
      expect(answers).toEqual(['HTTP/1.1 200 ', 'HTTP/1.1 404 ']);
      b.socket.destroy();
    } finally {
      await server.close();
    }
  });
});

describe('RunningServer.close()', () => {
  it('refuses new connections, closes idle and silent ones at once and lets requests in flight finish', async () => {
    // A grace longer than the test's timeout: close() must not need it.
    const server = await start({ shutdownGraceMs: 60_000 });
    try {
      const silent = openSocket(server.port);
      const keptAlive = openSocket(server.port);
      keptAlive.socket.write('GET /admins HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token\r\n\r\n');
      await waitFor(() => (keptAlive.received().includes('"admin.list"') ? true : undefined));
      await injectLatency(server.url, 400);
      const replies = [inFlight(server.port), inFlight(server.port), inFlight(server.port, '/users?per_page=2')];
      await waitFor(async () => ((await faultsHit(server.url)) === 3 ? true : undefined));
      const closed = server.close();
      expect(await connectOutcome(server.port)).toBe('ECONNREFUSED');
      expect(parseReply(await keptAlive.closed).status).toBe(200);
      expect(await silent.closed).toBe('');
      for (const reply of await Promise.all(replies)) {
        expect(reply.status).toBe(200);
        expect(reply.headers.connection).toBe('close');
        expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
        expect(JSON.parse(reply.body).type).toMatch(/^(admin|user)\.list$/);
      }
      await closed;
    } finally {
      await server.close();
    }
  });

  it('still serves a request whose head was arriving when it began', async () => {
    const server = await start({ shutdownGraceMs: 60_000 });
    const arriving = openSocket(server.port);
    arriving.socket.write('GET /admins HTTP/1.1\r\nHost: localhost\r\n');
    await waitFor(async () => ((await server.connections()) === 1 ? true : undefined));
    // Nothing shows when the server has read the first bytes: give it a moment (a connection that
    // has sent nothing is dropped at once, and this test is about one that has).
    await new Promise((r) => setTimeout(r, 200));
    const closed = server.close();
    arriving.socket.write('Authorization: Bearer demo-token\r\n\r\n');
    const reply = parseReply(await arriving.closed);
    expect(reply.status).toBe(200);
    expect(reply.headers.connection).toBe('close');
    await closed;
  });

  it('cuts the requests still in flight when the grace period ends', async () => {
    const server = await start({ shutdownGraceMs: 100 });
    await injectLatency(server.url, 60_000);
    const reply = inFlight(server.port);
    await waitFor(async () => ((await faultsHit(server.url)) === 1 ? true : undefined));
    await server.close();
    expect((await reply).text).toBe('');
  });
});

describe('SIGTERM and SIGINT', () => {
  it('SIGTERM stops accepting, lets every request in flight get its full answer, then exits 0', async () => {
    const cli = runCli(['--port', '0'], BUILT);
    try {
      const url = await listeningUrl(cli);
      const port = Number(new URL(url).port);
      await injectLatency(url, 1000);
      const replies = Array.from({ length: 5 }, () => inFlight(port));
      await waitFor(async () => ((await faultsHit(url)) === 5 ? true : undefined));
      cli.child.kill('SIGTERM');
      await waitFor(() => (cli.output().stdout.includes('SIGTERM') ? true : undefined));
      expect(await connectOutcome(port)).toBe('ECONNREFUSED');
      for (const reply of await Promise.all(replies)) {
        expect(reply.status).toBe(200);
        expect(JSON.parse(reply.body).type).toBe('admin.list');
      }
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toBe(0);
  });

  it('SIGINT waits at most --shutdown-grace seconds for requests in flight, then exits 0', async () => {
    const cli = runCli(['--port', '0', '--shutdown-grace', '1'], BUILT);
    try {
      const url = await listeningUrl(cli);
      const port = Number(new URL(url).port);
      await injectLatency(url, 60_000);
      const reply = inFlight(port);
      await waitFor(async () => ((await faultsHit(url)) === 1 ? true : undefined));
      cli.child.kill('SIGINT');
      expect(await cli.exited).toBe(0);
      expect((await reply).text).toBe('');
      expect(cli.output().stdout).toContain('SIGINT: shutting down');
    } finally {
      cli.child.kill('SIGKILL');
    }
  });
});

describe('npm start', () => {
  it('runs the server as npm\'s own child without rebuilding: SIGTERM to npm frees the port and leaves no process', async () => {
    const built = statSync(join(ROOT, 'dist/cli/index.js')).mtimeMs;
    const npm = spawnLogged('npm', ['start', '--silent', '--', '--port', '0']);
    let children: number[] = [];
    try {
      const url = await listeningUrl(npm);
      const port = Number(new URL(url).port);
      children = descendants(npm.child.pid as number);
      // No shell in between: the server is npm's own child, so npm's forwarded signal reaches it.
      const commands = execFileSync('ps', ['-o', 'args=', '-p', children.join(',')], { encoding: 'utf8' });
      expect(commands.trim()).toMatch(/^node bin\/messaging-api-mock\.js --port 0$/);
      expect((await fetch(`${url}/admins`, { headers: demo })).status).toBe(200);
      npm.child.kill('SIGTERM');
      await npm.exited;
      await waitFor(() => (children.some(isAlive) ? undefined : true));
      expect(await connectOutcome(port)).toBe('ECONNREFUSED');
      expect(npm.output().stdout).toContain('SIGTERM: shutting down');
      expect(statSync(join(ROOT, 'dist/cli/index.js')).mtimeMs).toBe(built);
    } finally {
      for (const pid of children.filter(isAlive)) process.kill(pid, 'SIGKILL');
      npm.child.kill('SIGKILL');
    }
  });

  it('says in one line to build first when dist/ is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-nodist-'));
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(ROOT, 'bin/messaging-api-mock.js'), join(dir, 'bin/messaging-api-mock.js'));
    const cli = runCli([], [join(dir, 'bin/messaging-api-mock.js')]);
    expect(await cli.exited).toBe(1);
    expect(cli.output().stderr).toBe('messaging-api-mock: dist/ is missing: run npm install (or npm run build) first\n');
  });
});

describe('start-up failures', () => {
  it('a busy port: one line saying what to do, exit 2', async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const cli = runCli(['--port', String(port)], BUILT);
      expect(await cli.exited).toBe(2);
      expect(cli.output().stderr).toBe(`messaging-api-mock: port ${port} is in use: choose another with --port, or --port 0 for a free one\n`);
    } finally {
      holder.close();
    }
  });

  it.each([
    ['an address not on this machine', '192.0.2.1', /^messaging-api-mock: cannot listen on host 192\.0\.2\.1: no interface of this machine has that address; use 127\.0\.0\.1, 0\.0\.0\.0 or one of its own addresses\n$/],
    // A label over 63 characters fails in the resolver itself: no query leaves the machine.
    ['a name that does not resolve', `${'a'.repeat(64)}.invalid`, /^messaging-api-mock: cannot listen on host a{64}\.invalid: the name does not resolve; give an IP address such as 127\.0\.0\.1 or 0\.0\.0\.0\n$/],
  ])('%s as --host: one line naming it, exit 2', async (_name, host, line) => {
    const cli = runCli(['--port', '0', '--host', host], BUILT);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toMatch(line);
  });
});
