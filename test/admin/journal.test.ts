import { describe, expect, it } from 'vitest';
import { errorCodes, mock, TEST_NOW } from '../helpers.js';
import { ADA } from '../fixture-ids.js';
import { ENTRY_BYTES } from '../../src/admin/journal-space.js';

const list = async (m: ReturnType<typeof mock>, query = '') => (await m.call('GET', `/__admin/requests${query}`, { token: null })).body.requests as any[];

describe('the request journal', () => {
  it('records each API request with method, path, query, body, status, operationId, touched ids and clock time', async () => {
    const m = mock();
    // The query as sent: an echo of the path's id, which the operation drops.
    await m.call('GET', `/users/${ADA}?id=${ADA}`);
    m.clock.advance(5);
    const created = await m.call('POST', '/tags', { body: { name: 'journaled' } });
    const entries = await list(m, '?app=demo');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      app: 'demo',
      method: 'GET',
      path: `/users/${ADA}`,
      query: { id: ADA },
      body: null,
      status: 200,
      operationId: 'getUser',
      touched: [ADA],
      time: TEST_NOW,
    });
    expect(entries[0].request_id).toMatch(/^[0-9a-z]{20}$/);
    expect(entries[1]).toMatchObject({
      method: 'POST',
      path: '/tags',
      body: { name: 'journaled' },
      status: 200,
      operationId: 'saveTag',
      touched: [created.body.id],
      time: TEST_NOW + 5,
    });
    expect(entries[1].seq).toBeGreaterThan(entries[0].seq);
  });

  it('records the query as sent, not as validation coerced it', async () => {
    const m = mock();
    await m.call('GET', '/users?page=2&per_page=5&page=9');
    expect((await list(m))[0].query).toEqual({ page: '2', per_page: '5' });
  });

  it('records rejected requests too, and 401s under app null', async () => {
    const m = mock();
    await m.call('GET', '/users/nope');
    await m.call('GET', '/admins', { token: 'bad-token' });
    const all = await list(m);
    expect(all.map((e) => [e.app, e.status, e.operationId])).toEqual([
      ['demo', 404, 'getUser'],
      [null, 401, 'listAdmins'],
    ]);
  });

  it('filters by method, path prefix, operationId, status, since and limit', async () => {
    const m = mock();
    await m.call('GET', '/admins');
    await m.call('GET', `/users/${ADA}`);
    m.clock.advance(30);
    await m.call('GET', '/users/nope');
    await m.call('POST', '/tags', { body: { name: 'x' } });
    expect((await list(m, '?method=post')).map((e) => e.path)).toEqual(['/tags']);
    expect((await list(m, '?path=/users/*')).length).toBe(2);
    expect((await list(m, '?path=/admins')).length).toBe(1);
    expect((await list(m, '?operationId=getUser&status=404')).map((e) => e.path)).toEqual(['/users/nope']);
    expect((await list(m, `?since=${TEST_NOW + 30}`)).length).toBe(2);
    expect((await list(m, '?limit=1')).map((e) => e.path)).toEqual(['/tags']);
  });

  it('keeps each app\'s journal apart and never records control-plane requests', async () => {
    const m = mock();
    await m.call('GET', '/admins');
    await m.call('GET', '/admins', { token: 'other-token' });
    await m.call('GET', '/__admin/health', { token: null });
    expect((await list(m, '?app=other')).map((e) => e.app)).toEqual(['other']);
    expect((await m.call('GET', '/__admin/requests', { token: 'demo-token' })).body.requests.map((e: any) => e.app)).toEqual(['demo']);
  });

  it('counts and clears', async () => {
    const m = mock();
    await m.call('GET', '/admins');
    await m.call('GET', '/admins');
    await m.call('GET', '/admins', { token: 'other-token' });
    expect((await m.call('POST', '/__admin/requests/count', { token: null, body: { operationId: 'listAdmins' } })).body).toEqual({ count: 3 });
    expect((await m.call('POST', '/__admin/requests/count', { token: null, body: { app: 'other' } })).body).toEqual({ count: 1 });
    expect((await m.call('DELETE', '/__admin/requests?app=demo', { token: null })).body).toEqual({ cleared: 2 });
    expect((await list(m)).map((e) => e.app)).toEqual(['other']);
    expect((await m.call('DELETE', '/__admin/requests', { token: null })).body).toEqual({ cleared: 1 });
    expect(await list(m)).toEqual([]);
  });

  it('stays bounded: a ring buffer of the configured size keeps the most recent', async () => {
    const m = mock({ journalSize: 5 });
    for (let i = 0; i < 12; i++) await m.call('GET', `/users/missing-${i}`);
    expect((await list(m, '?app=demo')).map((e) => e.path)).toEqual([7, 8, 9, 10, 11].map((i) => `/users/missing-${i}`));
  });

  it('journals a large body as a marker, not the body', async () => {
    const m = mock();
    await m.call('POST', '/tags', { body: { name: 'big', pad: 'x'.repeat(20_000) } });
    expect((await list(m))[0].body).toEqual({ truncated: true, chars: 20_023 });
  });

  it('answers 404 for an unknown app in a filter', async () => {
    const res = await mock().call('POST', '/__admin/requests/count', { token: null, body: { app: 'nope' } });
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['not_found']);
  });
});

