// Listening: the only place a port is opened. Node's own limits and timeouts are set here; what
// Node or the adapter would answer on their own (garbage, a bad Host, `*`, CONNECT, an unknown
// Expect) still gets the envelope; closing drains the requests in flight.

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Hono } from 'hono';
import { apiError, type ApiError } from './core/errors.js';
import { TurnResponse } from './http/turn-response.js';
import { errorBody, httpDate } from './http/respond.js';

export interface RunningServer {
  url: string;
  port: number;
  /** Connections open right now: idle, arriving or being answered. */
  connections(): Promise<number>;
  /** Connections served at once: the limit asked for, held below the process's open-file limit. */
  maxConnections: number;
  /**
   * Stops accepting, closes idle connections, lets the requests in flight finish (each closing
   * its connection), and after `graceMs` (default: the limits') cuts whatever remains.
   */
  close(graceMs?: number): Promise<void>;
}

export interface ServerLimits {
  /** Largest request head (request line and headers) in bytes; Node's default is 16 KiB. */
  maxHeaderSize: number;
  /** A client must send its whole head within this many milliseconds of connecting or of starting a request. */
  headersTimeoutMs: number;
  /** ... and its whole request within this many. */
  requestTimeoutMs: number;
  /** Idle keep-alive connections close after this many. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; one more is answered 503 (Retry-After) and closed. */
  maxConnections: number;
  /** How long close() waits for requests in flight before cutting their connections. */
  shutdownGraceMs: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  maxHeaderSize: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 10_000,
  shutdownGraceMs: 5_000,
};

/**
 * Descriptors kept free of connections: the listening socket, stdio, webhook deliveries in flight
 * (resources/subscriptions/delivery.ts caps them at 64), --data-dir files and the lock.
 */
export const RESERVED_DESCRIPTORS = 128;

/** The process's soft limit of open files, where the platform shows it (Linux: /proc/self/limits). */
export function descriptorLimit(limitsText = readProcLimits()): number | undefined {
  const line = limitsText?.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line?.split(/\s{2,}/)[1];
  return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : undefined;
}

function readProcLimits(): string | undefined {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}

/** The connections served at once: as asked, but never so many that accepting one more fails for want of a descriptor. */
export const connectionCap = (asked: number, limit: number | undefined): number => (limit === undefined ? asked : Math.max(1, Math.min(asked, limit - RESERVED_DESCRIPTORS)));

/** Over HTTPS, connections still shaking hands may go this far past the cap before any is closed unanswered. */
const HANDSHAKE_ALLOWANCE = 16;

/** After an answer written straight to the socket, how long a client may keep its side open. */
const LINGER_MS = 1_000;

const JSON_TYPE = 'application/json; charset=utf-8';

/** What identifies an answer the server writes itself: its request id and `Date` (the mock's clock when given). */
interface Stamp {
  id: string;
  date: string | undefined;
}

function errorHead(stamp: Stamp, body: string): Record<string, string> {
  return {
    'content-type': JSON_TYPE,
    ...(stamp.date === undefined ? {} : { date: stamp.date }),
    'x-request-id': stamp.id,
    'content-length': String(Buffer.byteLength(body)),
  };
}

/** An answer for a socket no request object owns (a parse error, a timeout, CONNECT). */
function rawErrorResponse(status: number, reason: string, error: ApiError, stamp: Stamp, extra: Record<string, string> = {}): string {
  const body = JSON.stringify(errorBody(error.errors, stamp.id));
  const head = Object.entries({ ...errorHead(stamp, body), ...extra, connection: 'close' }).map(([k, v]) => `${k}: ${v}`);
  return [`HTTP/1.1 ${status} ${reason}`, ...head, '', body].join('\r\n');
}

/**
 * Ends the connection after the answer. `end()` alone only half-closes it (Node's HTTP server
 * allows half-open sockets), so a client that never closes its side would hold it for ever.
 */
