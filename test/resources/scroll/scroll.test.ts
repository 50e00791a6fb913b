// The scroll API (surface U4, L3, C4) over HTTP: one slot per app shared by users, leads and
// companies, 100 a page, a minute of idle life on the mock's clock, the empty page that frees it.

import { describe, expect, it } from 'vitest';
import type { AppState } from '../../../src/state/app-state.js';
import { errorCodes, expectRejected, mock, stateText, type CallResult, type TestMock } from '../../helpers.js';
import { removeCustomer } from '../../../src/resources/customers/indexes.js';
import type { Customer } from '../../../src/engine/types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const EXPIRED = { code: 'parameter_invalid', field: 'scroll_param', message: 'scroll_param is invalid or has expired' };

type Kind = 'users' | 'contacts' | 'companies';

/** Every page of one scroll, the final empty one included. */
async function scrollAll(m: TestMock, kind: Kind, token = 'demo-token') {
  const pages: { ids: string[]; param: string; text: string }[] = [];
  let param: string | undefined;
  for (;;) {
    const res = await m.call('GET', `/${kind}/scroll${param === undefined ? '' : `?scroll_param=${param}`}`, { token });
    expect(res.status).toBe(200);
    param = res.body.scroll_param as string;
    const ids = (res.body[kind] as { id: string }[]).map((r) => r.id);
    pages.push({ ids, param, text: res.text });
    if (ids.length === 0) return pages;
  }
}

/** Every id of a paged list, in list order. */
async function listed(m: TestMock, path: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  for (let url: string | undefined = `${path}?per_page=60`; url; ) {
    const res: CallResult = await m.call('GET', url);
    ids.push(...(res.body[key] as { id: string }[]).map((r) => r.id));
    url = res.body.pages.next;
  }
  return ids;
}

const advance = (m: TestMock, seconds: number) => m.call('POST', '/__admin/clock', { token: null, body: { advance: seconds } });

