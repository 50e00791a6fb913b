// Listening: the only place a port is opened. Node's own limits and timeouts are set here, and
// what Node refuses before the app sees it (oversized headers, garbage) still gets the envelope.

import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { apiError, type ApiError } from './core/errors.js';
import { errorBody } from './http/respond.js';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServerLimits {
  /** Largest request head (request line and headers) in bytes; Node's default is 16 KiB. */
  maxHeaderSize: number;
  /** A client must send its whole head within this many milliseconds. */
  headersTimeoutMs: number;
  /** ... and its whole request within this many. */
  requestTimeoutMs: number;
  /** Idle keep-alive connections close after this many. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  maxHeaderSize: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

function rawErrorResponse(status: number, reason: string, error: ApiError, requestId: string): string {
  const body = JSON.stringify(errorBody(error.errors, requestId));
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'content-type: application/json; charset=utf-8',
    `x-request-id: ${requestId}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

export function listen(
  app: Hono,
  port: number,
  host: string,
  options: { limits?: Partial<ServerLimits>; requestId?: () => string } = {},
): Promise<RunningServer> {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const requestId = options.requestId ?? (() => '0'.repeat(20));
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    const server = serve(
      {
        fetch: app.fetch,
        port,
        hostname: host,
        // Node checks the head and request timeouts only this often (30 s by default).
        serverOptions: {
          maxHeaderSize: limits.maxHeaderSize,
          connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 2))),
        },
      },
      (info) => {
        server.off('error', onError);
        const shown = host.includes(':') ? `[${host}]` : host;
        resolve({
          url: `http://${shown}:${info.port}`,
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              const s = server as Server;
              s.close(() => done());
              s.closeAllConnections();
            }),
        });
      },
    ) as Server;
    server.headersTimeout = limits.headersTimeoutMs;
    server.requestTimeout = limits.requestTimeoutMs;
    server.keepAliveTimeout = limits.keepAliveTimeoutMs;
    server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
      if (!socket.writable) return socket.destroy();
      const response =
        err.code === 'HPE_HEADER_OVERFLOW'
          ? rawErrorResponse(431, 'Request Header Fields Too Large', apiError('header_fields_too_large', `The request line and headers are larger than ${limits.maxHeaderSize} bytes.`), requestId())
          : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? rawErrorResponse(408, 'Request Timeout', apiError('bad_request', 'The request took too long to arrive.'), requestId())
            : rawErrorResponse(400, 'Bad Request', apiError('bad_request', 'The request is not valid HTTP.'), requestId());
      socket.end(response);
    });
    server.on('error', onError);
  });
}
