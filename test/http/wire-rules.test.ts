// Headers and parameters read strictly: content codings, charsets and UTF-8 of bodies, integer
// query parameters, q values of Accept, and a Date header from the mock's clock.

import { deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { errorCodes, expectRejected, mock, stateText } from '../helpers.js';
import { ADA } from '../fixture-ids.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
const tag = JSON.stringify({ name: 'café' });

describe('request bodies', () => {
  it('refuses a gzip body with 415 naming the coding, not as malformed JSON', async () => {
    const res = await expectRejected(mock(), 'POST', '/tags', { raw: gzipSync(tag), headers: { ...JSON_HEADERS, 'content-encoding': 'gzip' } }, 415, ['unsupported_media_type']);
    expect(res.body.errors[0].message).toContain('"gzip"');
  });

  it.each(['deflate', 'br', 'gzip, identity', 'x-custom'])('refuses Content-Encoding: %s on any body, even plain JSON', async (coding) => {
    const m = mock();
    await expectRejected(m, 'POST', '/tags', { raw: tag, headers: { ...JSON_HEADERS, 'content-encoding': coding } }, 415, ['unsupported_media_type']);
    await expectRejected(m, 'POST', '/tags', { raw: deflateSync(tag), headers: { ...JSON_HEADERS, 'content-encoding': coding } }, 415, ['unsupported_media_type']);
  });

  it('accepts Content-Encoding: identity and a UTF-8 charset, however spelled', async () => {
    const m = mock();
    for (const contentType of ['application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; charset=utf8']) {
      const res = await m.call('POST', '/tags', { raw: tag, headers: { 'content-type': contentType, 'content-encoding': 'identity' } });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('café');
    }
  });

  it.each(['iso-8859-1', 'latin1', 'windows-1252', 'utf-16'])('refuses charset=%s with 415 instead of reading it as UTF-8', async (charset) => {
    const latin1 = Buffer.from(tag, 'latin1');
    const res = await expectRejected(mock(), 'POST', '/tags', { raw: latin1, headers: { 'content-type': `application/json; charset=${charset}` } }, 415, ['unsupported_media_type']);
    expect(res.body.errors[0].message).toContain(charset);
  });

  it('refuses invalid UTF-8 with 400 bad_request instead of storing U+FFFD', async () => {
    const m = mock();
    const latin1 = Buffer.from(tag, 'latin1');
    const res = await expectRejected(m, 'POST', '/tags', { raw: latin1, headers: JSON_HEADERS }, 400, ['bad_request']);
    expect(res.body.errors[0].message).toBe('The request body is not valid UTF-8.');
    // The same through the streaming path of a body without Content-Length.
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new Uint8Array(latin1)), c.close()) });
    const before = await stateText(m);
    const streamed = await m.app.request('/tags', { method: 'POST', body: stream, headers: { ...JSON_HEADERS, authorization: 'Bearer demo-token' }, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(400);
    expect(await stateText(m)).toBe(before);
    expect((await m.call('GET', '/tags')).body.tags.some((t: { name: string }) => t.name.includes('\uFFFD'))).toBe(false);
  });
});

describe('integer query parameters', () => {
  it.each([
    ['page=0x10', 'page'],
    ['page=1e3', 'page'],
    ['per_page=60.0', 'per_page'],
    ['page=12345678901234567890', 'page'],
    ['page=+2', 'page'],
    ['page=%202', 'page'],
    ['page=-1', 'page'],
    ['per_page=', 'per_page'],
  ])('refuses %s with 400 parameter_invalid', async (query, field) => {
    const res = await mock().call('GET', `/users?${query}`);
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect(res.body.errors[0].field).toBe(field);
  });

  it('refuses the same on the counts, conversations and control-plane journal', async () => {
    const m = mock();
    for (const path of ['/counts?type=company&count=tag&per_page=1e1', '/conversations?page=0x2', '/__admin/requests?limit=1e2']) {
      const res = await m.call('GET', path, path.startsWith('/__admin') ? { token: null } : {});
      expect([path, res.status, errorCodes(res)]).toEqual([path, 400, ['parameter_invalid']]);
    }
  });

  it('accepts plain decimal integers in range, leading zeros included', async () => {
    const res = await mock().call('GET', '/users?page=01&per_page=60');
    expect(res.status).toBe(200);
    expect(res.body.pages).toMatchObject({ page: 1, per_page: 60 });
  });
});

describe('Accept q values', () => {
  it.each(['application/json;q=0, */*', '*/*;q=0', 'application/json; q=0.000, text/html', 'application/*;q=0, */*'])('answers 406 to %s: q=0 excludes JSON', async (accept) => {
    const res = await mock().call('GET', '/admins', { headers: { accept } });
    expect(res.status).toBe(406);
    expect(errorCodes(res)).toEqual(['not_acceptable']);
  });

  it.each(['application/json;q=0.1, */*;q=0', 'application/*;q=0, application/json', '*/*;q=0.5', 'application/vnd.intercom.3+json;q=1, application/json;q=0'])('answers 200 to %s', async (accept) => {
    expect((await mock().call('GET', '/admins', { headers: { accept } })).status).toBe(200);
  });
});

describe('the Date header', () => {
  const DATE = 'Fri, 02 Jan 2026 00:00:00 GMT'; // TEST_NOW, the frozen clock of every test mock

  it('follows the mock\'s clock on every kind of response', async () => {
    const m = mock();
    const answers = [
      await m.call('GET', `/users/${ADA}`),
      await m.call('GET', '/users/nope'),
      await m.call('GET', '/admins', { token: 'wrong' }),
      await m.call('DELETE', '/admins'),
      await m.call('GET', '/no/such/route'),
      await m.call('POST', '/tags', { raw: '{', headers: JSON_HEADERS }),
      await m.call('GET', '/__admin/health', { token: null }),
      await m.call('GET', '/openapi.json', { token: null }),
      await m.call('GET', '/docs', { token: null, headers: { accept: 'text/html' } }),
      await m.call('GET', `/users?email=${'e'.repeat(9000)}`),
    ];
    expect(answers.map((a) => a.headers.get('date'))).toEqual(answers.map(() => DATE));
    m.clock.advance(90);
    expect((await m.call('GET', '/admins')).headers.get('date')).toBe('Fri, 02 Jan 2026 00:01:30 GMT');
  });
});
