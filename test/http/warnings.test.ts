// Contract warnings (contract notes §6): what the real API accepted is answered as it answered it,
// and reported in X-Mock-Warning and the journal; strict mode (per request, app or process) turns
// each warning back into the error the mock gives without leniency, and changes nothing.

import { describe, expect, it } from 'vitest';
import { ACME, ADA, GROUP } from '../fixture-ids.js';
import { errorCodes, expectRejected, mock, stateText, warningCodesOf, type TestMock } from '../helpers.js';

const STRICT = { headers: { 'x-mock-strict': 'true' } };

const warningCodes = (headers: Headers): string[] => warningCodesOf(headers.get('x-mock-warning'));

async function lastEntry(m: TestMock) {
  const res = await m.call('GET', '/__admin/requests?app=demo&limit=1', { token: null });
  return res.body.requests[0];
}

describe('an unknown query parameter', () => {
  it('is ignored as the real API ignored it, and named in X-Mock-Warning and the journal', async () => {
    const m = mock();
    const res = await m.call('GET', `/users/${ADA}?expand=companies`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(ADA);
    expect(res.headers.get('x-mock-warning')).toBe('unknown_parameter "expand is not a query parameter of this operation (it takes none)."');
    const entry = await lastEntry(m);
    expect(entry.warnings).toEqual([{ code: 'unknown_parameter', field: 'expand', message: 'expand is not a query parameter of this operation (it takes none).' }]);
    expect(entry.query).toEqual({ expand: 'companies' });
  });

  it('does not filter: the list is the one without it', async () => {
    const m = mock();
    const plain = await m.call('GET', '/users?per_page=5');
    const extra = await m.call('GET', '/users?per_page=5&type=users');
    expect(extra.body.users).toEqual(plain.body.users);
    expect(warningCodes(extra.headers)).toEqual(['unknown_parameter']);
    expect(plain.headers.get('x-mock-warning')).toBeNull();
  });

  it('is the 400 it was under strict mode, naming it, and changes nothing', async () => {
    const m = mock();
    const res = await expectRejected(m, 'POST', '/users?dry_run=1', { body: { user_id: 'q-1' }, ...STRICT }, 400, ['parameter_invalid']);
    expect(res.body.errors[0]).toEqual({ code: 'parameter_invalid', field: 'dry_run', message: 'dry_run is not a query parameter of this operation (it takes none).' });
    expect(res.headers.get('x-mock-warning')).toBeNull();
    expect((await m.call('GET', '/users?user_id=q-1')).status).toBe(404);
  });

  it('under strict mode is listed with the request\'s other warnings in one answer', async () => {
    const res = await mock().call('GET', '/users?company_id=1&plan=x', STRICT);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['company_id', 'plan']);
  });
});

describe('X-Mock-Warning', () => {
  it('shows at most 10 warnings and then how many more; the journal keeps 20', async () => {
    const m = mock();
    const res = await m.call('GET', `/admins?${Array.from({ length: 25 }, (_, i) => `p${i}=1`).join('&')}`);
    expect(res.status).toBe(200);
    const codes = warningCodes(res.headers);
    expect(codes).toEqual([...Array(10).fill('unknown_parameter'), 'more']);
    expect(res.headers.get('x-mock-warning')).toMatch(/, more "and 15 more"$/);
    expect((await lastEntry(m)).warnings).toHaveLength(20);
  });

  it('is plain ASCII whatever the parameter is called, quotes escaped', async () => {
    const res = await mock().call('GET', '/admins?%C3%A9t%C3%A9%22=1');
    expect(res.headers.get('x-mock-warning')).toBe('unknown_parameter "\\u00e9t\\u00e9\\" is not a query parameter of this operation (it takes none)."');
  });

  it('X-Mock-Strict that is no boolean is a 400 naming it', async () => {
    const res = await mock().call('GET', '/admins', { headers: { 'x-mock-strict': 'maybe' } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ code: 'parameter_invalid', field: 'X-Mock-Strict', message: 'X-Mock-Strict must be true or false (or 1 or 0).' }]);
  });
});