describe('the store-wide journal budget in bytes', () => {
  const big = (n: number) => ({ name: `tag-${n}`, pad: 'x'.repeat(1000) });
  const pad = 'q'.repeat(4000);

  it('counts the whole entry, query included: at the budget the oldest entries of the whole store go', async () => {
    const m = mock({ journalBytes: 64 * 1024 });
    for (let i = 0; i < 20; i++) await m.call('GET', `/users/missing-${i}?pad=${pad}`);
    for (let i = 0; i < 5; i++) await m.call('GET', `/users/other-${i}?pad=${pad}`, { token: 'other-token' });
    const kept = await list(m);
    // The most recent entries, across both apps, in order: a suffix of what was sent.
    const sent = [...[...Array(20).keys()].map((i) => `/users/missing-${i}`), ...[...Array(5).keys()].map((i) => `/users/other-${i}`)];
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.length).toBeLessThan(20);
    expect(kept.map((e) => e.path)).toEqual(sent.slice(sent.length - kept.length));
    expect(kept.at(-1).query).toEqual({ pad });
    const usage = m.store.journalUsage();
    expect(usage.entries).toBe(kept.length);
    expect(usage.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(usage.bytes).toBeGreaterThan(kept.length * 4000);
    expect((await m.call('POST', '/__admin/requests/count', { token: null, body: {} })).body).toEqual({ count: kept.length });
  });

  it('holds arena buffers only where live entries are, so a small ring keeps a MiB or two, not the whole budget', async () => {
    const m = mock({ journalSize: 5 });
    const pad = 'p'.repeat(8000);
    const body = { text: 'b'.repeat(16_000) };
    for (let i = 0; i < 400; i++) {
      if (i % 80 === 79) m.clock.advance(10); // a fresh rate-limit window
      await m.call('POST', `/tags?pad=${pad}`, { body });
    }
    const kept = await list(m, '?app=demo');
    expect(kept.map((e) => e.body)).toEqual(Array(5).fill(body));
    // 400 entries of 24 KB went through: about 9 MiB of text, of which 5 entries are live.
    expect(m.store.journalUsage().arena).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  it('keeps every kept entry intact as its text wraps around the arena, and caps the entry count', async () => {
    const m = mock({ journalBytes: 16 * 1024 }); // 12 KiB of text, 4 KiB of entries
    const cap = Math.floor(4096 / ENTRY_BYTES);
    const sent: { path: string; pad: string; body: unknown }[] = [];
    for (let i = 0; i < 60; i++) {
      const pad = String(i % 10).repeat((i * 677) % 3000);
      // No name: refused, but journaled with its body all the same.
      const body = { n: i, text: 'é'.repeat(i % 7) };
      sent.push({ path: i % 2 ? '/tags' : '/companies', pad, body });
      await m.call('POST', `${i % 2 ? '/tags' : '/companies'}?pad=${pad}`, { body });
    }
    const kept = await list(m);
    expect(kept.length).toBeGreaterThan(1);
    expect(kept.length).toBeLessThanOrEqual(cap);
    expect(kept.map((e) => ({ path: e.path, pad: e.query.pad, body: e.body }))).toEqual(sent.slice(sent.length - kept.length));
    expect(m.store.journalUsage().bytes).toBeLessThanOrEqual(16 * 1024);
    for (let i = 0; i < 40; i++) await m.call('GET', '/admins');
    expect((await list(m)).length).toBe(cap);
  });

  it('counts bodies too, and gives bytes back as entries leave the ring and journals are cleared', async () => {
    const m = mock({ journalSize: 3, journalBytes: 1024 * 1024 });
    for (let i = 0; i < 3; i++) await m.call('POST', '/tags', { body: big(i) });
    expect((await list(m, '?app=demo')).map((e) => e.body)).toEqual([big(0), big(1), big(2)]);
    const three = m.store.journalUsage().bytes;
    expect(three).toBeGreaterThan(3 * 1000);
    // The ring drops the oldest entry, giving its share back.
    await m.call('POST', '/tags', { body: big(3) });
    expect((await list(m, '?app=demo')).map((e) => e.body)).toEqual([big(1), big(2), big(3)]);
    expect(m.store.journalUsage()).toMatchObject({ bytes: three, max: 1024 * 1024, entries: 3 });
    await m.call('DELETE', '/__admin/requests', { token: null });
    expect(m.store.journalUsage()).toMatchObject({ bytes: 0, max: 1024 * 1024, entries: 0 });
  });

  it('shares one budget across apps, provisioned ones included, and frees an evicted app\'s share', async () => {
    const m = mock({ maxTestApps: 1 });
    await m.call('POST', '/tags', { token: 'test_one', body: big(1) });
    const one = m.store.journalUsage().bytes;
    await m.call('POST', '/tags', { token: 'other-token', body: big(2) });
    expect(m.store.journalUsage().bytes).toBeGreaterThan(one);
    await m.call('GET', '/admins', { token: 'test_two' }); // evicts test_one
    expect(m.store.journalUsage().entries).toBe(2);
    expect((await list(m)).map((e) => e.app)).toEqual(['other', 'test_two']);
  });
});

describe('an over-long URL', () => {
  it('is refused with 414 before its query is read, and journaled with a short path and no query', async () => {
    const m = mock();
    const res = await m.call('GET', `/users?email=${'e'.repeat(9000)}`);
    expect(res.status).toBe(414);
    expect(errorCodes(res)).toEqual(['bad_request']);
    const long = await m.call('GET', `/users/${'u'.repeat(9000)}`);
    expect(long.status).toBe(414);
    const entries = await list(m);
    expect(entries.map((e) => [e.app, e.status, e.path, e.query, e.body, e.touched])).toEqual([
      [null, 414, '/users', {}, null, []],
      [null, 414, `/users/${'u'.repeat(249)}`, {}, null, []],
    ]);
    expect(m.store.journalUsage().bytes).toBeLessThan(2 * 1024);
  });
});
