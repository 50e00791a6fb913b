// The per-value metadata rules of POST /events at their edges (what the body schema leaves to the
// store: it checks only that metadata is an object of at most 100 members), and GET /events cursors
// whose event is not the one they name, which are read by time and arrival, not by link.

import { describe, expect, it } from 'vitest';
import { expectRejected, mock, TEST_NOW, type TestMock } from '../../helpers.js';

const T = TEST_NOW - 3600;
const TEXT = 2048;
const post = (m: TestMock, body: unknown) => m.call('POST', '/events', { body });
const send = (m: TestMock, metadata: unknown) => post(m, { event_name: 'x', created_at: T, user_id: 'ada-1', metadata });
const kept = async (m: TestMock) => ((await m.call('GET', '/events?type=user&user_id=ada-1')).body.events[0] as { metadata: unknown }).metadata;
const refusedFields = async (m: TestMock, metadata: Record<string, unknown>) => {
  const res = await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T, user_id: 'ada-1', metadata } }, 400, Object.keys(metadata).map(() => 'parameter_invalid'));
  return res.body.errors.map((e: { field: string }) => e.field);
};

describe('POST /events metadata values at their edges', () => {
  it('keeps a _date of 0, text of 2048, a rich link with an empty value of 2048 and a 3-letter currency', async () => {
    const m = mock();
    const metadata = {
      epoch_date: 0,
      long: 'a'.repeat(TEXT),
      link: { url: 'u'.repeat(TEXT), value: 'v'.repeat(TEXT) },
      blank: { url: 'https://example.org', value: '' },
      price: { amount: -5, currency: 'eur' },
      frac: 1.5,
    };
    expect((await send(m, metadata)).status).toBe(202);
    expect(await kept(m)).toEqual(metadata);
  });

  it('keeps members named __proto__ and constructor as data, and nested members in either order', async () => {
    const m = mock();
    // Parsed, not written as a literal: a literal's __proto__ would set the prototype, not a member.
    const text = '{"__proto__":"p","constructor":1,"link":{"value":"v","url":"https://example.org"},"price":{"currency":"usd","amount":5}}';
    expect((await send(m, JSON.parse(text))).status).toBe(202);
    const metadata = (await kept(m)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
    expect(Object.keys(metadata)).toEqual(['__proto__', 'constructor', 'link', 'price']);
    expect(JSON.stringify(metadata)).toBe('{"__proto__":"p","constructor":1,"link":{"url":"https://example.org","value":"v"},"price":{"amount":5,"currency":"usd"}}');
  });

  it('refuses each value one past its rule, naming every member in the order sent', async () => {
    const m = mock();
    const metadata = {
      neg_date: -1,
      frac_date: 1.5,
      text_date: '5',
      long: 'a'.repeat(TEXT + 1),
      no_url: { url: '', value: 'v' },
      num_url: { url: 5, value: 'v' },
      num_value: { url: 'https://example.org', value: 5 },
      long_value: { url: 'https://example.org', value: 'v'.repeat(TEXT + 1) },
      long_url: { url: 'u'.repeat(TEXT + 1), value: 'v' },
      extra: { url: 'https://example.org', value: 'v', x: 1 },
      null_url: { url: null, value: 'v' },
      null_value: { url: 'https://example.org', value: null },
    };
    expect(await refusedFields(m, metadata)).toEqual(Object.keys(metadata).map((k) => `metadata.${k}`));
  });

  it('refuses monetary amounts that are not integer cents with a 1 to 3 letter currency, nulls and arrays', async () => {
    const m = mock();
    const metadata = {
      frac: { amount: 1.5, currency: 'usd' },
      text: { amount: '5', currency: 'usd' },
      no_currency: { amount: 5, currency: '' },
      long_currency: { amount: 5, currency: 'usdd' },
      num_currency: { amount: 5, currency: 5 },
      nothing: null,
      list: ['a'],
      empty: {},
      null_currency: { amount: 5, currency: null },
      extra_amount: { amount: 5, currency: 'usd', x: 1 },
    };
    const res = await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T, user_id: 'ada-1', metadata } }, 400, Object.keys(metadata).map(() => 'parameter_invalid'));
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(Object.keys(metadata).map((k) => `metadata.${k}`));
    expect(res.body.errors[0].message).toMatch(/^metadata\.frac must be a rich link/);
    expect(res.body.errors[5].message).toMatch(/^metadata\.nothing must be text, a number/);
  });

  it('reads a boolean as its text with a warning (Java\'s README sends one); strict mode refuses it, not as a malformed rich link', async () => {
    const m = mock();
    const ok = await m.call('POST', '/events', { body: { event_name: 'signed-up', created_at: T, user_id: 'ada-1', metadata: { new_signup: true, plan: 'pro' } } });
    expect(ok.status).toBe(202);
    expect(ok.headers.get('x-mock-warning')).toBe('coerced_value "metadata.new_signup must be text, a number, a rich link or a monetary amount: true was read as \\"true\\"."');
    const listed = await m.call('GET', '/events?type=user&user_id=ada-1');
    expect(listed.body.events.find((e: { event_name: string }) => e.event_name === 'signed-up').metadata).toEqual({ new_signup: 'true', plan: 'pro' });
    const strict = await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T, user_id: 'ada-1', metadata: { flag: true } }, headers: { 'x-mock-strict': 'true' } }, 400, ['parameter_invalid']);
    expect(strict.body.errors[0]).toMatchObject({ field: 'metadata.flag', message: 'metadata.flag must be text, a number, a rich link or a monetary amount.' });
  });

  it('refuses an empty member name, and past the tenth member still checks (but does not keep) values', async () => {
    const m = mock();
    expect(await refusedFields(m, { '': 'v' })).toEqual(['metadata.']);
    const eleven: Record<string, unknown> = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i]));
    const res = await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T, user_id: 'ada-1', metadata: { ...eleven, bad: null } } }, 400, ['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('metadata.bad');
  });

  it('names at most 20 problems', async () => {
    const m = mock();
    const metadata = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`b${i}`, null]));
    const res = await expectRejected(m, 'POST', '/events', { body: { event_name: 'x', created_at: T, user_id: 'ada-1', metadata } }, 400, Array.from({ length: 20 }, () => 'parameter_invalid'));
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(Array.from({ length: 20 }, (_, i) => `metadata.b${i}`));
  });
});

