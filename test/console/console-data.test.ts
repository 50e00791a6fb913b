// The control-plane endpoints the live console reads: paged, through the indexes, in the API's
// error envelope when asked wrong, and changing nothing when read.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectRejected, mock, stateText, TEST_NOW } from '../helpers.js';

const ADA = '5714dd359a3fd47136000001';
const ACME = '5714dd359a3fd47136000101';
const GROUP = '5714dd359a3fd47136000501';
const LONG = '5714dd359a3fd47136000503';
const admin = { token: null };

describe('GET /__admin/apps', () => {
  it('lists every app with its counts, rate-limit window, jobs and the clock', async () => {
    const m = mock();
    await m.call('GET', '/users?per_page=1');
    await m.call('GET', '/admins');
    const res = await m.call('GET', '/__admin/apps', admin);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.next_offset).toBeNull();
    expect(res.body.clock).toEqual({ now: TEST_NOW, frozen: true });
    expect(res.body.data_dir).toBe(false);
    const demo = res.body.apps[0];
    expect(demo.id).toBe('demo');
    expect(demo.provisioned).toBe(false);
    const users = (await m.call('GET', '/users?per_page=1')).body.total_count;
    expect(demo.counts.users).toBe(users);
    expect(demo.counts.tags).toBe(JSON.parse(await stateText(m)).tags.length);
    expect(demo.rate_limit).toEqual({ per_minute: 500, allowance: 83, used: 2, remaining: 81, reset: TEST_NOW - (TEST_NOW % 10) + 10 });
    expect(res.body.apps[1].id).toBe('other');
  });

  it('shows a provisioned test app and a window that has passed as unused', async () => {
    const m = mock();
    await m.call('GET', '/admins', { token: 'test_console' });
    await m.call('POST', '/users', { token: 'test_console', body: { email: 'new@example.com', last_seen_ip: '81.2.69.142' } });
    const res = await m.call('GET', '/__admin/apps?app=test_console', admin);
    expect(res.body.total).toBe(1);
    expect(res.body.apps[0]).toMatchObject({ id: 'test_console', provisioned: true, pending_jobs: 1, next_job_due: TEST_NOW + 2, journal_entries: 2 });
    expect(res.body.apps[0].rate_limit.used).toBe(2);
    m.clock.advance(10);
    const later = await m.call('GET', '/__admin/apps?app=test_console', admin);
    expect(later.body.apps[0].rate_limit.used).toBe(0);
  });

  it('pages with offset and limit, and refuses a limit over 100', async () => {
    const m = mock();
    const res = await m.call('GET', '/__admin/apps?offset=1&limit=1', admin);
    expect(res.body.apps.map((a: { id: string }) => a.id)).toEqual(['other']);
    expect(res.body.next_offset).toBeNull();
    const first = await m.call('GET', '/__admin/apps?limit=1', admin);
    expect(first.body.next_offset).toBe(1);
    await expectRejected(m, 'GET', '/__admin/apps?limit=101', admin, 400, ['parameter_invalid']);
  });

  it('reaches every one of 250 apps exactly once, page by page, and refuses a bad offset or limit', async () => {
    const m = mock();
    const made = Array.from({ length: 248 }, (_, i) => `test_every${String(i).padStart(3, '0')}`);
    for (const token of made) expect((await m.call('GET', '/admins', { token })).status).toBe(200);
    const seen: string[] = [];
    const offsets: (number | null)[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const res = await m.call('GET', `/__admin/apps?offset=${offset}&limit=100`, admin);
      expect(res.status).toBe(200);
      const body = res.body as { apps: { id: string }[]; total: number; next_offset: number | null };
      expect(body.total).toBe(250);
      seen.push(...body.apps.map((a) => a.id));
      offset = body.next_offset;
      offsets.push(offset);
    }
    expect(offsets).toEqual([100, 200, null]);
    expect(seen).toEqual(['demo', 'other', ...made]);
    // The default page is 50; past the end is an empty page that still says how many there are.
    expect((await m.call('GET', '/__admin/apps', admin)).body).toMatchObject({ total: 250, next_offset: 50 });
    expect((await m.call('GET', '/__admin/apps?offset=250', admin)).body).toMatchObject({ apps: [], total: 250, next_offset: null });
    for (const bad of ['offset=-1', 'offset=x', 'offset=1000001', 'limit=0', 'limit=1.5']) {
      await expectRejected(m, 'GET', `/__admin/apps?${bad}`, admin, 400, ['parameter_invalid']);
    }
  });
});

