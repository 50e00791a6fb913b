// Starting and stopping the mock from a test runner, without a subprocess.

import type { WebhookHosts } from './resources/subscriptions/delivery.js';
import { defaultWebhookHosts } from './resources/subscriptions/targets.js';
import type { Hono } from 'hono';
import { createApp } from './app.js';
import { Clock } from './core/clock.js';
import { ControlClient } from './control-client.js';
import { listen } from './server.js';
import { createStore, type StoreSetup } from './setup.js';
import type { Store } from './state/store.js';

export interface MockServerOptions extends Omit<StoreSetup, 'clock'> {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Start the clock frozen at this Unix time; default: the wall clock. */
  now?: number;
  bodyLimit?: number;
  /** Require X-Admin-Token on /__admin; the returned control client sends it. */
  adminToken?: string;
  /** Access-Control-* headers and OPTIONS preflights, for a browser app under test. */
  cors?: boolean;
  /** Where webhooks may go (default loopback) and each attempt's timeout (default 5000 ms). */
  webhookHosts?: WebhookHosts;
  webhookTimeoutMs?: number;
  /** Host names answered besides loopback ones and `host`, or 'any' (http/origin-guard.ts). */
  allowedHosts?: string[] | 'any';
  /** Origins besides the mock's own whose pages may change /__admin. */
  adminOrigins?: string[];
}

export interface MockServer {
  url: string;
  port: number;
  store: Store;
  app: Hono;
  control: ControlClient;
  /** A fresh `test_` token: each one gets its own app, seeded from the default fixtures, on first use. */
  testToken(label?: string): string;
  /** Authorization headers for a token (default: the demo app's). */
  headers(token?: string): Record<string, string>;
  stop(): Promise<void>;
}

let tokenCounter = 0;

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 0, host = '127.0.0.1', now, bodyLimit, adminToken, cors, webhookHosts, webhookTimeoutMs, allowedHosts = [], adminOrigins = [], ...setup } = options;
  const clock = now === undefined ? new Clock() : new Clock({ start: now, frozen: true });
  const store = createStore({ ...setup, clock });
  const app = createApp({
    store,
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
    ...(adminToken === undefined ? {} : { adminToken }),
    ...(cors ? { cors } : {}),
    webhookHosts: webhookHosts ?? defaultWebhookHosts(host),
    ...(webhookTimeoutMs ? { webhookTimeoutMs } : {}),
    guard: { allowedHosts, listenHost: host, adminOrigins },
  });
  const server = await listen(app, port, host, { requestId: () => store.nextConnectionRequestId(), now: () => store.now() });
  store.webhooks?.listening(server.port);
  return {
    url: server.url,
    port: server.port,
    store,
    app,
    control: new ControlClient(server.url, adminToken === undefined ? {} : { adminToken }),
    testToken: (label = 'app') => `test_${label.replace(/[^!-~]/g, '_').slice(0, 100)}_${process.pid}_${++tokenCounter}`,
    headers: (token = 'demo-token') => ({ authorization: `Bearer ${token}`, accept: 'application/json' }),
    stop: () => server.close(),
  };
}