describe('GET /events cursors that name no event of this person at that time', () => {
  // ada: seq 1 and 2 at T; grace: seq 3 at T; ada: seq 4 at T, seq 5 at T + 10.
  const seeded = async () => {
    const m = mock();
    await post(m, { event_name: 'a1', created_at: T, user_id: 'ada-1' });
    await post(m, { event_name: 'a2', created_at: T, user_id: 'ada-1' });
    await post(m, { event_name: 'g3', created_at: T, user_id: 'grace-2' });
    await post(m, { event_name: 'a4', created_at: T, user_id: 'ada-1' });
    await post(m, { event_name: 'a5', created_at: T + 10, user_id: 'ada-1' });
    return m;
  };
  const names = async (m: TestMock, before: string) =>
    ((await m.call('GET', `/events?type=user&user_id=ada-1&before=${before}`)).body.events as { event_name: string }[]).map((e) => e.event_name);

  it('reads another person\'s event as a place in time and arrival: the same second, earlier arrivals only', async () => {
    const m = await seeded();
    expect(await names(m, `${T * 1000}_3`)).toEqual(['a2', 'a1']);
    expect(await names(m, `${T * 1000}_4`)).toEqual(['a2', 'a1']);
    expect(await names(m, `${T * 1000}_5`)).toEqual(['a4', 'a2', 'a1']);
    expect(await names(m, `${T * 1000}_1`)).toEqual([]);
    expect(await names(m, `${T * 1000}_99`)).toEqual(['a4', 'a2', 'a1']);
  });

  it('reads an own event named with another time by the time, not by its link', async () => {
    const m = await seeded();
    expect(await names(m, `${(T + 10) * 1000}_2`)).toEqual(['a4', 'a2', 'a1']);
    expect(await names(m, `${(T + 11) * 1000}_2`)).toEqual(['a5', 'a4', 'a2', 'a1']);
    expect(await names(m, `${T * 1000 + 1}_1`)).toEqual(['a4', 'a2', 'a1']);
    expect(await names(m, `${T * 1000 + 1}`)).toEqual(['a4', 'a2', 'a1']);
  });

  it('lists an event exactly 90 days old, and says no more when the next one is older', async () => {
    const m = mock();
    const edge = TEST_NOW - 90 * 86_400;
    await post(m, { event_name: 'too-old', created_at: edge - 1, user_id: 'ada-1' });
    await post(m, { event_name: 'edge', created_at: edge, user_id: 'ada-1' });
    await post(m, { event_name: 'new', created_at: T, user_id: 'ada-1' });
    const page = (await m.call('GET', '/events?type=user&user_id=ada-1&per_page=2')).body;
    expect(page.events.map((e: { event_name: string }) => e.event_name)).toEqual(['new', 'edge']);
    expect(page.pages).toEqual({});
    const one = (await m.call('GET', '/events?type=user&user_id=ada-1&per_page=1')).body;
    expect(one.pages.next).toMatch(/before=/);
  });
});
