// The journal's byte accounting and its arena, below what HTTP can reach cheaply: budgets of a few
// KiB, text beyond ASCII, entries larger than a chunk, several journals sharing one space.

import { describe, expect, it } from 'vitest';
import { count, Journal, MAX_BODY_CHARS, query, type JournalRecord } from '../../src/admin/journal-log.js';
import { ENTRY_BYTES, JournalSpace } from '../../src/admin/journal-space.js';

let seq = 0;
const record = (over: Partial<JournalRecord> = {}): JournalRecord => ({
  seq: ++seq,
  time: 100,
  app: 'demo',
  request_id: `r${seq}`,
  method: 'GET',
  path: '/users',
  status: 200,
  operationId: 'listUsers',
  touched: [],
  search: '',
  bodyText: null,
  ...over,
});

describe('JournalSpace', () => {
  it('splits the budget: three quarters for text, a quarter for entries at ENTRY_BYTES each', () => {
    const small = new JournalSpace(16 * 1024);
    expect([small.arenaBytes, small.maxEntries, small.maxText]).toEqual([12 * 1024, Math.floor(4096 / ENTRY_BYTES), 12 * 1024]);
    const large = new JournalSpace(8 * 1024 * 1024);
    expect([large.arenaBytes, large.maxEntries, large.maxText]).toEqual([6 * 1024 * 1024, Math.floor((2 * 1024 * 1024) / ENTRY_BYTES), 1024 * 1024]);
    const tiny = new JournalSpace(100);
    expect([tiny.arenaBytes, tiny.maxEntries, tiny.maxText]).toEqual([75, 1, 75]);
  });

  it('counts the text of each entry in UTF-8 bytes plus ENTRY_BYTES, and gives it all back', () => {
    const space = new JournalSpace(1024 * 1024);
    const j = new Journal(10, space);
    expect([space.used, space.entries, space.arenaHeld]).toEqual([0, 0, 0]);
    j.add(record({ path: '/tags/é', search: '?q=€', bodyText: '{"a":"😀"}', touched: ['x'] }));
    // '/tags/é' 8 bytes, '?q=€' 6, the body 12, '["x"]' 5.
    expect(space.used).toBe(8 + 6 + 12 + 5 + ENTRY_BYTES);
    expect(space.entries).toBe(1);
    expect(space.arenaHeld).toBe(space.maxText);
    j.add(record({ path: '/a' }));
    expect(space.used).toBe(8 + 6 + 12 + 5 + 2 + 2 * ENTRY_BYTES);
    j.clear();
    expect([space.used, space.entries, j.size]).toEqual([0, 0, 0]);
  });
});

