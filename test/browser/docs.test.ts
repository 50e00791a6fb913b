// Drives the docs page in a real headless Chromium (Debian's package, through playwright-core):
// every operation is listed, and "Try it out" with the pre-filled demo token and examples gets a 200.

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { ROUTES } from '../../src/resources/index.js';
import { listen, type RunningServer } from '../../src/server.js';
import { createStore } from '../../src/setup.js';
import { chromiumAvailable, launchChromium, warnIfMissing } from './chromium.js';

warnIfMissing('docs browser test');

describe.skipIf(!chromiumAvailable)('the docs page in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await listen(createApp({ store: createStore() }), 0, '127.0.0.1');
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists every operation and runs a list, a read by id and a write from the pre-filled examples, offline', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(server.url) && !req.url().startsWith('data:')) foreign.push(req.url());
    });
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    // Expand every tag section so each operation is in the DOM.
    const ids = await page.$$eval('.opblock', (els) => els.map((e) => e.id));
    expect(ids.length).toBe(ROUTES.length);
    for (const def of ROUTES) expect(ids.some((id) => id.endsWith(`-${def.operationId}`))).toBe(true);

    // A read, a read with a pre-filled path parameter and a write with the pre-filled body: each
    // answers as the example promises, with nothing edited.
    const tryOut = async (operationId: string) => {
      const op = page.locator(`.opblock[id$="-${operationId}"]`);
      await op.locator('.opblock-summary').click();
      await op.locator('button.try-out__btn').click();
      await op.locator('button.execute').click();
      const status = op.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor({ timeout: 15_000 });
      return { status: (await status.textContent())?.trim(), body: await op.locator('.live-responses-table .microlight').first().textContent() };
    };
    const admins = await tryOut('listAdmins');
    expect(admins.status).toBe('200');
    expect(admins.body).toContain('"admin.list"');
    const ada = await tryOut('getUser');
    expect(ada.status).toBe('200');
    expect(ada.body).toContain('"ada@example.com"');
    const upsert = await tryOut('upsertUser');
    expect(upsert.status).toBe('200');
    expect(upsert.body).toContain('"plan_tier": "pro"');
    expect(foreign).toEqual([]);
    if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: false });
    await page.close();
  }, 90_000);
});
