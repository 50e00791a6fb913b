// The one way tests talk to the mock: every call goes through HTTP (app.request) and comes back
// parsed, so checks on every response can be added in one place.

import { expect } from 'vitest';
import { createApp, type AppOptions } from '../src/app.js';
import { Clock } from '../src/core/clock.js';
import { REFERENCE_TIME } from '../src/fixtures/normalize.js';
import { createStore, type StoreSetup } from '../src/setup.js';
import type { Store } from '../src/state/store.js';
import { checkContract } from './contract.js';

/** Tests start one day after the fixtures' reference time, on a frozen clock aligned to a window. */
export const TEST_NOW = REFERENCE_TIME + 86_400;

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestMock {
  store: Store;
  clock: Clock;
  app: ReturnType<typeof createApp>;
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>;
}

export function mock(setup: StoreSetup & Partial<Omit<AppOptions, 'store'>> = {}): TestMock {
  const clock = setup.clock ?? new Clock({ start: TEST_NOW, frozen: true });
  // These tests were written against version 1.1's answers; they name it. The default (1.0) is
  // what test/clients' replays and the tests that say so exercise.
  const store = createStore({ apiVersion: '1.1', ...setup, clock });
  const app = createApp({
    store,
    log: () => undefined,
    ...(setup.bodyLimit ? { bodyLimit: setup.bodyLimit } : {}),
    ...(setup.routes ? { routes: setup.routes } : {}),
    ...(setup.adminToken ? { adminToken: setup.adminToken } : {}),
    ...(setup.consoleDir ? { consoleDir: setup.consoleDir } : {}),
    ...(setup.cors ? { cors: true } : {}),
    ...(setup.webhookTimeoutMs ? { webhookTimeoutMs: setup.webhookTimeoutMs } : {}),
    ...(setup.webhookHosts ? { webhookHosts: setup.webhookHosts } : {}),
    ...(setup.guard ? { guard: setup.guard } : {}),
    ...(setup.requestLog ? { requestLog: setup.requestLog } : {}),
  });
  return {
    store,
    clock,
    app,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
      const token = options.token === undefined ? 'demo-token' : options.token;
      if (token !== null && headers.authorization === undefined) headers.authorization = `Bearer ${token}`;
      let body: string | Uint8Array | undefined = options.raw;
      if (body === undefined && options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await app.request(path, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (!path.startsWith('/docs') && !path.startsWith('/openapi.')) {
        checkContract(method, path, res.status, res.headers, parsed, setup.routes);
      }
      return { status: res.status, headers: res.headers, body: parsed as never, text };
    },
  };
}

/** An app's exported state as text: what "a rejected request changes nothing" compares. */
export async function stateText(m: TestMock, app = 'demo'): Promise<string> {
  return (await m.call('GET', `/__admin/state?app=${app}`, { token: null })).text;
}

/**
 * Sends a request that must be refused: asserts its status and error codes, and that the app's
 * exported state is byte-identical afterwards (a rejected request changes nothing).
 */
export async function expectRejected(m: TestMock, method: string, path: string, options: CallOptions, status: number, codes: string[]): Promise<CallResult> {
  const before = await stateText(m);
  const res = await m.call(method, path, options);
  expect(res.status).toBe(status);
  expect(errorCodes(res)).toEqual(codes);
  expect(await stateText(m)).toBe(before);
  return res;
}

/** Asserts the error envelope and returns the codes, for `expect(codes).toEqual([...])`. */
export function errorCodes(result: CallResult): string[] {
  const b = result.body as { type?: string; request_id?: string; errors?: { code: string }[] };
  if (b?.type !== 'error.list') throw new Error(`expected an error.list, got ${result.status} ${result.text.slice(0, 300)}`);
  if (b.request_id !== result.headers.get('x-request-id')) throw new Error('request_id differs from X-Request-Id');
  return (b.errors ?? []).map((e) => e.code);
}

/** The codes of an X-Mock-Warning value's elements, in order (`code "message"`, comma-separated; quotes inside are escaped). */
export const warningCodesOf = (value: string | null | undefined): string[] => [...(value ?? '').matchAll(/(?:^|, )([a-z_]+) "/g)].map((m) => m[1] as string);