describe('GET /__admin/customers', () => {
  const m = mock();
  const ids = (res: { body: { customers: { id: string }[] } }) => res.body.customers.map((c) => c.id);

  it('finds a customer by user_id and by email through the indexes, with an exact total', async () => {
    const byUserId = await m.call('GET', '/__admin/customers?app=demo&user_id=ada-1', admin);
    expect(byUserId.status).toBe(200);
    expect(byUserId.body).toMatchObject({ total: 1, next_offset: null, scanned: 1 });
    expect(byUserId.body.customers[0]).toMatchObject({ id: ADA, type: 'user', user_id: 'ada-1', email: 'ada@example.com', name: 'Ada Lovelace' });
    const shared = await m.call('GET', '/__admin/customers?app=demo&email=SHARED@example.com', admin);
    expect(ids(shared)).toEqual(['5714dd359a3fd47136000005', '5714dd359a3fd47136000006']);
    // Oldest first, also when an older customer took the email after a newer one.
    const older = await m.call('POST', '/users', { body: { user_id: 'console-older', email: 'console-first@x.io' } });
    const newer = await m.call('POST', '/users', { body: { user_id: 'console-newer', email: 'console-shared@x.io' } });
    expect((await m.call('POST', '/users', { body: { id: older.body.id, email: 'console-shared@x.io' } })).status).toBe(200);
    expect(ids(await m.call('GET', '/__admin/customers?app=demo&email=console-shared@x.io', admin))).toEqual([older.body.id, newer.body.id]);
    const leads = await m.call('GET', '/__admin/customers?app=demo&type=contact&email=lead@example.com', admin);
    expect(ids(leads)).toEqual(['5714dd359a3fd47136000007']);
  });

  it('lists a tag\'s holders with the total its index keeps', async () => {
    const res = await m.call('GET', '/__admin/customers?app=demo&tag_id=17513&limit=100', admin);
    const viaApi = await m.call('GET', '/users?tag_id=17513&per_page=60');
    expect(res.body.total).toBe(viaApi.body.total_count);
    expect(ids(res)).toContain(ADA);
  });

  it('finds names by a part in any case, scanning a bounded stretch and saying where it stopped', async () => {
    const res = await m.call('GET', '/__admin/customers?app=demo&name=LOVELACE', admin);
    expect(res.body.total).toBeNull();
    expect(ids(res)).toEqual([ADA]);
    expect(res.body.next_offset).toBeNull();
    const page = await m.call('GET', '/__admin/customers?app=demo&name=a&limit=2', admin);
    expect(page.body.customers).toHaveLength(2);
    const next = await m.call('GET', `/__admin/customers?app=demo&name=a&limit=2&offset=${page.body.next_offset}`, admin);
    expect(ids(next)).not.toContain(ids(page)[0]);
    expect(ids(next)).not.toContain(ids(page)[1]);
  });

  it('pages the whole list of a type with offset and limit', async () => {
    const all = await m.call('GET', '/__admin/customers?app=demo&type=visitor&limit=100', admin);
    const api = await m.call('GET', '/visitors?per_page=60');
    expect(all.body.total).toBe(api.body.total_count ?? all.body.total);
    const second = await m.call('GET', '/__admin/customers?app=demo&type=user&offset=1&limit=1', admin);
    expect(second.body.customers[0].id).toBe((await m.call('GET', '/users?per_page=2')).body.users[1].id);
    expect(second.body.next_offset).toBe(2);
  });

  it('narrows a lookup by a tag', async () => {
    expect(ids(await m.call('GET', '/__admin/customers?app=demo&user_id=ada-1&tag_id=17513', admin))).toEqual([ADA]);
    expect(ids(await m.call('GET', '/__admin/customers?app=demo&user_id=ada-1&tag_id=17514', admin))).toEqual([]);
  });

  it('needs an app, and refuses a bad type or limit', async () => {
    await expectRejected(m, 'GET', '/__admin/customers', admin, 400, ['parameter_not_found']);
    await expectRejected(m, 'GET', '/__admin/customers?app=demo&type=admin', admin, 400, ['parameter_invalid']);
    await expectRejected(m, 'GET', '/__admin/customers?app=demo&limit=0', admin, 400, ['parameter_invalid']);
    await expectRejected(m, 'GET', '/__admin/customers?app=nope', admin, 404, ['not_found']);
  });
});

