// The official Node client (intercom-client 2.11) against a real listening mock: the client's own
// expectations are the contract. Every answer it receives is also checked against the OpenAPI
// document, as test/helpers.ts does for in-process calls.

import { createRequire } from 'node:module';
import { Hono } from 'hono';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { listen, type RunningServer } from '../../src/server.js';
import { createStore, type StoreSetup } from '../../src/setup.js';
import type { Store } from '../../src/state/store.js';
import { checkContract } from '../contract.js';
import { TEST_NOW } from '../helpers.js';

const require = createRequire(import.meta.url);
// The package is CommonJS without types; the tests use it as its users' JavaScript does.
const { Client } = require('intercom-client') as { Client: new (options: { token: string }) => any };

export interface OfficialClientMock {
  store: Store;
  clock: Clock;
  server: RunningServer;
  url: string;
  /** A promise-style client of the given app token (default: the demo app's). */
  client(token?: string): any;
  /** Every answer the server gave, as the contract check saw it. */
  seen: { method: string; path: string; status: number }[];
  close(): Promise<void>;
}

/**
 * A real listening mock over `store` whose every answer is checked against the OpenAPI document
 * (and handed to `onAnswer`), as test/helpers.ts checks in-process calls.
 */
export async function listenChecked(store: Store, clock: Clock, onAnswer?: (answer: { method: string; path: string; status: number }) => void): Promise<RunningServer> {
  const app = createApp({ store, log: () => undefined });
  const checked = new Hono();
  checked.all('*', async (c) => {
    const res = await app.fetch(c.req.raw);
    const text = await res.clone().text();
    const url = new URL(c.req.url);
    // The absolute URL, so a path sent with `//` (Java's client) is read as a path, not as a host.
    checkContract(c.req.method, c.req.url, res.status, res.headers, text === '' ? undefined : JSON.parse(text));
    onAnswer?.({ method: c.req.method, path: url.pathname + url.search, status: res.status });
    return res;
  });
  return listen(checked, 0, '127.0.0.1', { requestId: () => store.nextConnectionRequestId(), now: () => clock.now() });
}

export async function officialClientMock(setup: StoreSetup = {}): Promise<OfficialClientMock> {
  const clock = setup.clock ?? new Clock({ start: TEST_NOW, frozen: true });
  const store = createStore({ ...setup, clock });
  const seen: OfficialClientMock['seen'] = [];
  const server = await listenChecked(store, clock, (answer) => seen.push(answer));
  const url = server.url;
  return {
    store,
    clock,
    server,
    url,
    seen,
    client: (token = 'demo-token') => new Client({ token }).usePromises().useRequestOpts({ baseUrl: url, proxy: false, forever: false }),
    close: () => server.close(),
  };
}
