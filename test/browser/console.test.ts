// The live console in a real headless Chromium (Debian's package, through playwright-core), against
// one listening mock with --admin-token: every view renders the seeded data and what the API just
// wrote (notes, events, bulk jobs, a conversation's lifecycle), a request sent to the API shows up
// in the live tail, a webhook delivery to a loopback receiver shows with its attempt, the app picker
// finds any of 120 provisioned apps, the clock, snapshot/restore, reset, job and fault actions change what the API
// then answers, the keyboard reaches everything, and axe-core finds no serious or critical
// violation (light and dark). Screenshots of each view go to test-artifacts/console/. One browser,
// one page, loaded once after the token: axe-core is injected once and stays.

import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { DataDir } from '../../src/data-dir/state-files.js';
import { listen, type RunningServer } from '../../src/server.js';
import { createStore } from '../../src/setup.js';
import { buildConsole } from '../../ui/build.mjs';
import { TEST_NOW } from '../helpers.js';
import { chromiumAvailable, launchChromium, warnIfMissing } from './chromium.js';

warnIfMissing('console browser test');

const ADMIN_TOKEN = 'console-admin';
const GRACE = '5714dd359a3fd47136000002';
const INVOICE = '5714dd359a3fd47136000501';
const SUPPORT_TEAM = '1000001';
/** A Unix time as the console writes it. */
const stamp = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z').replace('T', ' ');
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'console');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** The Apps view's table (its section is named "Apps (N)"). */
const APPS_TABLE = 'section[aria-label^="Apps ("] table';

