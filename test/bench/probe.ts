// Preloaded into some of the benchmarks' mock processes (`node --expose-gc --import <compiled
// probe.js> dist/cli/index.js ...`) to see inside the server without touching src/:
//
// - every response gets `x-bench-server-ms`: the time from the server's 'request' event to
//   writeHead (routing, pipeline, handler and serialisation; not the socket);
// - `GET /__bench/memory` is answered here, before the app sees it: a full GC (when --expose-gc is
//   on), then process.memoryUsage() as JSON.
//
// Benchmark use only; the table's throughput runs do not load it.

import { Server, ServerResponse, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';

const START = Symbol('bench-start');
type Timed = ServerResponse & { [START]?: number };

function memory(res: ServerResponse): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  const body = JSON.stringify({ gc: gc !== undefined, ...process.memoryUsage() });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const emit = Server.prototype.emit;
Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
  if (event === 'request') {
    const req = args[0] as IncomingMessage;
    const res = args[1] as Timed;
    if (req.url === '/__bench/memory') {
      memory(res);
      return true;
    }
    res[START] = performance.now();
  }
  return (emit as (this: Server, ...a: unknown[]) => boolean).apply(this, [event, ...args]);
} as typeof Server.prototype.emit;

const writeHead = ServerResponse.prototype.writeHead;
ServerResponse.prototype.writeHead = function (this: Timed, ...args: unknown[]) {
  const start = this[START];
  if (start !== undefined && !this.headersSent) this.setHeader('x-bench-server-ms', (performance.now() - start).toFixed(3));
  return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
} as typeof ServerResponse.prototype.writeHead;