describe('Journal', () => {
  it('reads back text beyond ASCII exactly, the query and body parsed', () => {
    const j = new Journal(10, new JournalSpace(1024 * 1024));
    j.add(record({ path: '/tags/ü', search: '?q=%E2%82%AC&name=€', bodyText: '{"a":"😀","b":[1,2]}', touched: ['é', 'x'], status: 404 }));
    j.add(record({ path: '/plain', bodyText: '{}' }));
    const [first, second] = j.entries();
    expect(first).toEqual({
      seq: seq - 1, time: 100, app: 'demo', request_id: `r${seq - 1}`, method: 'GET', path: '/tags/ü',
      query: { q: '€', name: '€' }, body: { a: '😀', b: [1, 2] }, status: 404, operationId: 'listUsers', api_version: null, touched: ['é', 'x'], warnings: [],
    });
    expect(second).toMatchObject({ path: '/plain', query: {}, body: {}, touched: [], warnings: [] });
  });

  it('reads back the warnings after the rest of the text, beyond ASCII too, and filters on them', () => {
    const j = new Journal(10, new JournalSpace(1024 * 1024));
    const warnings = [{ code: 'unknown_parameter', message: 'é is not a query parameter', field: 'é' }, { code: 'coerced_value', message: '€', muted: true }];
    j.add(record({ path: '/ü', search: '?é=1', bodyText: '{"a":"😀"}', touched: ['x'], warnings }));
    j.add(record({ path: '/plain' }));
    const [first, second] = j.entries();
    expect(first).toMatchObject({ path: '/ü', query: { é: '1' }, body: { a: '😀' }, touched: ['x'], warnings });
    expect(second?.warnings).toEqual([]);
    expect(j.matching({ warnings: true }).length).toBe(1);
    expect(j.matching({ warnings: false }).length).toBe(1);
    expect(j.matching({ warning: 'coerced_value' }).length).toBe(1);
    expect(j.matching({ warning: 'unused_field' }).length).toBe(0);
  });

  it('keeps nothing with capacity 0', () => {
    const space = new JournalSpace(1024 * 1024);
    const j = new Journal(0, space);
    j.add(record());
    expect([j.size, space.entries, space.used]).toEqual([0, 0, 0]);
  });

  it('keeps a body over MAX_BODY_CHARS as its length only, and one over a chunk the same way', () => {
    const j = new Journal(10, new JournalSpace(1024 * 1024));
    const long = `{"t":"${'x'.repeat(MAX_BODY_CHARS)}"}`;
    j.add(record({ bodyText: long }));
    const exact = `{"t":"${'x'.repeat(MAX_BODY_CHARS - 8)}"}`;
    j.add(record({ bodyText: exact }));
    expect(j.entries().map((e) => e.body)).toEqual([{ truncated: true, chars: long.length }, { t: 'x'.repeat(MAX_BODY_CHARS - 8) }]);

    const space = new JournalSpace(4096); // 3 KiB of text a chunk
    const small = new Journal(10, space);
    small.add(record({ path: '/p', bodyText: `{"t":"${'y'.repeat(3500)}"}` }));
    expect(small.entries().map((e) => [e.path, e.body])).toEqual([['/p', { truncated: true, chars: 3508 }]]);
    expect(space.used).toBe(2 + ENTRY_BYTES);
    // A path longer than a chunk cannot be kept at all.
    small.add(record({ path: `/${'p'.repeat(3100)}` }));
    expect(small.size).toBe(1);
  });

  it('keeps the most recent entries of a full ring, oldest first, however many went through', () => {
    const space = new JournalSpace(1024 * 1024);
    const j = new Journal(5, space);
    const paths = Array.from({ length: 100 }, (_, i) => `/users/${i}`);
    for (const path of paths) j.add(record({ path }));
    expect(j.entries().map((e) => e.path)).toEqual(paths.slice(-5));
    expect(j.size).toBe(5);
    expect(space.entries).toBe(5);
    expect(space.used).toBe(paths.slice(-5).join('').length + 5 * ENTRY_BYTES);
  });

  it('makes room in a shared space by dropping the oldest entry of the whole store', () => {
    const space = new JournalSpace(3 * 4 * ENTRY_BYTES); // room for 3 entries
    const a = new Journal(10, space);
    const b = new Journal(10, space);
    a.add(record({ path: '/a1' }));
    b.add(record({ path: '/b1' }));
    a.add(record({ path: '/a2' }));
    b.add(record({ path: '/b2' }));
    expect(a.entries().map((e) => e.path)).toEqual(['/a2']);
    expect(b.entries().map((e) => e.path)).toEqual(['/b1', '/b2']);
    expect(space.entries).toBe(3);
  });

  it('wraps its text around the arena, dropping whole chunks nobody uses, every kept entry intact', () => {
    const space = new JournalSpace(4 * 1024 * 1024); // three 1 MiB chunks of text
    const ring = new Journal(2, space);
    const big = (i: number) => `/${String(i % 10).repeat(300_000 + i)}`;
    for (let i = 0; i < 40; i++) ring.add(record({ path: big(i) }));
    expect(ring.entries().map((e) => e.path)).toEqual([big(38), big(39)]);
    expect(space.arenaHeld).toBeLessThanOrEqual(2 * 1024 * 1024);

    const wide = new Journal(100, space);
    ring.clear();
    for (let i = 0; i < 40; i++) wide.add(record({ path: big(i) }));
    const kept = wide.entries().map((e) => e.path);
    // At most three entries a chunk: about nine of them fit in three chunks.
    expect(kept.length).toBeGreaterThanOrEqual(6);
    expect(kept.length).toBeLessThanOrEqual(9);
    expect(kept).toEqual(Array.from({ length: 40 }, (_, i) => big(i)).slice(40 - kept.length));
    expect(space.arenaHeld).toBeLessThanOrEqual(3 * 1024 * 1024);
    expect(space.used).toBeLessThanOrEqual(space.max);
  });
});

describe('query and count over several journals', () => {
  it('merge in request order, filter on every member, and keep the most recent `limit`', () => {
    const space = new JournalSpace(1024 * 1024);
    const a = new Journal(10, space);
    const b = new Journal(10, space);
    a.add(record({ path: '/users', method: 'GET', time: 10 }));
    b.add(record({ path: '/users/1', method: 'POST', status: 400, operationId: 'createUser', time: 20 }));
    a.add(record({ path: '/companies', method: 'POST', operationId: 'createCompany', time: 30 }));
    b.add(record({ path: '/users/2', method: 'DELETE', time: 40 }));
    const paths = (f: Parameters<typeof query>[1]) => query([a, b], f).map((e) => e.path);
    expect(paths({})).toEqual(['/users', '/users/1', '/companies', '/users/2']);
    expect(paths({ method: 'post' })).toEqual(['/users/1', '/companies']);
    expect(paths({ path: '/users' })).toEqual(['/users']);
    expect(paths({ path: '/users*' })).toEqual(['/users', '/users/1', '/users/2']);
    expect(paths({ path: '/users/*' })).toEqual(['/users/1', '/users/2']);
    expect(paths({ operationId: 'createCompany' })).toEqual(['/companies']);
    expect(paths({ status: 400 })).toEqual(['/users/1']);
    expect(paths({ since: 30 })).toEqual(['/companies', '/users/2']);
    expect(paths({ limit: 2 })).toEqual(['/companies', '/users/2']);
    expect(paths({ limit: 0 })).toEqual([]);
    expect(paths({ limit: 9 })).toHaveLength(4);
    expect(count([a, b], { path: '/users*' })).toBe(3);
    expect(count([a, b], { since: 41 })).toBe(0);
  });
});