describe.skipIf(!chromiumAvailable)('the live console in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let bundle: string;
  let dataDir = '';
  /** A webhook receiver on loopback: answers 202 with a short text. */
  let receiver: Server;
  let receiverUrl = '';
  const foreign: string[] = [];
  const pageErrors: string[] = [];

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: 'Bearer demo-token', accept: 'application/json', 'x-admin-token': ADMIN_TOKEN, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as any };
  };
  /** How many users the API lists with this user_id. */
  const holders = async (userId: string) => (await api('GET', `/users?user_id=${userId}`)).status === 200 ? 1 : 0;
  // JPEG: about half the time of a PNG in Chromium, and these are for people to look at.
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.jpg`), type: 'jpeg', quality: 80 });
  const view = (name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name });
  const subTab = (name: string) => page.getByRole('navigation', { name: 'Records' }).getByRole('button', { name });

  /**
   * axe-core over the page as it stands: no serious or critical violation. `scope` (CSS selectors)
   * narrows it where the rest is markup scanned before: the 100 rows of a page of apps cost axe
   * more than every other part of the test's scans together, and each row is like the first.
   */
  async function expectAccessible(what: string, scope?: { include?: string[]; exclude?: string[] }): Promise<void> {
    if (!(await page.evaluate<boolean>("'axe' in window"))) await page.addScriptTag({ path: AXE });
    // Run in the page (a string: the test's own TypeScript has no DOM types). Only violations are
    // collected: axe then skips building the passes it would otherwise report.
    const selectors = (list?: string[]) => list?.map((selector) => [selector]);
    const context = scope ? JSON.stringify({ include: selectors(scope.include), exclude: selectors(scope.exclude) }) : 'document';
    const violations = await page.evaluate<{ id: string; impact: string; nodes: string[] }[]>(`
      axe.run(${context}, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'], resultTypes: ['violations'] })
        .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), what).toEqual([]);
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // The bundle (esbuild's process) and the browser start while this thread seeds the store.
    const launching = launchChromium();
    launching.catch(() => undefined); // still thrown where it is awaited, below; not an unhandled rejection meanwhile
    // A fresh bundle of ui/ as it is now, where no other test reads it.
    const building = buildConsole(mkdtempSync(join(tmpdir(), 'console-bundle-')));
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(202, { 'content-type': 'text/plain' }).end('thanks'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const store = createStore({ clock: new Clock({ start: TEST_NOW, frozen: true }) });
    // As --data-dir does: the Apps view's Save writes here.
    dataDir = mkdtempSync(join(tmpdir(), 'console-data-'));
    const saving = new DataDir(dataDir, store);
    store.saver = () => saving.save();
    bundle = await building;
    server = await listen(createApp({ store, adminToken: ADMIN_TOKEN, consoleDir: bundle, log: () => undefined }), 0, '127.0.0.1');
    browser = await launching;
    // bypassCSP only lets the test inject axe-core; the page's own policy allows this origin alone.
    const context = await browser.newContext({ viewport: { width: 1300, height: 900 }, bypassCSP: true });
    page = await context.newPage();
    // The page's timers run on a clock the test can move on: the live tail's next poll is due at once
    // when the test says so, instead of up to a second later. Time still flows as usual otherwise.
    await page.clock.install();
    page.on('request', (req) => {
      if (!req.url().startsWith(server.url)) foreign.push(req.url());
    });
    page.on('pageerror', (err) => pageErrors.push(err.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
    if (bundle) rmSync(bundle, { recursive: true, force: true });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('asks for the admin token, refuses a wrong one, then shows every app with its counts', async () => {
    await page.goto(`${server.url}/__admin/ui`);
    const field = page.getByLabel('Admin token');
    await field.fill('wrong');
    await field.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('refused');
    await field.fill(ADMIN_TOKEN);
    await field.press('Enter');
    const demo = page.getByRole('row', { name: /^demo/ });
    await demo.waitFor();
    const users = (await api('GET', '/__admin/apps?app=demo')).body.apps[0].counts.users as number;
    await expect.poll(() => demo.getByRole('cell').first().textContent()).toBe(String(users));
    await expect.poll(() => page.getByRole('row', { name: /^other/ }).count()).toBe(1);
    await expectAccessible('Apps');
  }, 60_000);

  it('Records: finds customers, opens one with its companies, tags, notes, events and conversations, and shows companies, tags, segments and a thread', async () => {
    // What the API just wrote: a note, events, and a conversation the customer waits on, assigned to a team and snoozed.
    expect((await api('POST', '/notes', { body: 'Prefers <b>email</b>', user: { user_id: 'grace-2' }, admin_id: '991267' })).status).toBe(200);
    for (const [name, ago] of [['signed-in', 120], ['ordered', 60], ['signed-in', 30]] as const) {
      const metadata = name === 'ordered' ? { order_id: 'A-17' } : {};
      expect((await api('POST', '/events', { event_name: name, created_at: TEST_NOW - ago, user_id: 'grace-2', metadata })).status).toBe(202);
    }
    for (const reply of [
      { type: 'user', intercom_user_id: GRACE, message_type: 'comment', body: 'Any news?' },
      { type: 'admin', admin_id: '814860', message_type: 'assignment', assignee_id: SUPPORT_TEAM },
      { type: 'admin', admin_id: '814860', message_type: 'snoozed', snoozed_until: TEST_NOW + 7200 },
    ]) {
      expect((await api('POST', `/conversations/${INVOICE}/reply`, reply)).status).toBe(200);
    }

    await view('Records').click();
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    // By tag, from the tag list: as many as the control plane counts with that tag; then by user_id.
    const vip = (await api('GET', '/__admin/customers?app=demo&tag_id=17513&limit=1')).body.total as number;
    const customerPages = page.getByRole('navigation', { name: 'Customers pages' });
    await page.getByLabel('Search by').selectOption('tag_id');
    await page.getByRole('combobox', { name: /^Tag/ }).selectOption({ label: 'VIP' });
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => customerPages.textContent()).toContain(`1–${Math.min(vip, 50)} of ${vip}`);
    await page.getByLabel('Search by').selectOption('user_id');
    await page.getByLabel('Search text').fill('ada-1');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => customerPages.textContent()).toContain('1–1 of 1');
    await page.getByLabel('Search by').selectOption('name');
    await page.getByLabel('Search text').fill('hopper');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    await expect.poll(() => page.getByRole('table', { name: 'Customers' }).getByRole('row').count()).toBe(2);
    await shot('records-customers');

    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByRole('heading', { name: 'Grace Hopper (user)' }).waitFor();
    await page.getByRole('heading', { name: 'Companies (2)' }).waitFor();
    const grace = (await api('GET', `/__admin/customers/${GRACE}?app=demo`)).body;
    await page.getByRole('heading', { name: `Tags (${grace.tags.total})` }).waitFor();
    await page.getByRole('heading', { name: `Segments (${grace.segments.total})` }).waitFor();
    await page.getByRole('link', { name: 'Acme Corp' }).waitFor();
    const notes = page.getByRole('region', { name: 'Notes (1)' });
    await expect.poll(() => notes.locator('li').first().textContent()).toMatch(/^Mai Tanaka.*Prefers email$/);
    const summary = page.getByRole('table', { name: 'Event summary' });
    await expect.poll(() => summary.getByRole('row', { name: /^signed-in/ }).getByRole('cell').first().textContent()).toBe('2');
    const events = page.getByRole('table', { name: 'Events, newest first' });
    await expect.poll(() => events.getByRole('row').nth(1).textContent()).toMatch(/^signed-in/);
    await expect.poll(() => events.getByRole('row', { name: /^ordered/ }).textContent()).toContain('"order_id":"A-17"');
    const invoiceRow = page.getByRole('row', { name: /^Invoice question/ });
    await expect.poll(() => invoiceRow.textContent()).toContain('snoozed');
    // An outside URL in a record is text, never a request (the check on `foreign` below).
    await shot('records-customer');
    // The README's picture: this page whole, with what the API just wrote.
    if (process.env.CONSOLE_SCREENSHOT) await page.screenshot({ path: process.env.CONSOLE_SCREENSHOT, fullPage: true });
    await expectAccessible('Customer page');

    await subTab('Companies').click();
    const acme = page.getByRole('row', { name: /^Acme Corp/ });
    const members = (await api('GET', '/__admin/companies/5714dd359a3fd47136000101?app=demo')).body.members.total as number;
    await expect.poll(() => acme.getByRole('cell').nth(2).textContent()).toBe(String(members));
    await shot('records-companies');
    // The company's page lists its members.
    await acme.getByRole('link', { name: 'Acme Corp' }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Members pages' }).textContent()).toContain(`of ${members}`);

    await subTab('Tags and segments').click();
    await page.getByRole('row', { name: /^VIP/ }).waitFor();
    await page.getByRole('row', { name: /^Enterprise accounts/ }).waitFor();
    await shot('records-tags');

    await subTab('Conversations').click();
    const cells = page.getByRole('row', { name: /^Invoice question/ }).getByRole('cell');
    // State with the snooze's end, the team by name, and since when the customer waits.
    await expect.poll(() => cells.allTextContents()).toEqual(expect.arrayContaining([`snoozeduntil ${stamp(TEST_NOW + 7200)}`, 'Support (team)', stamp(TEST_NOW)]));
    await page.getByRole('link', { name: 'Invoice question' }).click();
    const thread = page.locator('ol.thread > li');
    await expect.poll(() => thread.count()).toBe(8);
    await expect.poll(() => thread.first().textContent()).toContain('opening message');
    // Each message as plain text, its HTML source one click away (shown as text, never rendered).
    const opening = thread.first();
    await opening.locator('details > summary').click();
    await expect.poll(() => opening.locator('details > pre').textContent()).toMatch(/^<p>.*<\/p>$/s);
    await expect.poll(() => opening.locator('p.body').textContent()).not.toMatch(/[<>]/);
    expect(await opening.locator('details > pre').evaluate((el) => el.children.length)).toBe(0);
    await expect.poll(() => page.locator('.meta').textContent()).toMatch(/^snoozed until .* · assignee Support \(team\) · waiting since /);
    await shot('records-thread');
    await expectAccessible('Thread');

    // 21 older events through a bulk job, run at once: opened again from the thread, the customer's events take two pages.
    const items = Array.from({ length: 21 }, (_, i) => ({ method: 'post', data_type: 'event', data: { event_name: 'page-view', created_at: TEST_NOW - 1000 + i, user_id: 'grace-2' } }));
    expect((await api('POST', '/bulk/events', { items })).status).toBe(202);
    expect((await api('POST', '/__admin/jobs/run?app=demo')).body.ran).toBe(1);
    await page.locator('.meta').getByRole('link', { name: 'Grace Hopper' }).click();
    const eventPages = page.getByRole('navigation', { name: 'Events pages' });
    await expect.poll(() => eventPages.textContent()).toContain('1–20 of 24');
    await eventPages.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => eventPages.textContent()).toContain('21–24 of 24');
    await expect.poll(() => events.getByRole('row').nth(4).textContent()).toMatch(new RegExp(`^page-view${stamp(TEST_NOW - 1000)}`));
    await eventPages.getByRole('button', { name: 'First' }).click();
    await expect.poll(() => eventPages.textContent()).toContain('1–20 of 24');
  }, 60_000);

  it('Traffic: a request sent to the API appears in the live tail and opens to its request and response', async () => {
    await view('Traffic').click();
    // The tail's first read is in (it holds the Records test's note), so what follows needs a poll.
    await page.getByRole('row', { name: /POST \/notes 200/ }).waitFor();
    const sent = await api('POST', '/users', { user_id: 'tail-1', email: 'tail@example.com' });
    expect(sent.status).toBe(200);
    const row = page.getByRole('row', { name: /POST \/users 200 upsertUser/ });
    // The tail's poll, a second on: brought forward (a poll already under way still shows it on the next).
    await page.clock.fastForward(1000);
    await row.waitFor();
    await row.getByRole('link', { name: '/users' }).click();
    const entry = page.locator('.entry');
    await expect.poll(() => entry.textContent()).toContain('tail@example.com');
    await expect.poll(() => entry.textContent()).toContain(sent.body.id);
    // A filter keeps only what matches; applying it reads the journal again at once (no wait for the next poll).
    // Every field at once: each must reach the journal's filter as written for the row to show.
    await api('GET', '/users/5714dd359a3fd47136ffffff');
    await page.getByLabel('Method').selectOption('GET');
    await page.getByLabel('Path starts with').fill('/users/');
    await page.getByLabel('Status').fill('404');
    await page.getByLabel('Operation').fill('getUser');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('row', { name: /GET \/users\/5714dd359a3fd47136ffffff 404 getUser/ }).waitFor();
    await expect.poll(() => page.getByRole('row', { name: /POST \/users/ }).count()).toBe(0);
    // A request answered leniently carries its contract warnings: a mark in its row, the list in its entry, and a filter.
    await api('GET', '/users/5714dd359a3fd47136ffffff?expand=1');
    await page.getByLabel('with warnings only').check();
    await page.getByRole('button', { name: 'Filter' }).click();
    const warned = page.getByRole('row', { name: /GET \/users\/5714dd359a3fd47136ffffff 404 getUser ⚠ unknown_parameter/ });
    await warned.waitFor();
    await expect.poll(() => page.locator('.tail tbody tr').count()).toBe(1);
    await warned.getByRole('link').click();
    await expect.poll(() => page.locator('.entry').textContent()).toContain('unknown_parameter: expand is not a query parameter of this operation (it takes none).');
    await page.getByLabel('with warnings only').uncheck();

    // A webhook delivery: subscribed, a user made, the jobs run; its attempt shows below the tail and opens.
    const sub = (await api('POST', '/subscriptions', { url: receiverUrl, topics: ['user.created'], hub_secret: 'console' })).body;
    expect((await api('POST', '/users', { user_id: 'hooked-1' })).status).toBe(200);
    expect((await api('POST', '/__admin/jobs/run?app=demo')).status).toBe(200);
    await page.getByRole('button', { name: 'Refresh deliveries' }).click();
    const deliveries = page.getByRole('table', { name: 'Webhook deliveries, newest attempt first' });
    const delivery = deliveries.getByRole('row', { name: /user\.created/ });
    await expect.poll(() => delivery.textContent()).toContain('delivered (202)');
    // Opened from the keyboard: the notification id is a link.
    await delivery.getByRole('link', { name: /^notif_/ }).focus();
    await page.keyboard.press('Enter');
    const opened = page.locator('.entry', { hasText: 'Attempt 1' });
    await expect.poll(() => opened.textContent()).toContain('"user_id":"hooked-1"');
    const body = await opened.locator('pre').first().textContent();
    expect(await opened.textContent()).toContain(`sha1=${createHmac('sha1', 'console').update(body ?? '').digest('hex')}`);
    expect(await opened.textContent()).toContain('thanks');
    await shot('traffic');
    await expectAccessible('Traffic');
    // Gone again, so the jobs counted below are the Apps test's own.
    expect((await api('DELETE', `/subscriptions/${sub.id}`)).status).toBe(200);
  }, 60_000);

  it('the app picker finds any of more than 100 apps by id or name, page by page', async () => {
    // 20 requests at a time (in any order within a batch: the picker lists apps in the order they were made).
    for (let i = 0; i < 120; i += 20) {
      const batch = Array.from({ length: 20 }, (_, j) => fetch(`${server.url}/admins`, { headers: { authorization: `Bearer test_pick${String(i + j).padStart(3, '0')}`, accept: 'application/json' } }).then((r) => r.status));
      expect(await Promise.all(batch)).toEqual(Array(20).fill(200));
    }
    const picker = page.getByRole('group', { name: 'App picker' });
    const choice = picker.locator('select');
    // The apps offered, by id (each option shows the id and the app's name).
    const options = () => page.evaluate<string[]>("[...document.querySelectorAll('.app-pick select option')].map((o) => o.value)");
    // (Leaving Traffic drops its filter.) The Apps table pages through all 122 apps, from the keyboard too.
    await view('Apps').click();
    const appPages = page.getByRole('navigation', { name: 'Apps pages' });
    await expect.poll(() => appPages.textContent()).toContain('1–100 of 122');
    await appPages.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('row', { name: /^test_pick119/ }).waitFor();
    await expect.poll(() => appPages.textContent()).toContain('101–122 of 122');
    expect(await page.getByRole('row', { name: /^demo/ }).count()).toBe(0);
    await appPages.getByRole('button', { name: 'Previous' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /^demo/ }).waitFor();
    await expect.poll(() => appPages.textContent()).toContain('1–100 of 122');
    // Focusing the picker's list reads the apps again.
    await choice.focus();
    await expect.poll(async () => (await options()).length).toBe(100);
    await picker.getByRole('navigation', { name: 'App picker pages' }).getByRole('button', { name: 'Next' }).click();
    // The second page: the last 22 apps, and the chosen one kept on top.
    await expect.poll(async () => (await options()).length).toBe(23);
    // The pagers and the picker as they show now; the apps table's rows are the markup the first test scanned.
    await expectAccessible('Apps pager and app picker', { include: ['nav.pager', '.app-pick'] });
    expect(await options()).toContain('test_pick119');
    await picker.getByLabel('Find app').fill('PICK11');
    // The chosen app stays first while the search shows ten others.
    await expect.poll(async () => (await options()).map((id, i) => (i === 0 ? id : id.replace(/\d+$/, '')))).toEqual(['demo', ...Array(10).fill('test_pick')]);
    expect((await options()).slice(1).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `test_pick11${i}`));
    await choice.selectOption('test_pick115');
    // An action reads the chosen app again: one past the first page of apps stays chosen.
    await page.getByRole('button', { name: 'Run pending jobs' }).click();
    await page.getByText('Ran 0 pending jobs').waitFor();
    // Sent before the view opens, so its first read of the tail holds them (no wait for a poll).
    await api('GET', '/segments'); // demo's: not in test_pick115's tail
    await fetch(`${server.url}/tags`, { headers: { authorization: 'Bearer test_pick115', accept: 'application/json' } });
    await view('Traffic').click();
    await page.getByRole('row', { name: /GET \/tags 200/ }).waitFor();
    expect(await page.getByRole('row', { name: /GET \/segments/ }).count()).toBe(0);
    expect(await choice.inputValue()).toBe('test_pick115');
    await picker.getByLabel('Find app').fill('demo');
    await expect.poll(options).toEqual(['test_pick115', 'demo']);
    await choice.selectOption('demo');
  }, 60_000);

  it('Apps: the clock, bulk jobs and running them, a snapshot and its restore, and a reset change what the API then answers', async () => {
    await view('Apps').click();
    await page.getByLabel('Advance by (seconds)').fill('3600');
    await page.getByRole('button', { name: 'Advance', exact: true }).click();
    await expect.poll(async () => (await api('GET', '/__admin/clock')).body.now).toBe(TEST_NOW + 3600);
    expect((await api('POST', '/users', { user_id: 'clock-1' })).body.created_at).toBe(TEST_NOW + 3600);
    // Set to a UTC date as the page writes it; then let it run, and freeze it again.
    await page.getByLabel('Set to (Unix seconds or UTC date)').fill(stamp(TEST_NOW + 7200));
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await expect.poll(() => page.getByTestId('clock-now').textContent()).toBe(stamp(TEST_NOW + 7200));
    expect((await api('GET', '/__admin/clock')).body).toMatchObject({ now: TEST_NOW + 7200, frozen: true });
    await page.getByRole('button', { name: 'Let it run' }).click();
    await expect.poll(async () => (await api('GET', '/__admin/clock')).body.frozen).toBe(false);
    await page.getByRole('button', { name: 'Freeze' }).click();
    await expect.poll(async () => (await api('GET', '/__admin/clock')).body.frozen).toBe(true);

    const bulk = await api('POST', '/bulk/users', { items: [{ method: 'post', data_type: 'user', data: { user_id: 'bulk-ui' } }] });
    expect(bulk.status).toBe(202);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const job = page.getByRole('row', { name: new RegExp(`^${bulk.body.id}`) });
    await expect.poll(() => job.getByRole('cell').first().textContent()).toBe('running');
    const pending = page.getByRole('row', { name: /^demo/ }).getByRole('cell').nth(7);
    await expect.poll(() => pending.locator('.sub').first().textContent()).toBe('0 enrichment, 1 bulk, 0 webhook');
    await page.getByRole('button', { name: 'Run pending jobs' }).click();
    await expect.poll(() => job.getByRole('cell').first().textContent()).toBe('completed');
    expect(await holders('bulk-ui')).toBe(1);
    await shot('apps');

    await page.getByLabel('Snapshot name').fill('console-snap');
    await page.getByRole('button', { name: 'Take snapshot' }).click();
    await page.getByRole('row', { name: /^console-snap/ }).waitFor();
    expect((await api('POST', '/users', { user_id: 'after-snap' })).status).toBe(200);
    await page.getByRole('button', { name: 'Restore console-snap' }).click();
    await expect.poll(() => holders('after-snap')).toBe(0);
    expect(await holders('clock-1')).toBe(1);
    await page.getByRole('button', { name: 'Delete console-snap' }).click();
    await expect.poll(() => page.getByRole('row', { name: /^console-snap/ }).count()).toBe(0);
    expect((await api('GET', '/__admin/snapshots?app=demo')).body.snapshots).toEqual([]);

    await page.getByRole('button', { name: 'Reset demo' }).click();
    await expect.poll(() => holders('clock-1')).toBe(0);

    // Save writes each seeded app's file to --data-dir (provisioned test apps are never saved).
    await page.getByRole('button', { name: 'Save to --data-dir' }).click();
    await page.getByText(`Saved demo, other to ${dataDir}`).waitFor();
    expect(readdirSync(dataDir).sort()).toEqual(['demo.json', 'other.json']);
  }, 60_000);

  it('Faults: a fault added from the form is what the API answers, until it is removed', async () => {
    await view('Faults').click();
    await page.getByLabel('Operation').fill('listAdmins');
    await page.getByLabel('Answer with status').selectOption('503');
    await page.getByRole('button', { name: 'Add fault' }).click();
    const row = page.getByRole('row', { name: /listAdmins/ });
    await row.waitFor();
    const refused = await api('GET', '/admins');
    expect(refused.status).toBe(503);
    expect(refused.body.errors[0].code).toBe('service_unavailable');
    await shot('faults');
    await expectAccessible('Faults');
    await row.getByRole('button', { name: /^Remove fault/ }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await api('GET', '/admins')).status).toBe(200);

    // An error code instead of a status, for the next request only.
    await page.getByLabel('Operation').fill('listSegments');
    await page.getByLabel('Or error code').fill('tag_not_found');
    await page.getByLabel('Count (next N)').fill('1');
    await page.getByRole('button', { name: 'Add fault' }).click();
    await page.getByRole('row', { name: /listSegments/ }).waitFor();
    const once = await api('GET', '/segments');
    expect([once.status, once.body.errors[0].code]).toEqual([404, 'tag_not_found']);
    expect((await api('GET', '/segments')).status).toBe(200);

    // Latency alone, for a seeded half of the matches: the fault as the control plane then holds it.
    await page.getByLabel('Operation').fill('listAdmins');
    await page.getByLabel('Answer with status').selectOption('');
    await page.getByLabel('Latency (ms)').fill('5');
    await page.getByLabel('Fraction (0 to 1)').fill('0.5');
    await page.getByRole('button', { name: 'Add fault' }).click();
    const slow = page.getByRole('row', { name: /listAdmins/ });
    await expect.poll(() => slow.textContent()).toContain('waits 5 ms');
    const held = (await api('GET', '/__admin/faults')).body.faults.filter((f: { operation_id?: string }) => f.operation_id === 'listAdmins');
    expect(held).toEqual([expect.objectContaining({ app: 'demo', latency_ms: 5, fraction: 0.5 })]);
    expect(held[0].status).toBeUndefined();
    await slow.getByRole('button', { name: /^Remove fault/ }).click();
    await expect.poll(() => slow.count()).toBe(0);
  }, 60_000);

  it('can be used with the keyboard alone', async () => {
    // Tabbing starts at the top of the page (a click on the title moves the starting point there, as a reload would).
    await page.getByRole('heading', { name: 'messaging-api-mock', exact: true }).click();
    // What a screen reader would call the focused control: its label, or its text.
    const focused = () => page.evaluate<string>("(() => { const e = document.activeElement; return ((e && e.labels && e.labels[0]) || e)?.textContent?.trim() ?? ''; })()");
    const tabTo = async (text: string) => {
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        if ((await focused()) === text) return;
      }
      throw new Error(`Tab never reached "${text}"`);
    };
    await tabTo('Records');
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    // Searching from the keyboard: the field, the text, Enter submits.
    await tabTo('Search text');
    await page.keyboard.type('lovelace');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('table', { name: 'Customers' }).getByRole('row').count()).toBe(2);
    await tabTo('Ada Lovelace');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Ada Lovelace (user)' }).waitFor();
    await tabTo('← Back');
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  }, 60_000);

  it('Apps: a long seed shows where it stands while it runs, then the app it made', async () => {
    await view('Apps').click();
    // As the page counts them (the test's API calls carry demo's token, which narrows the list).
    const total = Number((await page.locator('section[aria-label^="Apps ("]').getAttribute('aria-label'))?.match(/\d+/)?.[0]);
    const seeding = api('POST', '/__admin/seed', { app: { id: 'big', tokens: ['big-token'] }, generate: { users: 20000 } });
    await expect.poll(async () => (await api('GET', '/__admin/health')).body.seeding.length).toBe(1);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const status = page.getByRole('status', { name: 'Seeds in progress' });
    await expect.poll(() => status.textContent()).toMatch(/^Seeding big: (generating|checking|indexing|counting)[a-z ]* [\d,]+ of [\d,]+/);
    expect((await seeding).status).toBe(200);
    // The view follows the seed: once it is in place, the note goes and the app is counted.
    await expect.poll(() => status.count()).toBe(0);
    await page.getByRole('region', { name: `Apps (${total + 1})` }).waitFor();
  }, 60_000);

  it('follows the system\'s dark mode, still readable, and never asked another host for anything', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await view('Apps').click();
    await page.getByRole('row', { name: /^demo/ }).waitFor();
    const background = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(13, 17, 23)');
    await shot('apps-dark');
    // The first four rows (both row shades), not all 100: the rest are alike.
    expect(await page.locator(`${APPS_TABLE} tbody tr`).count()).toBe(100);
    await expectAccessible('Apps, dark', { exclude: [`${APPS_TABLE} tbody tr:nth-child(n+5)`] });
    await view('Traffic').click();
    await page.getByRole('table', { name: 'Webhook deliveries, newest attempt first' }).waitFor();
    await expectAccessible('Traffic, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(foreign).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