describe('a body member the operation does not use', () => {
  it('is ignored and reported; strict mode refuses it with the member named', async () => {
    const m = mock();
    const res = await m.call('POST', '/users', { body: { user_id: 'w-1', favourite_colour: 'teal' } });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe('w-1');
    expect(res.body.favourite_colour).toBeUndefined();
    expect(res.headers.get('x-mock-warning')).toBe('unused_field "favourite_colour is not a member this operation reads: ignored."');
    const refused = await expectRejected(m, 'POST', '/users', { body: { user_id: 'w-2', favourite_colour: 'teal' }, ...STRICT }, 400, ['parameter_invalid']);
    expect(refused.body.errors[0]).toEqual({ code: 'parameter_invalid', field: 'favourite_colour', message: 'favourite_colour is not a member this operation reads.' });
  });

  it('inside a member (a company of a user) is ignored too', async () => {
    const m = mock();
    const res = await m.call('POST', '/users', { body: { user_id: 'w-3', companies: [{ company_id: 'acme', colour: 'red' }] } });
    expect(res.status).toBe(200);
    expect(res.body.companies.companies.map((c: { company_id: string }) => c.company_id)).toEqual(['acme']);
    expect((await lastEntry(m)).warnings).toEqual([{ code: 'unused_field', field: 'companies[0].colour', message: 'companies[0].colour is not a member this operation reads: ignored.' }]);
  });
});