describe('the arena at its edges', () => {
  it('fits entries that exactly fill the free room, and makes room by the oldest entry only', () => {
    const space = new JournalSpace(4096); // one chunk of 3,072 bytes, 3 entries
    const j = new Journal(10, space);
    const third = (c: string) => `/${c.repeat(1023)}`;
    for (const c of 'abc') j.add(record({ path: third(c) }));
    expect(j.entries().map((e) => e.path)).toEqual([third('a'), third('b'), third('c')]);
    j.add(record({ path: third('d') }));
    expect(j.entries().map((e) => e.path)).toEqual([third('b'), third('c'), third('d')]);
  });

  it('keeps text of exactly a chunk, body included, and nothing longer', () => {
    const space = new JournalSpace(4096);
    const j = new Journal(10, space);
    j.add(record({ path: '/p', bodyText: `{"t":"${'x'.repeat(3062)}"}` }));
    expect(j.entries()[0]?.body).toEqual({ t: 'x'.repeat(3062) });
    j.clear();
    j.add(record({ path: '/p', bodyText: `{"t":"${'x'.repeat(3063)}"}` }));
    expect(j.entries()[0]?.body).toEqual({ truncated: true, chars: 3071 });
    j.clear();
    j.add(record({ path: `/${'p'.repeat(3071)}` }));
    j.add(record({ path: `/${'q'.repeat(3072)}` }));
    expect(j.entries().map((e) => e.path.length)).toEqual([3072]);
  });

  it('reads back touched ids of a request without a body', () => {
    const space = new JournalSpace(1024 * 1024);
    const j = new Journal(10, space);
    j.add(record({ path: '/users/1', touched: ['1', 'é'] }));
    expect(j.entries()[0]).toMatchObject({ body: null, touched: ['1', 'é'] });
    expect(space.used).toBe(8 + 10 + ENTRY_BYTES);
  });

  it('holds one chunk for a ring of one, however many entries went through', () => {
    const space = new JournalSpace(4 * 1024 * 1024);
    const j = new Journal(1, space);
    for (let i = 0; i < 12; i++) j.add(record({ path: `/${String(i % 10).repeat(600_000)}` }));
    expect(j.entries().map((e) => e.path.slice(0, 2))).toEqual(['/1']);
    expect(space.arenaHeld).toBe(1024 * 1024);
  });

  it('wraps to the first chunk by dropping only the entries in the way', () => {
    const space = new JournalSpace(4 * 1024 * 1024); // three 1 MiB chunks
    const j = new Journal(100, space);
    // Over half a chunk each: one entry a chunk.
    const text = (c: string) => `/${c.repeat(600_000)}`;
    for (const c of 'abcd') j.add(record({ path: text(c) }));
    expect(j.entries().map((e) => e.path)).toEqual([text('b'), text('c'), text('d')]);
  });

  it('never reuses the buffer of a chunk that still holds a live entry', () => {
    const space = new JournalSpace(4 * 1024 * 1024); // three 1 MiB chunks
    const keep = new Journal(100, space);
    const churn = new Journal(1, space);
    const text = (c: string) => `/${c.repeat(400_000)}`;
    const kept: string[] = [];
    // Each chunk takes two entries: one that stays, one that leaves when the next churns in.
    for (let i = 0; i < 6; i++) {
      const c = String.fromCharCode(97 + i);
      keep.add(record({ path: text(c) }));
      kept.push(text(c));
      churn.add(record({ path: text(c.toUpperCase()) }));
    }
    const now = keep.entries().map((e) => e.path);
    expect(now).toEqual(kept.slice(kept.length - now.length));
    expect(now.length).toBeGreaterThanOrEqual(3);
    expect(churn.entries().map((e) => e.path)).toEqual([text('F')]);
  });

  it('compacts the store-wide queue behind a long-lived entry and still drops the oldest first', () => {
    const space = new JournalSpace(16 * 1024); // at most 12 entries
    const old = new Journal(10, space);
    const ring = new Journal(2, space);
    const wide = new Journal(100, space);
    old.add(record({ path: '/old' }));
    for (let i = 0; i < 300; i++) ring.add(record({ path: `/r${i}` }));
    expect(space.entries).toBe(3);
    for (let i = 0; i < 11; i++) wide.add(record({ path: `/w${i}` }));
    expect(space.entries).toBe(12);
    expect(old.entries()).toEqual([]);
    expect(ring.entries().map((e) => e.path)).toEqual(['/r299']);
    expect(wide.entries()).toHaveLength(11);
  });
});