function answerAndClose(socket: Duplex, response: string): void {
  socket.end(response);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

function sendError(res: ServerResponse, status: number, error: ApiError, stamp: Stamp): void {
  const body = JSON.stringify(errorBody(error.errors, stamp.id));
  res.writeHead(status, { ...errorHead(stamp, body), connection: 'close' });
  res.end(body);
}

/** What the adapter accepts as a request target: a path, or an absolute http(s) URL. */
const SERVED_TARGET = /^(\/|https?:\/\/)/;

const quoted = (text: string) => JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);

export function listen(
  app: Hono,
  port: number,
  host: string,
  options: {
    limits?: Partial<ServerLimits>;
    requestId?: () => string;
    /** The mock's clock (Unix seconds) for the `Date` of answers the server writes itself; Node's wall clock without it. */
    now?: () => number;
    /** Serve HTTPS with this certificate and key (PEM). */
    tls?: { cert: string; key: string };
  } = {},
): Promise<RunningServer> {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const maxConnections = connectionCap(limits.maxConnections, descriptorLimit());
  /** Connections over the cap: answered 503 as they arrive, never served. */
  const refused = new WeakSet<Socket>();
  const nextId = options.requestId ?? (() => '0'.repeat(20));
  const { now } = options;
  const stampOf = (): Stamp => ({ id: nextId(), date: now === undefined ? undefined : httpDate(now()) });
  const adapter = getRequestListener(app.fetch, {
    // Stands in for a missing Host (HTTP/1.0 may omit it).
    hostname: host.includes(':') ? `[${host}]` : host,
    // The adapter's own answer to a target or Host it cannot turn into a URL is a bare 400.
    errorHandler: (err) => {
      const stamp = stampOf();
      const error =
        err instanceof RequestError
          ? apiError('bad_request', `The request target or its Host header is not valid (${err.message}).`)
          : apiError('server_error', 'An unexpected error occurred; the mock keeps serving.');
      const body = JSON.stringify(errorBody(error.errors, stamp.id));
      return new Response(body, { status: error.status, headers: errorHead(stamp, body) });
    },
  });

  // Every open connection with its latest response while that is in flight: what close() waits
  // for and what it may drop at once (a connection that has sent nothing). Kept by connection: a
  // Set that gained and lost a response per request made the young-generation collector copy, and
  // promote, every response of a busy server (docs/performance.md).
  const connections = new Map<Socket, ServerResponse | undefined>();
  let draining = false;

  const serverOptions: ServerOptions = {
    maxHeaderSize: limits.maxHeaderSize,
    // Node checks the head and request timeouts only this often (30 s by default).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 2))),
    // Node's own answer to a missing Host is a bare 400; the listener gives the envelope.
    requireHostHeader: false,
    // Answers leave at the end of the event loop's turn (http/turn-response.ts).
    ServerResponse: TurnResponse as typeof ServerResponse,
  };
  const { tls } = options;
  // node:https (and tls under it) only when asked for: loading it costs a plain start ~5 ms. Taken
  // from the built-ins, not imported: the single executable runs no dynamic import.
  const secure = tls ? (process.getBuiltinModule('node:https') as typeof import('node:https')).createServer : undefined;
  // A TLS handshake gets the time a request head gets (Node's default is 120 s).
  const make = secure && tls ? (listener: Parameters<typeof createServer>[1]) => secure({ ...serverOptions, ...tls, handshakeTimeout: limits.headersTimeoutMs }, listener) : (listener: Parameters<typeof createServer>[1]) => createServer(serverOptions, listener);
  const server: Server = make(
    (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      if (refused.has(socket)) return;
      connections.set(socket, res);
      res.once('close', () => {
        if (connections.get(socket) === res) connections.set(socket, undefined);
        // The connection becomes idle once its response is done; while draining, idle means closed.
        if (draining) setImmediate(() => server.closeIdleConnections());
      });
      const target = req.url ?? '';
      if (!SERVED_TARGET.test(target)) {
        return sendError(res, 400, apiError('bad_request', `The request target must be a path such as /admins (or an absolute http URL), not ${quoted(target)}.`), stampOf());
      }
      if (req.httpVersion === '1.1' && req.headers.host === undefined) {
        return sendError(res, 400, apiError('bad_request', 'An HTTP/1.1 request needs a Host header.'), stampOf());
      }
      if (draining) res.setHeader('connection', 'close');
      void adapter(req, res);
    },
  );
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // A client that half-closes after its request still gets the answer: Node then closes after the
  // last answer instead of at once (which, with answers sent at the end of the turn, lost the ones
  // a turn had not yet sent when it read the client's end).
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;

  // Over HTTPS a connection is counted once its handshake is done, when the 503 can be said; the
  // sockets open in all (shaking hands or not) are held to a few more, closed without a word past them.
  // Sockets accepted over HTTPS, and the peers (address and port) whose handshake is done: the
  // others are still shaking hands, which close() ends at once (Node's own cut does not reach them).
  const sockets = new Set<Socket>();
  const secured = new Set<string>();
  const peer = (s: Socket) => `${s.remoteAddress ?? ''}|${s.remotePort ?? ''}`;
  if (tls) {
    server.on('connection', (socket: Socket) => {
      if (sockets.size >= maxConnections + HANDSHAKE_ALLOWANCE) return socket.destroy();
      sockets.add(socket);
      const key = peer(socket);
      socket.once('close', () => {
        sockets.delete(socket);
        secured.delete(key);
      });
    });
    server.on('secureConnection', (socket: Socket) => secured.add(peer(socket)));
  }
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    if (connections.size >= maxConnections) {
      // Told so in the envelope, then closed: the connections already open keep being served.
      refused.add(socket);
      const error = apiError('service_unavailable', `The mock already serves ${maxConnections} connections (--max-connections); retry in a moment.`);
      answerAndClose(socket, rawErrorResponse(503, 'Service Unavailable', error, stampOf(), { 'retry-after': '1' }));
      return;
    }
    connections.set(socket, undefined);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || refused.has(socket as Socket)) return socket.destroy();
    const response =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? rawErrorResponse(431, 'Request Header Fields Too Large', apiError('header_fields_too_large', `The request line and headers are larger than ${limits.maxHeaderSize} bytes.`), stampOf())
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? rawErrorResponse(408, 'Request Timeout', apiError('bad_request', 'The request took too long to arrive.'), stampOf())
          : rawErrorResponse(400, 'Bad Request', apiError('bad_request', 'The request is not valid HTTP.'), stampOf());
    answerAndClose(socket, response);
  });
  // Without a listener Node answers a bare 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    if (refused.has(req.socket)) return;
    connections.set(req.socket, res);
    sendError(res, 417, apiError('bad_request', `Only Expect: 100-continue is supported, not ${quoted(String(req.headers.expect))}.`), stampOf());
  });
  // Without a listener Node closes the socket without a word.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    if (refused.has(req.socket)) return socket.destroy();
    connections.delete(req.socket);
    answerAndClose(socket, rawErrorResponse(405, 'Method Not Allowed', apiError('method_not_allowed', 'CONNECT is not supported: the mock is not a proxy.'), stampOf()));
  });

  let closing: Promise<void> | undefined;
  const close = (graceMs = limits.shutdownGraceMs) =>
    (closing ??= new Promise<void>((done) => {
      draining = true;
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      cut.unref();
      // Also closes the idle keep-alive connections.
      server.close(() => {
        clearTimeout(cut);
        done();
      });
      for (const socket of sockets) if (!secured.has(peer(socket))) socket.destroy();
      for (const [socket, res] of connections) {
        // Only the latest of pipelined answers says close, so the ones before it are all sent.
        if (res !== undefined && !res.headersSent) res.setHeader('connection', 'close');
        // Node counts a connection that has sent nothing as busy (its head may be on the way).
        else if (res === undefined && socket.bytesRead === 0) socket.destroy();
      }
    }));

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const { port: bound } = server.address() as { port: number };
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `${tls ? 'https' : 'http'}://${shown}:${bound}`,
        port: bound,
        maxConnections,
        connections: () => new Promise((answer) => server.getConnections((_err, count) => answer(count))),
        close,
      });
    });
  });
}