describe('GET /__admin/customers/{id}', () => {
  it('shows the stored customer with its companies, tags, segments and conversations', async () => {
    const m = mock();
    const res = await m.call('GET', `/__admin/customers/${ADA}?app=demo`, admin);
    expect(res.status).toBe(200);
    expect(res.body.customer).toMatchObject({ id: ADA, user_id: 'ada-1', email: 'ada@example.com' });
    expect(res.body.companies.items).toContainEqual({ id: ACME, name: expect.any(String), company_id: 'acme' });
    expect(res.body.tags).toEqual({ total: 1, items: [{ id: '17513', name: 'VIP' }] });
    expect(res.body.segments.total).toBe(res.body.customer.segments.length);
    expect(res.body.conversations.items.map((c: { id: string }) => c.id)).toContain(GROUP);
  });

  it('answers 404 for an id the app does not hold', async () => {
    const m = mock();
    await expectRejected(m, 'GET', '/__admin/customers/5714dd359a3fd47136ffffff?app=demo', admin, 404, ['not_found']);
  });
});

describe('GET /__admin/companies, tags and segments', () => {
  const m = mock();

  it('lists companies with their user counts, and one company with a page of members', async () => {
    const res = await m.call('GET', '/__admin/companies?app=demo&limit=100', admin);
    const acme = res.body.companies.find((c: { id: string }) => c.id === ACME);
    const viaApi = await m.call('GET', `/companies/${ACME}/users`);
    expect(acme.user_count).toBe(viaApi.body.total_count);
    const one = await m.call('GET', `/__admin/companies/${ACME}?app=demo&limit=1`, admin);
    expect(one.body.company.company_id).toBe('acme');
    expect(one.body.members.total).toBe(acme.user_count);
    expect(one.body.members.customers).toHaveLength(1);
    await expectRejected(m, 'GET', '/__admin/companies/nope?app=demo', admin, 404, ['not_found']);
  });

  it('lists tags and segments with the counts GET /counts gives', async () => {
    const tags = await m.call('GET', '/__admin/tags?app=demo', admin);
    const vip = tags.body.tags.find((t: { id: string }) => t.id === '17513');
    const holders = await m.call('GET', '/users?tag_id=17513&per_page=1');
    const leads = await m.call('GET', '/contacts?tag_id=17513&per_page=1');
    expect(vip.people).toBe(holders.body.total_count + (leads.body.total_count ?? 0));
    const segments = await m.call('GET', '/__admin/segments?app=demo', admin);
    expect(segments.body.segments.map((s: { name: string }) => s.name)).toEqual(['Active', 'New', 'Enterprise accounts', 'Trialing']);
    expect(segments.body.total).toBe(4);
  });
});

describe('GET /__admin/conversations', () => {
  const m = mock();

  it('lists conversations most recently updated first, paged', async () => {
    const res = await m.call('GET', '/__admin/conversations?app=demo&limit=5', admin);
    expect(res.body.conversations).toHaveLength(5);
    const updated = res.body.conversations.map((c: { updated_at: number }) => c.updated_at);
    expect([...updated].sort((a, b) => b - a)).toEqual(updated);
    expect(res.body.next_offset).toBe(5);
    expect(res.body.total).toBe(JSON.parse(await stateText(m)).conversations.length);
  });

  it('shows one conversation as a thread, parts in order, HTML and plain text, authors named', async () => {
    const res = await m.call('GET', `/__admin/conversations/${GROUP}?app=demo`, admin);
    expect(res.body.conversation.customers.map((c: { id: string }) => c.id)).toEqual([ADA, '5714dd359a3fd47136000002']);
    expect(res.body.conversation.customers[0].name).toBe('Ada Lovelace');
    expect(res.body.parts.total).toBe(4);
    for (const p of res.body.parts.parts) if (p.body !== null) expect(p.body_text).not.toMatch(/<[a-z]/);
    const long = await m.call('GET', `/__admin/conversations/${LONG}?app=demo&offset=600&limit=100`, admin);
    expect(long.body.parts.total).toBe(620);
    expect(long.body.parts.parts).toHaveLength(20);
    expect(long.body.parts.next_offset).toBeNull();
    await expectRejected(m, 'GET', '/__admin/conversations/nope?app=demo', admin, 404, ['not_found']);
  });
});