describe('GET /users/scroll', () => {
  it('gives every user once, 100 a page in list order, the same scroll_param throughout, then an empty page', async () => {
    const m = mock();
    const pages = await scrollAll(m, 'users');
    const all = await listed(m, '/users', 'users');
    expect(all.length).toBeGreaterThan(100);
    expect(pages.map((p) => p.ids.length)).toEqual([100, all.length - 100, 0]);
    expect(pages.flatMap((p) => p.ids)).toEqual(all);
    expect(new Set(pages.map((p) => p.param)).size).toBe(1);
    expect(pages[0]?.param).toMatch(UUID);
  });

  it('answers exactly type, users and scroll_param: no pages, no total_count', async () => {
    const res = await mock().call('GET', '/users/scroll');
    expect(Object.keys(res.body)).toEqual(['type', 'users', 'scroll_param']);
    expect(res.body.type).toBe('user.list');
    expect(res.body.users.every((u: { type: string }) => u.type === 'user')).toBe(true);
  });

  it('frees the slot with its empty page: the param is then invalid and a new scroll opens', async () => {
    const m = mock();
    const [first] = await scrollAll(m, 'users');
    const again = await m.call('GET', `/users/scroll?scroll_param=${first?.param}`);
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([EXPIRED]);
    const reopened = await m.call('GET', '/users/scroll');
    expect(reopened.status).toBe(200);
    expect(reopened.body.scroll_param).not.toBe(first?.param);
  });

  it('accepts the trailing slash and an empty scroll_param as an opening', async () => {
    const m = mock();
    expect((await m.call('GET', '/users/scroll/?scroll_param=')).status).toBe(200);
  });

  it('refuses parameters it does not take under strict mode (otherwise ignores them, with a warning), and other methods', async () => {
    const m = mock();
    expect((await m.call('GET', '/users/scroll?per_page=10')).headers.get('x-mock-warning')).toMatch(/^unknown_parameter "per_page /);
    await expectRejected(m, 'GET', '/users/scroll?per_page=10', { headers: { 'x-mock-strict': 'true' } }, 400, ['parameter_invalid']);
    const post = await m.call('POST', '/users/scroll', { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});

describe('one scroll per app', () => {
  it('answers a second opening with 400 scroll_exists, whichever resource it scrolls', async () => {
    const m = mock();
    const open = await m.call('GET', '/users/scroll');
    for (const kind of ['users', 'contacts', 'companies']) {
      const res = await expectRejected(m, 'GET', `/${kind}/scroll`, {}, 400, ['scroll_exists']);
      expect(res.body.errors).toEqual([{ code: 'scroll_exists', message: 'scroll already exists for this app' }]);
    }
    // The refused openings took nothing from the live scroll.
    expect((await m.call('GET', `/users/scroll?scroll_param=${open.body.scroll_param}`)).body.users).toHaveLength(26);
  });

  it('does not take another resource\'s scroll_param, nor an unknown one', async () => {
    const m = mock();
    const open = await m.call('GET', '/users/scroll');
    const other = await expectRejected(m, 'GET', `/contacts/scroll?scroll_param=${open.body.scroll_param}`, {}, 400, ['parameter_invalid']);
    expect(other.body.errors).toEqual([EXPIRED]);
    await expectRejected(m, 'GET', '/users/scroll?scroll_param=nope', {}, 400, ['parameter_invalid']);
    expect((await m.call('GET', `/users/scroll?scroll_param=${open.body.scroll_param}`)).status).toBe(200);
  });

  it('is per app: another app scrolls at the same time, and a param does not cross apps', async () => {
    const m = mock();
    const demo = await m.call('GET', '/users/scroll');
    const other = await m.call('GET', '/users/scroll', { token: 'other-token' });
    expect(other.status).toBe(200);
    expect(other.body.scroll_param).not.toBe(demo.body.scroll_param);
    const crossed = await m.call('GET', `/users/scroll?scroll_param=${demo.body.scroll_param}`, { token: 'other-token' });
    expect(crossed.status).toBe(400);
    expect(errorCodes(crossed)).toEqual(['parameter_invalid']);
    expect((await m.call('GET', `/users/scroll?scroll_param=${demo.body.scroll_param}`)).status).toBe(200);
  });
});

describe('expiry on the mock\'s clock', () => {
  it('lives 60 s from its last use: 59 s idle is fine (and extends it), 60 s idle has expired', async () => {
    const m = mock();
    const { scroll_param: param } = (await m.call('GET', '/users/scroll')).body;
    await advance(m, 59);
    expect((await m.call('GET', `/users/scroll?scroll_param=${param}`)).status).toBe(200);
    await advance(m, 59);
    expect((await m.call('GET', `/users/scroll?scroll_param=${param}`)).status).toBe(200);
    await advance(m, 60);
    const expired = await m.call('GET', `/users/scroll?scroll_param=${param}`);
    expect(expired.status).toBe(400);
    expect(expired.body.errors).toEqual([EXPIRED]);
  });

  it('frees the slot once expired: a new scroll opens without scroll_exists', async () => {
    const m = mock();
    await m.call('GET', '/contacts/scroll');
    await advance(m, 59);
    expect(errorCodes(await m.call('GET', '/companies/scroll'))).toEqual(['scroll_exists']);
    await advance(m, 1);
    expect((await m.call('GET', '/companies/scroll')).status).toBe(200);
  });
});

describe('leads and companies', () => {
  it('GET /contacts/scroll gives every lead as contact.list', async () => {
    const m = mock();
    const pages = await scrollAll(m, 'contacts');
    expect(pages.flatMap((p) => p.ids)).toEqual(await listed(m, '/contacts', 'contacts'));
    const first = JSON.parse(pages[0]?.text ?? '{}');
    expect(Object.keys(first)).toEqual(['type', 'contacts', 'scroll_param']);
    expect(first.type).toBe('contact.list');
    expect(first.contacts.every((c: { type: string }) => c.type === 'contact')).toBe(true);
  });

  it('GET /companies/scroll gives every company in store order, those without users included, last created last', async () => {
    const m = mock();
    const lonely = await m.call('POST', '/companies', { body: { company_id: 'lonely-co', name: 'Lonely' } });
    const pages = await scrollAll(m, 'companies');
    const ids = pages.flatMap((p) => p.ids);
    const counts = await m.call('GET', '/counts');
    expect(ids).toHaveLength(counts.body.company.count);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.at(-1)).toBe(lonely.body.id);
    const last = JSON.parse(pages.at(-2)?.text ?? '{}');
    expect(last.type).toBe('company.list');
    expect(last.companies.at(-1)).toMatchObject({ type: 'company', company_id: 'lonely-co', user_count: 0 });
  });
});

describe('the company order a scroll reads, kept by the writes after it is built', () => {
  it('takes a new company in last, once, and keeps every place when companies are updated', async () => {
    const m = mock();
    const all = async () => (await scrollAll(m, 'companies')).flatMap((p) => p.ids);
    const before = await all();
    const created = await m.call('POST', '/companies', { body: { company_id: 'order-new', name: 'New' } });
    expect(created.status).toBe(200);
    expect(await all()).toEqual([...before, created.body.id]);
    // Updates of the new company and of a seeded one move nothing and add nothing.
    expect((await m.call('POST', '/companies', { body: { company_id: 'order-new', name: 'Renamed' } })).status).toBe(200);
    expect((await m.call('POST', '/companies', { body: { company_id: 'acme', name: 'Acme renamed' } })).status).toBe(200);
    expect(await all()).toEqual([...before, created.body.id]);
  });
});

describe('writes during a scroll', () => {
  it('keep the order of its opening: records created since are not included, updated ones show as they are now', async () => {
    const m = mock();
    const first = await m.call('GET', '/users/scroll');
    const created = await m.call('POST', '/users', { body: { user_id: 'late-1' } });
    const later = (await listed(m, '/users', 'users'))[110] as string;
    await m.call('POST', '/users', { body: { id: later, name: 'Updated mid-scroll' } });
    const pages = [first.body.users as { id: string; name: string }[]];
    for (let param = first.body.scroll_param, more = true; more; ) {
      const res = await m.call('GET', `/users/scroll?scroll_param=${param}`);
      pages.push(res.body.users);
      more = res.body.users.length > 0;
    }
    const users = pages.flat();
    expect(users.map((u) => u.id)).not.toContain(created.body.id);
    expect(users.find((u) => u.id === later)?.name).toBe('Updated mid-scroll');
    expect(users).toHaveLength((await m.call('GET', '/users?per_page=1')).body.total_count - 1);
  });

  it('skip records gone since it opened, still filling each page', async () => {
    const m = mock();
    const first = await m.call('GET', '/users/scroll');
    const app = m.store.app('demo');
    // What deleting or archiving does to the collections (no such operation on this branch yet).
    const order = await listed(m, '/users', 'users');
    for (const id of order.slice(100, 110)) removeCustomer(app as AppState, (app as AppState).data.customers.get(id) as Customer);
    const next = await m.call('GET', `/users/scroll?scroll_param=${first.body.scroll_param}`);
    expect(next.body.users.map((u: { id: string }) => u.id)).toEqual(order.slice(110));
  });
});

describe('the slot is app state', () => {
  it('is not in the exported state, and opening changes nothing other endpoints see', async () => {
    const m = mock();
    const before = await stateText(m);
    const users = await m.call('GET', '/users?per_page=5');
    await m.call('GET', '/users/scroll');
    expect(await stateText(m)).toBe(before);
    expect((await m.call('GET', '/users?per_page=5')).text).toBe(users.text);
  });

  it('is cleared by a reset, and the same requests then get the same bytes, scroll_param included', async () => {
    const m = mock();
    const first = await scrollAll(m, 'users');
    await m.call('GET', '/users/scroll');
    await m.call('POST', '/__admin/reset?app=demo', { token: null });
    const again = await scrollAll(m, 'users');
    expect(again.map((p) => p.text)).toEqual(first.map((p) => p.text));
  });

  it('is carried exactly by a snapshot and its restore', async () => {
    const m = mock();
    const open = await m.call('GET', '/users/scroll');
    await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'mid-scroll' } });
    const second = await m.call('GET', `/users/scroll?scroll_param=${open.body.scroll_param}`);
    await m.call('GET', `/users/scroll?scroll_param=${open.body.scroll_param}`);
    await m.call('POST', '/__admin/snapshots/mid-scroll/restore?app=demo', { token: null });
    expect(errorCodes(await m.call('GET', '/contacts/scroll'))).toEqual(['scroll_exists']);
    const replayed = await m.call('GET', `/users/scroll?scroll_param=${open.body.scroll_param}`);
    expect(replayed.body.users).toEqual(second.body.users);
  });
});
