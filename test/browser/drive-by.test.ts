// A web page the developer visits while the mock runs (issue: safe on a laptop). Debian's Chromium
// loads a page from another origin (another port of 127.0.0.1, so same-site; and localhost, so
// cross-site) that does what such a page can: auto-submit a form, fetch with mode no-cors, send a
// beacon, load an image. Nothing changes. And a name mapped to 127.0.0.1 (what DNS rebinding gives
// a page) gets no answer from the mock.

import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { listen, type RunningServer } from '../../src/server.js';
import { createStore } from '../../src/setup.js';
import { Clock } from '../../src/core/clock.js';
import type { Store } from '../../src/state/store.js';
import { chromiumAvailable, launchChromium, warnIfMissing } from './chromium.js';

warnIfMissing('drive-by browser test');

const attackPage = (mock: string) => `<!doctype html><title>a page</title>
<iframe name="sink"></iframe>
<form id="f" method="post" action="${mock}/__admin/reset" target="sink"></form>
<img src="${mock}/__admin/state?app=test_from_img">
<script>
  fetch('${mock}/__admin/clock', { method: 'POST', mode: 'no-cors', body: '{"advance": 86400}' });
  navigator.sendBeacon('${mock}/__admin/seed', '{"app":{"id":"beacon","tokens":["beacon-token"]}}');
  document.getElementById('f').submit();
</script>`;

describe.skipIf(!chromiumAvailable)('a page the developer visits', () => {
  let browser: Browser;
  let mock: RunningServer;
  let store: Store;
  let pages: Server;
  let pagesPort: number;
  /** Control-plane requests the mock has answered, and with what. */
  const answered: { path: string; status: number }[] = [];

  beforeAll(async () => {
    store = createStore({ clock: new Clock({ start: 1_767_312_000, frozen: true }) });
    const app = createApp({ store, log: () => undefined });
    const counted = new Hono();
    counted.all('*', async (c) => {
      const res = await app.fetch(c.req.raw);
      const { pathname } = new URL(c.req.url);
      if (pathname.startsWith('/__admin')) answered.push({ path: pathname, status: res.status });
      return res;
    });
    mock = await listen(counted, 0, '127.0.0.1');
    pages = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(mock.url)));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pagesPort = (pages.address() as { port: number }).port;
    browser = await launchChromium(['--host-resolver-rules=MAP rebind.test 127.0.0.1']);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await mock?.close();
    pages?.close();
  });

  const api = async (path: string, init: RequestInit = {}) => fetch(`${mock.url}${path}`, { ...init, headers: { authorization: 'Bearer demo-token', 'content-type': 'application/json', ...init.headers } });

  it.each(['127.0.0.1', 'localhost'])('from %s on another port: no reset, no seed, no clock change, no app made by an image', async (host) => {
    const mark = `mark-${host}`;
    expect((await api('/users', { method: 'POST', body: JSON.stringify({ user_id: mark }) })).status).toBe(200);
    const clock = await (await fetch(`${mock.url}/__admin/clock`)).text();
    answered.length = 0;
    const tab = await browser.newPage();
    try {
      await tab.goto(`http://${host}:${pagesPort}/`);
      // Wait until the mock has answered all four (the form, the fetch, the beacon, the image).
      await expect.poll(() => answered.map((a) => a.path).sort(), { timeout: 20_000 }).toEqual(['/__admin/clock', '/__admin/reset', '/__admin/seed', '/__admin/state']);
    } finally {
      await tab.close();
    }
    expect(answered.filter((a) => a.path !== '/__admin/state').map((a) => a.status)).toEqual([403, 403, 403]);
    expect((await api(`/users?user_id=${mark}`)).status).toBe(200);
    expect(await (await fetch(`${mock.url}/__admin/clock`)).text()).toBe(clock);
    const health = (await (await fetch(`${mock.url}/__admin/health`)).json()) as { apps: string[] };
    expect(health.apps).not.toContain('beacon');
    expect(health.apps).not.toContain('test_from_img');
  }, 60_000);

  it('a name that resolves to the mock (DNS rebinding) gets 421, not the docs page; localhost gets it', async () => {
    const tab = await browser.newPage();
    try {
      const rebound = await tab.goto(`http://rebind.test:${mock.port}/docs`);
      expect(rebound?.status()).toBe(421);
      expect(await tab.content()).not.toContain('swagger');
      const local = await tab.goto(`http://localhost:${mock.port}/docs`);
      expect(local?.status()).toBe(200);
    } finally {
      await tab.close();
    }
  }, 60_000);
});