describe('GET /__admin/requests/tail', () => {
  it('answers only the entries after the seq given, filtered, with the seq to send next', async () => {
    const m = mock();
    await m.call('GET', '/admins');
    const first = await m.call('GET', '/__admin/requests/tail?app=demo', admin);
    expect(first.body.requests.map((e: { path: string }) => e.path)).toEqual(['/admins']);
    const after = first.body.last_seq;
    const none = await m.call('GET', `/__admin/requests/tail?app=demo&after=${after}`, admin);
    expect(none.body).toEqual({ requests: [], last_seq: after });
    await m.call('GET', `/users/${ADA}`);
    await m.call('GET', '/users/nope');
    const next = await m.call('GET', `/__admin/requests/tail?app=demo&after=${after}&status=404`, admin);
    expect(next.body.requests.map((e: { path: string; status: number }) => [e.path, e.status])).toEqual([['/users/nope', 404]]);
    expect(next.body.last_seq).toBeGreaterThan(after);
  });

  it('keeps the most recent entries when more than limit arrived', async () => {
    const m = mock();
    for (let i = 0; i < 5; i++) await m.call('GET', `/users/${ADA}?i=${i}`);
    const res = await m.call('GET', '/__admin/requests/tail?app=demo&limit=2', admin);
    expect(res.body.requests.map((e: { query: { i?: string } }) => e.query.i)).toEqual(['3', '4']);
    await expectRejected(m, 'GET', '/__admin/requests/tail?limit=201', admin, 400, ['parameter_invalid']);
  });
});

describe('the console endpoints behind --admin-token', () => {
  it('answer 401 without the token and 200 with it', async () => {
    const m = mock({ adminToken: 'sekret' });
    const refused = await m.call('GET', '/__admin/customers?app=demo', admin);
    expect(refused.status).toBe(401);
    const ok = await m.call('GET', '/__admin/customers?app=demo', { token: null, headers: { 'x-admin-token': 'sekret' } });
    expect(ok.status).toBe(200);
  });
});

describe('GET /__admin/ui', () => {
  const bundle = mkdtempSync(join(tmpdir(), 'console-files-'));
  writeFileSync(join(bundle, 'console.js'), 'console.log(1);\n');
  writeFileSync(join(bundle, 'console.css'), 'body{}\n');
  afterAll(() => rmSync(bundle, { recursive: true, force: true }));
  const get = (m: ReturnType<typeof mock>, path: string) => m.app.request(path);

  it('serves the page and its two files from the bundle, allowing this origin alone, even behind --admin-token', async () => {
    const m = mock({ adminToken: 'sekret', consoleDir: bundle });
    const page = await get(m, '/__admin/ui');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'; script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/__admin/ui/console.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await get(m, '/__admin/ui/console.js');
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log(1);\n');
    expect((await get(m, '/__admin/ui/console.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers 404 in the envelope for any other file, and says how to build a missing bundle', async () => {
    const m = mock({ consoleDir: bundle });
    const other = await get(m, '/__admin/ui/package.json');
    expect(other.status).toBe(404);
    expect(((await other.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('not_found');
    const unbuilt = mock({ consoleDir: join(bundle, 'missing') });
    expect(await (await get(unbuilt, '/__admin/ui')).text()).toContain('run <code>npm run build</code>');
    expect((await get(unbuilt, '/__admin/ui/console.js')).status).toBe(404);
  });

  it('is linked from the docs page', async () => {
    expect(await (await get(mock(), '/docs')).text()).toContain('<a href="/__admin/ui">Live console</a>');
  });
});

describe('GET /__admin/requests/tail with warnings=true', () => {
  it('keeps only the requests with contract warnings, each carrying them', async () => {
    const m = mock();
    await m.call('GET', '/admins');
    await m.call('GET', '/admins?x=1');
    const tail = (await m.call('GET', '/__admin/requests/tail?app=demo&warnings=true', { token: null })).body;
    expect(tail.requests.map((r: { path: string; warnings: { code: string }[] }) => [r.path, r.warnings.map((w) => w.code)])).toEqual([['/admins', ['unknown_parameter']]]);
  });
});