describe('a value of another type', () => {
  it('a number where text is expected is its text (Go and .NET send a numeric user_id)', async () => {
    const m = mock();
    const res = await m.call('POST', '/users', { body: { user_id: 123, email: 'n@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe('123');
    expect(res.headers.get('x-mock-warning')).toBe('coerced_value "user_id must be of type string: 123 was read as \\"123\\"."');
    expect((await m.call('GET', '/users?user_id=123')).body.email).toBe('n@example.com');
    await expectRejected(m, 'POST', '/users', { body: { user_id: 124 }, ...STRICT }, 400, ['parameter_invalid']);
  });

  it('a fraction where a whole number is expected is its whole part (monthly_spend)', async () => {
    const m = mock();
    const res = await m.call('POST', '/companies', { body: { company_id: 'frac', name: 'Frac', monthly_spend: 99.9 } });
    expect(res.status).toBe(200);
    expect(res.body.monthly_spend).toBe(99);
    expect(warningCodes(res.headers)).toEqual(['coerced_value']);
  });

  it('query flags: true/false in any case and 1/0 are booleans, silently; other text is off, with a warning', async () => {
    const m = mock();
    for (const spelling of ['true', 'True', 'TRUE', '1']) {
      const res = await m.call('GET', `/segments/5714dd359a3fd47136000901?include_count=${spelling}`);
      expect(res.status).toBe(200);
      expect(typeof res.body.count).toBe('number');
      expect(res.headers.get('x-mock-warning')).toBeNull();
    }
    const off = await m.call('GET', '/segments/5714dd359a3fd47136000901?include_count=False');
    expect(off.body.count).toBeUndefined();
    const yes = await m.call('GET', '/segments/5714dd359a3fd47136000901?include_count=yes');
    expect(yes.status).toBe(200);
    expect(yes.body.count).toBeUndefined();
    expect(yes.headers.get('x-mock-warning')).toBe('coerced_value "include_count must be true or false: \\"yes\\" was read as \\"false\\"."');
    expect((await m.call('GET', '/segments/5714dd359a3fd47136000901?include_count=yes', STRICT)).status).toBe(400);
  });

  it('conversation list flags open and unread take the same spellings', async () => {
    const m = mock();
    const a = await m.call('GET', '/conversations?type=admin&admin_id=814860&open=True');
    const b = await m.call('GET', '/conversations?type=admin&admin_id=814860&open=1');
    const c = await m.call('GET', '/conversations?type=admin&admin_id=814860&open=true');
    expect(a.status).toBe(200);
    expect(a.body.conversations).toEqual(c.body.conversations);
    expect(b.body.conversations).toEqual(c.body.conversations);
  });
});

describe('a parameter of a later API version', () => {
  it('is ignored under the earlier version, with a warning; strict mode refuses it', async () => {
    const m = mock();
    const all = await m.call('GET', '/contacts?per_page=50', { headers: { 'intercom-version': '1.1' } });
    const res = await m.call('GET', '/contacts?per_page=50&phone=%2B353', { headers: { 'intercom-version': '1.1' } });
    expect(res.status).toBe(200);
    expect(res.body.contacts).toEqual(all.body.contacts);
    expect(warningCodes(res.headers)).toEqual(['version_parameter']);
    const strict = await m.call('GET', '/contacts?phone=%2B353', { headers: { 'intercom-version': '1.1', 'x-mock-strict': 'true' } });
    expect(errorCodes(strict)).toEqual(['parameter_invalid']);
  });
});

describe('a DELETE body', () => {
  it('an empty JSON list (PHP sends one on every delete) is an empty body', async () => {
    const m = mock();
    const res = await m.call('DELETE', `/users/${ADA}`, { raw: '[]', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(ADA);
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(404);
  });

  it('a non-empty list is still refused', async () => {
    const m = mock();
    await expectRejected(m, 'DELETE', `/users/${ADA}`, { raw: '[1]', headers: { 'content-type': 'application/json' } }, 400, ['bad_request']);
  });
});

describe('strict mode', () => {
  it('is set per process, per app and per request, the request\'s header winning', async () => {
    const strict = mock({ strict: true });
    expect((await strict.call('GET', '/admins?x=1')).status).toBe(400);
    expect((await strict.call('GET', '/admins?x=1', { headers: { 'x-mock-strict': 'false' } })).status).toBe(200);
    const lenient = mock();
    await lenient.call('POST', '/__admin/seed?app=demo&mode=merge', { token: null, body: { app: { id: 'demo', tokens: ['demo-token'], strict: true } } });
    expect((await lenient.call('GET', '/admins?x=1')).status).toBe(400);
    expect((await lenient.call('GET', '/admins?x=1', { headers: { 'x-mock-strict': '0' } })).status).toBe(200);
  });

  it('does not refuse a muted code, and a muted code is not shown but kept in the journal', async () => {
    const m = mock({ strict: true, muteWarnings: ['unknown_parameter'] });
    const res = await m.call('GET', `/users/${ADA}?expand=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-mock-warning')).toBeNull();
    expect((await lastEntry(m)).warnings).toEqual([{ code: 'unknown_parameter', field: 'expand', message: 'expand is not a query parameter of this operation (it takes none).', muted: true }]);
    expect((await m.call('POST', '/users', { body: { user_id: 'x', extra: 1 } })).status).toBe(400);
  });

  it('refuses a warning found by the operation itself inside its transaction, changing nothing', async () => {
    const m = mock();
    const before = await stateText(m);
    const res = await m.call('POST', `/conversations/${GROUP}/reply`, { body: { type: 'admin', admin_id: '814860', message_type: 'comment', body: 'x', mystery: true }, ...STRICT });
    expect(res.status).toBe(400);
    expect(await stateText(m)).toBe(before);
  });
});

describe('the journal\'s warning filters', () => {
  it('warnings=true keeps the requests with warnings, warning=<code> those with that code', async () => {
    const m = mock();
    await m.call('GET', '/admins');
    await m.call('GET', '/admins?x=1');
    await m.call('POST', '/companies', { body: { company_id: 'f', monthly_spend: 1.5 } });
    const list = async (q: string) => (await m.call('GET', `/__admin/requests?app=demo&${q}`, { token: null })).body.requests.map((r: { path: string; search?: string; status: number }) => `${r.path}`);
    expect(await list('warnings=true')).toEqual(['/admins', '/companies']);
    expect(await list('warnings=false')).toEqual(['/admins']);
    expect(await list('warning=coerced_value')).toEqual(['/companies']);
    const count = await m.call('POST', '/__admin/requests/count?app=demo', { token: null, body: { warning: 'unknown_parameter' } });
    expect(count.body.count).toBe(1);
  });
});

describe('the contract report', () => {
  it('counts calls, statuses, error codes and warnings per operation, and lists the operations never called', async () => {
    const m = mock();
    await m.call('GET', `/users/${ADA}`);
    await m.call('GET', `/users/${ADA}?x=1`);
    await m.call('GET', '/users/5714dd359a3fd47136ffffff');
    await m.call('GET', `/companies/${ACME}`);
    const report = (await m.call('GET', '/__admin/report', { token: null })).body;
    const getUser = report.operations.find((o: { operationId: string }) => o.operationId === 'getUser');
    expect(getUser).toEqual({ operationId: 'getUser', method: 'GET', path: '/users/{id}', calls: 3, statuses: { 200: 2, 404: 1 }, errors: { not_found: 1 }, warnings: { unknown_parameter: 1 }, muted: 0 });
    expect(report.totals).toMatchObject({ called: 2, calls: 4, warnings: 1, muted: 0 });
    expect(report.totals.operations).toBe(report.operations.length + report.untouched.length);
    expect(report.untouched.map((o: { operationId: string }) => o.operationId)).toContain('listAdmins');
    expect(report.summary).toBe(`contract: 2 of ${report.totals.operations} operations called in 4 requests; 1 warning (unknown_parameter 1); GET /__admin/report for details`);
  });

  it('survives a reset, is per app with ?app=, and is cleared only by DELETE', async () => {
    const m = mock();
    await m.call('GET', '/admins?x=1');
    await m.call('GET', '/admins', { token: 'test_report' });
    await m.call('POST', '/__admin/reset', { token: null });
    const all = (await m.call('GET', '/__admin/report', { token: null })).body;
    expect(all.totals.calls).toBe(2);
    const mine = (await m.call('GET', '/__admin/report?app=test_report', { token: null })).body;
    expect(mine.app).toBe('test_report');
    expect(mine.totals).toMatchObject({ calls: 1, warnings: 0 });
    await m.call('DELETE', '/__admin/report?app=test_report', { token: null });
    expect((await m.call('GET', '/__admin/report', { token: null })).body.totals.calls).toBe(1);
    await m.call('DELETE', '/__admin/report', { token: null });
    expect((await m.call('GET', '/__admin/report', { token: null })).body.totals.calls).toBe(0);
  });

  it('keeps the calls of an evicted test app in the run\'s total', async () => {
    const m = mock({ maxTestApps: 1 });
    await m.call('GET', '/admins', { token: 'test_one' });
    await m.call('GET', '/admins', { token: 'test_two' });
    const all = (await m.call('GET', '/__admin/report', { token: null })).body;
    expect(all.operations.find((o: { operationId: string }) => o.operationId === 'listAdmins').calls).toBe(2);
  });
});

describe('several identifiers of one person (Go sends every one a fetched user holds)', () => {
  it('the first in the lookup order decides; agreeing ones are silent, one naming someone else is a warning, a 400 under strict mode', async () => {
    const m = mock();
    const one = await m.call('GET', '/conversations?type=user&user_id=ada-1');
    const agree = await m.call('GET', `/conversations?type=user&intercom_user_id=${ADA}&user_id=ada-1&email=ada%40example.com`);
    expect(agree.status).toBe(200);
    expect(agree.body.conversations).toEqual(one.body.conversations);
    expect(agree.headers.get('x-mock-warning')).toBeNull();
    const other = await m.call('GET', '/conversations?type=user&user_id=ada-1&email=grace%40example.com');
    expect(other.body.conversations).toEqual(one.body.conversations);
    expect(other.headers.get('x-mock-warning')).toBe('identifier_overridden "user_id \\"ada-1\\" names the person; email \\"grace@example.com\\" names someone else and was not used."');
    const strict = await m.call('GET', '/conversations?type=user&user_id=ada-1&email=grace%40example.com', STRICT);
    expect(strict.body.errors).toEqual([{ code: 'parameter_invalid', field: 'email', message: 'user_id "ada-1" names the person; email "grace@example.com" names someone else and was not used.' }]);
  });

  it('a message\'s recipient: the id decides, the member named in the warning is to.email', async () => {
    const m = mock();
    const from = { type: 'admin', id: '814860' };
    const agree = await m.call('POST', '/messages', { body: { message_type: 'inapp', body: 'x', from, to: { type: 'user', id: ADA, user_id: 'ada-1', email: 'ada@example.com' } } });
    expect(agree.status).toBe(200);
    expect(agree.headers.get('x-mock-warning')).toBeNull();
    const body = { message_type: 'inapp', body: 'x', from, to: { type: 'user', id: ADA, email: 'grace@example.com' } };
    const refused = await expectRejected(m, 'POST', '/messages', { body, ...STRICT }, 400, ['parameter_invalid']);
    expect(refused.body.errors[0].field).toBe('to.email');
    const other = await m.call('POST', '/messages', { body });
    expect(other.status).toBe(200);
    expect(warningCodes(other.headers)).toEqual(['identifier_overridden']);
  });

  it('a user\'s reply: the first identifier is the author', async () => {
    const m = mock();
    const res = await m.call('POST', `/conversations/${GROUP}/reply`, { body: { type: 'user', message_type: 'comment', body: 'hi', intercom_user_id: ADA, user_id: 'ada-1', email: 'ada@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body.conversation_parts.conversation_parts.at(-1).author).toMatchObject({ type: 'user', id: ADA });
    expect(res.headers.get('x-mock-warning')).toBeNull();
  });
});

describe('what a client fills in by default', () => {
  const from = { type: 'admin', id: '814860' };
  it('template on an in-app message (.NET, Java) and "to": {} on a user\'s message (Go) are ignored, with a warning', async () => {
    const m = mock();
    const inapp = await m.call('POST', '/messages', { body: { message_type: 'inapp', subject: '', template: 'plain', body: 'x', from, to: { type: 'user', id: ADA } } });
    expect(inapp.status).toBe(200);
    expect(warningCodes(inapp.headers)).toEqual(['unused_field']);
    const user = await m.call('POST', '/messages', { body: { message_type: 'inapp', body: 'hello', from: { type: 'user', email: 'grace@example.com' }, to: {} } });
    expect(user.status).toBe(200);
    expect(user.body.type).toBe('user_message');
    expect(warningCodes(user.headers)).toEqual(['unused_field']);
    expect((await m.call('POST', '/messages', { body: { message_type: 'inapp', body: 'hello', from: { type: 'user', email: 'grace@example.com' }, to: {} }, ...STRICT })).status).toBe(400);
  });

  it('replies typed admin_reply (Java), snoozed_until 0 and an empty body on a close (.NET)', async () => {
    const m = mock();
    const note = await m.call('POST', `/conversations/${GROUP}/reply`, { body: { type: 'admin_reply', admin_id: '814860', message_type: 'note', body: 'n', snoozed_until: 0 } });
    expect(note.status).toBe(200);
    expect(note.body.conversation_parts.conversation_parts.at(-1)).toMatchObject({ part_type: 'note', body: 'n', author: { type: 'admin', id: '814860' } });
    expect(warningCodes(note.headers)).toEqual(['unused_field', 'coerced_value']);
    const close = await m.call('POST', `/conversations/${GROUP}/reply`, { body: { type: 'admin', admin_id: '814860', message_type: 'close', body: '' } });
    expect(close.status).toBe(200);
    expect(close.body.state).toBe('closed');
    expect(close.body.conversation_parts.conversation_parts.at(-1).body).toBeNull();
    expect(close.headers.get('x-mock-warning')).toBeNull();
    const empty = await m.call('POST', `/conversations/${GROUP}/reply`, { body: { type: 'admin', admin_id: '814860', message_type: 'comment', body: '' } });
    expect(errorCodes(empty)).toEqual(['parameter_invalid']);
  });

  it('a company named by its Intercom id (.NET, Ruby), or by an id that is no company\'s (Python: read as company_id)', async () => {
    const m = mock();
    const byId = await m.call('POST', '/users', { body: { user_id: 'co-1', companies: [{ id: ACME }] } });
    expect(byId.body.companies.companies.map((c: { company_id: string }) => c.company_id)).toEqual(['acme']);
    expect(byId.headers.get('x-mock-warning')).toBeNull();
    const byOther = await m.call('POST', '/users', { body: { user_id: 'co-2', companies: [{ id: 6, name: 'Intercom' }] } });
    expect(byOther.body.companies.companies.map((c: { company_id: string }) => c.company_id)).toEqual(['6']);
    expect(warningCodes(byOther.headers)).toEqual(['coerced_value']);
    const update = await m.call('POST', '/companies', { body: { id: ACME, name: 'Acme Renamed' } });
    expect(update.body).toMatchObject({ id: ACME, company_id: 'acme', name: 'Acme Renamed' });
    await expectRejected(m, 'POST', '/companies', { body: { website: 'https://no-id.example' } }, 400, ['parameter_not_found']);
  });
});

describe('repeated slashes', () => {
  it('are folded on API paths only: the control plane\'s own paths are not', async () => {
    const m = mock();
    for (const path of ['//__admin/health', '/__admin//health', '///__admin/health']) {
      const res = await m.call('GET', `http://localhost${path}`, { token: null });
      expect(res.status, path).toBe(404);
    }
  });
});

describe('a warning about a long name', () => {
  it('cuts the name and the message, in the header and the journal', async () => {
    const m = mock();
    const name = 'n'.repeat(5000);
    const res = await m.call('POST', '/users', { body: { user_id: 'long-1', companies: [{ company_id: 'acme', [name]: 1 }] } });
    expect(res.status).toBe(200);
    expect((res.headers.get('x-mock-warning') ?? '').length).toBeLessThan(400);
    const [w] = (await lastEntry(m)).warnings;
    expect(w.field).toBe(`companies[0].${'n'.repeat(87)}…`);
    expect(w.message.length).toBe(301);
  });
});

describe('every lenient case, in both modes', () => {
  // [what, method, path, body, lenient status, warning code]: each is answered and reported when
  // lenient, and refused without a change under strict mode.
  const from = { type: 'admin', id: '814860' };
  const cases: [string, string, string, unknown, number, string][] = [
    ['an unknown query parameter', 'GET', '/admins?x=1', undefined, 200, 'unknown_parameter'],
    ['a later version\'s parameter', 'GET', '/contacts?phone=1', undefined, 200, 'version_parameter'],
    ['an unknown member of a closed body', 'POST', '/visitors/convert', { type: 'lead', visitor: { id: '5714dd359a3fd47136000009' }, extra: 1 }, 200, 'unused_field'],
    ['an unknown member of an open body', 'POST', '/users', { user_id: 'case-1', extra: 1 }, 200, 'unused_field'],
    ['a number for text', 'POST', '/users', { user_id: 77 }, 200, 'coerced_value'],
    ['a fraction for a whole number', 'POST', '/companies', { company_id: 'case-co', monthly_spend: 1.5 }, 200, 'coerced_value'],
    ['a query flag spelled otherwise', 'GET', '/data_attributes/customer?include_archived=yes', undefined, 200, 'coerced_value'],
    ['a reply typed admin_reply', 'POST', `/conversations/${GROUP}/reply`, { type: 'admin_reply', admin_id: '814860', message_type: 'note', body: 'n' }, 200, 'coerced_value'],
    ['a company id that names no company', 'POST', '/users', { user_id: 'case-2', companies: [{ id: 'nope-co' }] }, 200, 'coerced_value'],
    ['a boolean event metadata value', 'POST', '/events', { event_name: 'e', created_at: 1, user_id: 'ada-1', metadata: { b: true } }, 202, 'coerced_value'],
    ['identifiers naming two people', 'GET', '/conversations?type=user&user_id=ada-1&email=grace%40example.com', undefined, 200, 'identifier_overridden'],
    ['a template on an in-app message', 'POST', '/messages', { message_type: 'inapp', body: 'x', template: 'plain', from, to: { type: 'user', id: ADA } }, 200, 'unused_field'],
    ['a member another message_type uses', 'POST', `/conversations/${GROUP}/reply`, { type: 'admin', admin_id: '814860', message_type: 'close', snoozed_until: 0 }, 200, 'unused_field'],
    ['active on a new subscription', 'POST', '/subscriptions', { url: 'http://127.0.0.1:9/hook', topics: ['user.created'], active: false }, 200, 'unused_field'],
    ['a list parameter beside user_id', 'GET', '/users?user_id=ada-1&per_page=5', undefined, 200, 'unused_field'],
    ['a webhook url the mock does not deliver to', 'POST', '/subscriptions', { url: 'http://example.com', topics: ['user.created'] }, 200, 'undeliverable_target'],
  ];

  it.each(cases)('%s: answered and reported when lenient', async (_what, method, path, body, status, code) => {
    const res = await mock().call(method, path, body === undefined ? {} : { body });
    expect(res.status, res.text).toBe(status);
    expect(warningCodes(res.headers)).toEqual([code]);
  });

  it.each(cases)('%s: refused with 400 parameter_invalid under strict mode, changing nothing', async (_what, method, path, body) => {
    await expectRejected(mock(), method, path, { ...(body === undefined ? {} : { body }), ...STRICT }, 400, ['parameter_invalid']);
  });

  it.each(cases)('%s: muted for the app, neither shown nor refused, still journaled', async (_what, method, path, body, status, code) => {
    const m = mock({ strict: true });
    const seeded = await m.call('POST', '/__admin/seed?app=demo&mode=merge', { token: null, body: { app: { id: 'demo', tokens: ['demo-token'], mute_warnings: [code] } } });
    expect(seeded.status).toBe(200);
    const res = await m.call(method, path, body === undefined ? {} : { body });
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('x-mock-warning')).toBeNull();
    expect((await lastEntry(m)).warnings.map((w: { code: string; muted?: boolean }) => [w.code, w.muted])).toEqual([[code, true]]);
  });
});

describe('X-Mock-Warning past the journal\'s 20', () => {
  it('counts what the journal did not keep in its "and N more", muted ones left out of what it shows', async () => {
    const m = mock({ muteWarnings: ['unknown_parameter'] });
    // 25 muted unknown parameters fill the 20 kept; the flag's warning comes after them and is dropped too.
    const res = await m.call('GET', `/segments/5714dd359a3fd47136000901?${Array.from({ length: 25 }, (_, i) => `p${i}=1`).join('&')}&include_count=yes`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-mock-warning')).toBe('more "and 6 more"');
  });
});

describe('POST /companies with a name and no identifier (.NET\'s README)', () => {
  const codes = (res: { headers: Headers }) => warningCodesOf(res.headers.get('x-mock-warning'));

  it('creates the company with its name as company_id, then updates that company, warning each time', async () => {
    const m = mock();
    const created = await m.call('POST', '/companies', { body: { name: 'Named Only Inc' } });
    expect(created.status, created.text).toBe(200);
    expect(codes(created)).toEqual(['missing_identifier']);
    expect(created.body).toMatchObject({ type: 'company', company_id: 'Named Only Inc', name: 'Named Only Inc' });
    const again = await m.call('POST', '/companies', { body: { name: 'Named Only Inc', size: 12 } });
    expect(again.status).toBe(200);
    expect(codes(again)).toEqual(['missing_identifier']);
    expect(again.body).toMatchObject({ id: created.body.id, company_id: 'Named Only Inc', size: 12 });
    expect((await m.call('GET', '/companies?name=Named%20Only%20Inc')).body).toMatchObject({ id: created.body.id, size: 12 });
  });

  it('updates a seeded company found by its name, keeping its company_id', async () => {
    const m = mock();
    const acme = (await m.call('GET', `/companies/${ACME}`)).body;
    const res = await m.call('POST', '/companies', { body: { name: acme.name, industry: 'Rockets' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ACME, company_id: acme.company_id, industry: 'Rockets' });
  });

  it('is refused under strict mode as before: 400 parameter_not_found on company_id, nothing created', async () => {
    const res = await expectRejected(mock(), 'POST', '/companies', { body: { name: 'Named Only Inc' }, ...STRICT }, 400, ['parameter_not_found']);
    expect(res.body.errors[0]).toMatchObject({ field: 'company_id', message: 'company_id is a required parameter.' });
  });

  it('does not name a customer\'s company by its name: that stays 400 parameter_not_found', async () => {
    await expectRejected(mock(), 'POST', '/users', { body: { user_id: 'named-co-1', companies: [{ name: 'Named Only Inc' }] } }, 400, ['parameter_not_found']);
  });

  it('still needs something: a body with neither company_id, id nor name is 400 parameter_not_found', async () => {
    await expectRejected(mock(), 'POST', '/companies', { body: { size: 3 } }, 400, ['parameter_not_found']);
  });
});
