// The official Node client's scroll loops (`<resource>.scroll.each`) against a real listening
// mock: each sends back the scroll_param it last received and stops on the first empty page, so a
// loop that ends having seen every record once proves the mock speaks the client's protocol.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { officialClientMock, type OfficialClientMock } from './official.js';

let m: OfficialClientMock;
beforeAll(async () => (m = await officialClientMock()));
afterAll(() => m.close());

/** Runs `resource.scroll.each({}, …)` to its end; the ids of each page, the final empty one included. */
async function each(resource: 'users' | 'leads' | 'companies', key: string): Promise<string[][]> {
  const pages: string[][] = [];
  await m.client()[resource].scroll.each({}, (res: { body: Record<string, { id: string }[]> }) => {
    pages.push((res.body[key] ?? []).map((r) => r.id));
  });
  return pages;
}

describe('the official client scrolls', () => {
  it('users.scroll.each: every user once, 100 a page, then the empty page that stops it and frees the slot', async () => {
    const start = m.seen.length;
    const pages = await each('users', 'users');
    const total = (await m.client().counts.appCounts()).body.user.count as number;
    expect(pages.map((p) => p.length)).toEqual([100, total - 100, 0]);
    expect(new Set(pages.flat()).size).toBe(total);
    const sent = m.seen.slice(start).map((s) => s.path);
    expect(sent[0]).toBe('/users/scroll');
    expect(sent.slice(1, 3).every((p) => /^\/users\/scroll\?scroll_param=[0-9a-f-]{36}$/.test(p))).toBe(true);
  });

  it('leads.scroll.each: every lead, after the users scroll ended (the slot is free again)', async () => {
    const pages = await each('leads', 'contacts');
    const total = (await m.client().counts.appCounts()).body.lead.count as number;
    expect(pages.at(-1)).toEqual([]);
    expect(pages.flat()).toHaveLength(total);
    expect(new Set(pages.flat()).size).toBe(total);
  });

  it('companies.scroll.each: every company, those without users included', async () => {
    const created = await m.client().companies.create({ company_id: 'scrolled-lonely', name: 'Nobody here' });
    const pages = await each('companies', 'companies');
    expect(pages.flat()).toContain(created.body.id);
    expect(new Set(pages.flat()).size).toBe(pages.flat().length);
  });

  it('rejects a second scroll while one is open with the 400 the client surfaces', async () => {
    // Opened through the client, then a second loop before the first has ended.
    await m.client().get('/users/scroll', {});
    await expect(each('companies', 'companies')).rejects.toMatchObject({ statusCode: 400 });
    m.clock.advance(60);
    expect((await each('companies', 'companies')).at(-1)).toEqual([]);
  });
});
