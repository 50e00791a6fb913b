// --cors in a real browser: a page served from another origin (as a front-end dev server would
// serve an app) calls the mock with fetch and an Authorization header. With --cors the browser lets
// the page read the answer; without it the browser blocks the call, as with the real API.

import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { listen, type RunningServer } from '../../src/server.js';
import { createStore } from '../../src/setup.js';
import { ADA } from '../fixture-ids.js';
import { chromiumAvailable, launchChromium, warnIfMissing } from './chromium.js';

warnIfMissing('CORS browser test');

describe.skipIf(!chromiumAvailable)('a browser app on another origin', () => {
  let browser: Browser;
  let open: RunningServer;
  let closed: RunningServer;
  let page: Server;
  let pageUrl: string;

  beforeAll(async () => {
    open = await listen(createApp({ store: createStore(), cors: true }), 0, '127.0.0.1');
    closed = await listen(createApp({ store: createStore() }), 0, '127.0.0.1');
    page = createServer((_req, res) => res.end('<!doctype html><title>app</title>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    // localhost, not 127.0.0.1: another origin than the mocks'.
    pageUrl = `http://localhost:${(page.address() as { port: number }).port}/`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await open?.close();
    await closed?.close();
    page?.close();
  });

  /** What a page on the other origin gets from a POST /users with fetch. */
  async function postFromPage(base: string): Promise<{ status?: number; name?: string; requestId?: string | null; error?: string }> {
    const tab = await browser.newPage();
    try {
      await tab.goto(pageUrl);
      return await tab.evaluate(
        async ({ target, id }) => {
          try {
            const res = await fetch(target, {
              method: 'POST',
              headers: { authorization: 'Bearer demo-token', 'content-type': 'application/json' },
              body: JSON.stringify({ id, name: 'Set from a browser' }),
            });
            return { status: res.status, name: ((await res.json()) as { name: string }).name, requestId: res.headers.get('x-request-id') };
          } catch (err) {
            return { error: String(err) };
          }
        },
        { target: `${base}/users`, id: ADA },
      );
    } finally {
      await tab.close();
    }
  }

  it('reads the answer of a write with an Authorization header when the mock runs with --cors', async () => {
    const result = await postFromPage(open.url);
    expect(result).toMatchObject({ status: 200, name: 'Set from a browser' });
    expect(result.requestId).toMatch(/^[0-9a-z]{20}$/);
  }, 60_000);

  it('is blocked by the browser without --cors, before the write reaches the mock', async () => {
    const result = await postFromPage(closed.url);
    expect(result.error).toMatch(/TypeError: Failed to fetch/);
    const ada = await fetch(`${closed.url}/users/${ADA}`, { headers: { authorization: 'Bearer demo-token' } });
    expect(((await ada.json()) as { name: string }).name).toBe('Ada Lovelace');
  }, 60_000);
});
