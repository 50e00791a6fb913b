// What a request costs the server between the socket and the socket: @hono/node-server's request
// listener, called in process with a Node IncomingMessage (head parsed, body pushed) and a
// stand-in ServerResponse that drops what it is given, so the figure is the adapter, Hono and our
// pipeline, store and response, without socket, HTTP parsing or a load generator competing for the
// two cores. Timed as this process's CPU time, which a busy machine moves far less than wall time.
// The same loop drives the bare Hono floor's app (bare-hono.ts) for scale and, with `--b DIR`, a
// second tree (DIR: `git archive` of another commit, node_modules linked, built when `--dist`),
// alternately round by round; ratios are medians of the paired rounds. Each round of the mock
// starts from a fresh store, so both trees grow their app alike. `--dist` loads the compiled build
// (`npm run build`), as the server runs it: through tsx the sources run several times slower.
//
// `--max-events N` caps each app's events (limits.events) so that, past the first N requests of a
// round, every POST /events also evicts the oldest: the steady state of a long load run, reached in
// a short round.
//
//   npx tsx test/bench/adapter-inprocess.ts --scenario post-events|post-users|get-user [--dist] [--rounds 9] [--per-round 5000] [--max-events N] [--b DIR] [--no-floor]

import { getRequestListener } from '@hono/node-server';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { Hono } from 'hono';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REFERENCE_TIME } from '../../src/fixtures/normalize.js';
import { bareApp } from './bare-hono.js';
import { flag, main, median, numberOption, option } from './lib.js';
import { ADA, DEMO_TOKEN } from './lib.js';
import { eventWrites, userWrites } from './scenarios.js';

type Listener = ReturnType<typeof getRequestListener>;

interface Request {
  method: string;
  url: string;
  body: string | undefined;
}

/**
 * A Node request as the server hands it over (head parsed, the body already pushed), so both the
 * adapter's body reading and the mock's own (read-incoming.ts) take the path they take when served.
 */
function incoming(req: Request): IncomingMessage {
  const headers: Record<string, string> = { host: '127.0.0.1:3000', authorization: `Bearer ${DEMO_TOKEN}`, accept: 'application/json' };
  if (req.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(req.body));
  }
  const message = new IncomingMessage(new Socket());
  message.method = req.method;
  message.url = req.url;
  message.headers = headers;
  message.rawHeaders = Object.entries(headers).flat();
  message.httpVersion = '1.1';
  message.httpVersionMajor = 1;
  message.httpVersionMinor = 1;
  if (req.body !== undefined) message.push(Buffer.from(req.body));
  message.push(null);
  message.complete = true;
  return message;
}

/** A ServerResponse that keeps only the status (checked) and drops the rest. */
class Outgoing {
  status = 0;
  _contentLength = null;
  _hasBody = true;
  useChunkedEncodingByDefault = true;
  _removedContLen = false;
  writable = true;
  headersSent = false;
  writeHead(status: number): this {
    this.status = status;
    return this;
  }
  hasHeader(): boolean {
    return false;
  }
  setHeader(): this {
    return this;
  }
  write(): boolean {
    return true;
  }
  end(): this {
    return this;
  }
  on(): this {
    return this;
  }
  once(): this {
    return this;
  }
  flushHeaders(): void {}
}

interface Target {
  name: string;
  /** A fresh server-side state; the listener to call. */
  fresh: () => Listener;
  expect: number;
}

const key = option('--scenario') ?? 'post-events';
const DIST = flag('--dist');
const maxEvents = option('--max-events');
const limits = maxEvents === undefined ? undefined : { events: numberOption('--max-events', 100_000, 1, 100_000) };
const SCENARIOS: Record<string, { method: string; url: string; status: number; make: (round: number) => (() => string) | undefined }> = {
  'post-events': { method: 'POST', url: '/events', status: 202, make: () => eventWrites(REFERENCE_TIME + 86_400) },
  'post-users': { method: 'POST', url: '/users', status: 200, make: (r) => userWrites(`r${r}`) },
  'get-user': { method: 'GET', url: `/users/${ADA}`, status: 200, make: () => undefined },
};

async function mockTarget(name: string, root: string): Promise<Target> {
  // --dist: the compiled build (npm run build), as the server runs it; else the sources through tsx.
  const file = (name: string) => pathToFileURL(resolve(root, DIST ? `dist/src/${name}.js` : `src/${name}.ts`)).href;
  const { createApp } = (await import(file('app'))) as typeof import('../../src/app.js');
  const { createStore } = (await import(file('setup'))) as typeof import('../../src/setup.js');
  const expect = SCENARIOS[key]?.status ?? 200;
  return {
    name,
    expect,
    fresh: () => {
      const app: Hono = createApp({ store: createStore({ seed: 1, rateLimit: 1_000_000_000, ...(limits && { limits }) }), log: () => undefined });
      return getRequestListener(app.fetch, { hostname: '127.0.0.1' });
    },
  };
}

await main(async () => {
  const scenario = SCENARIOS[key];
  if (!scenario) throw new Error(`--scenario one of ${Object.keys(SCENARIOS).join(', ')}`);
  const rounds = numberOption('--rounds', 9, 1, 100);
  const perRound = numberOption('--per-round', 5_000, 100, 1_000_000);
  const other = option('--b');
  const targets: Target[] = [await mockTarget('A (this tree)', resolve(import.meta.dirname, '../..'))];
  if (other !== undefined) targets.push(await mockTarget(`B (${other})`, other));
  if (!flag('--no-floor')) {
    const floor = getRequestListener(bareApp().fetch);
    targets.push({ name: 'bare Hono floor', expect: scenario.status, fresh: () => floor });
  }

  /**
   * CPU microseconds of this process per request, one round (CPU, not wall time: on a shared
   * machine a preempted round loses wall time, not CPU); every target gets the same requests.
   */
  const round = async (t: Target, r: number): Promise<number> => {
    const listener = t.fresh();
    const make = scenario.make(r);
    const requests = Array.from({ length: perRound }, () => incoming({ method: scenario.method, url: scenario.url, body: make?.() }));
    const out = new Outgoing();
    const c0 = process.cpuUsage();
    let bad = 0;
    for (const req of requests) {
      await listener(req as never, out as never);
      if (out.status !== t.expect) bad++;
    }
    const used = process.cpuUsage(c0);
    const us = (used.user + used.system) / perRound;
    if (bad > 0) throw new Error(`${t.name}: ${bad} answers other than ${t.expect} (last: ${out.status})`);
    return us;
  };

  for (const t of targets) await round(t, -1);
  const times = targets.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? targets.map((_, i) => i) : targets.map((_, i) => targets.length - 1 - i);
    for (const i of order) times[i]?.push(await round(targets[i] as Target, r));
  }
  targets.forEach((t, i) => process.stdout.write(`${t.name}: median ${median(times[i] ?? []).toFixed(2)} µs of CPU per ${scenario.method} ${scenario.url} (${rounds} rounds of ${perRound})\n`));
  const a = times[0] ?? [];
  for (let i = 1; i < targets.length; i++) {
    const b = times[i] ?? [];
    process.stdout.write(`A / ${targets[i]?.name}, median of the paired rounds: ${median(a.map((x, r) => x / (b[r] as number))).toFixed(3)}\n`);
  }
});
