// The pure rules behind the browser guard (http/origin-guard.ts) and the webhook targets
// (resources/subscriptions/targets.ts), value by value; the HTTP behaviour is in test/http/browser-guard.test.ts
// and test/resources/subscriptions/webhook-targets.test.ts.

import { describe, expect, it } from 'vitest';
import { authorityOf, checkAdminWrite, checkHost, hostAllowed, hostChecker } from '../../src/http/origin-guard.js';
import { defaultWebhookHosts, isAllowedTarget, isLoopbackAddress, isSelf, refusal } from '../../src/resources/subscriptions/targets.js';

describe('loopback addresses', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['128.0.0.1', false],
    ['10.0.0.1', false],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::2', false],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['0:0:0:0:0:ffff:7f00:1', true],
    ['::ffff:a00:1', false],
    ['::ffff:10.0.0.1', false],
    ['x::ffff:7f00:1', false],
    ['::ffff:7f00:1:2', false],
    ['localhost', false],
  ])('%s: %s', (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback);
  });
});

describe('the Host rule', () => {
  it.each([
    ['localhost:4010', {}, true],
    ['LOCALHOST', {}, true],
    ['localhost.', {}, true],
    ['a.localhost', {}, true],
    ['localhost.evil.test', {}, false],
    ['[::1]:9', {}, true],
    ['[::ffff:127.0.0.1]', {}, true],
    ['evil.test', {}, false],
    ['evil.test', { allowedHosts: 'any' as const }, true],
    ['Mock.Internal:80', { allowedHosts: ['mock.internal'] }, true],
    ['[fd00::1]', { allowedHosts: ['[fd00::1]'] }, true],
    ['10.0.0.2', { listenHost: '10.0.0.2' }, true],
    ['10.0.0.3', { listenHost: '10.0.0.2' }, false],
    ['10.0.0.3', { listenHost: '0.0.0.0' }, true],
    ['[fd00::3]', { listenHost: '::' }, true],
    ['evil.test', { listenHost: '0.0.0.0' }, false],
    ['', {}, false],
    ['a b', {}, false],
  ])('%s with %o: %s', (authority, options, allowed) => {
    expect(hostAllowed(authority, options)).toBe(allowed);
  });

  it('reads the authority of an absolute URL, with or without a path', () => {
    expect(authorityOf('http://a.test:9/x/y?z')).toBe('a.test:9');
    expect(authorityOf('http://a.test:9')).toBe('a.test:9');
    expect(authorityOf('https://[::1]:4010/')).toBe('[::1]:4010');
  });

  it('checks both the URL\'s authority and a Host that differs from it, naming the one refused', () => {
    const at = (url: string, host?: string) => new Request(url, host === undefined ? {} : { headers: { host } });
    expect(checkHost(at('http://localhost/x'), {})).toBeUndefined();
    expect(checkHost(at('http://localhost/x', 'localhost'), {})).toBeUndefined();
    const byHeader = checkHost(at('http://localhost/x', 'evil.test:80'), {});
    expect(byHeader?.errors[0]).toMatchObject({ code: 'misdirected_request' });
    expect(byHeader?.errors[0]?.message).toContain('Host "evil.test:80"');
    expect(byHeader?.errors[0]?.message).toContain('--allowed-hosts evil.test');
    expect(checkHost(at('http://evil.test/x', 'localhost'), {})?.errors[0]?.message).toContain('Host "evil.test"');
  });

  it('remembers at most 256 judgements, and judges the same past them', () => {
    const check = hostChecker({});
    for (let i = 0; i < 300; i++) expect(check(new Request(`http://n${i}.test/`))?.errors[0]?.code).toBe('misdirected_request');
    expect(check(new Request('http://localhost/'))).toBeUndefined();
    expect(check(new Request('http://n299.test/'))?.errors[0]?.code).toBe('misdirected_request');
  });
});

describe('control-plane writes from a page', () => {
  const req = (method: string, headers: Record<string, string>) => new Request('http://localhost:4010/__admin/reset', { method, headers });
  it.each([
    ['GET', { 'sec-fetch-site': 'cross-site', origin: 'http://evil.test' }, undefined],
    ['HEAD', { 'sec-fetch-site': 'cross-site' }, undefined],
    ['OPTIONS', { origin: 'http://evil.test' }, undefined],
    ['POST', {}, undefined],
    ['POST', { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:4010' }, undefined],
    ['POST', { 'sec-fetch-site': 'none' }, undefined],
    ['POST', { 'sec-fetch-site': 'cross-site' }, 'another site'],
    ['DELETE', { 'sec-fetch-site': 'same-site' }, 'another site'],
    ['POST', { origin: 'http://localhost:4011' }, '"http://localhost:4011"'],
    ['POST', { origin: 'null' }, '"null"'],
  ])('%s %o', (method, headers, refusedFrom) => {
    const refusal = checkAdminWrite(req(method, headers), {});
    if (refusedFrom === undefined) expect(refusal).toBeUndefined();
    else expect(refusal?.errors[0]).toMatchObject({ code: 'forbidden', message: `A page of ${refusedFrom} may not change the mock's control plane: send the request from a script, a test or the console, or start the mock with --admin-origins naming that origin.` });
  });

  it('an origin --admin-origins names passes, even same-site or cross-site', () => {
    expect(checkAdminWrite(req('POST', { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site' }), { adminOrigins: ['http://localhost:3000'] })).toBeUndefined();
    expect(checkAdminWrite(req('POST', { origin: 'https://app.test', 'sec-fetch-site': 'cross-site' }), { adminOrigins: ['https://app.test'] })).toBeUndefined();
    expect(checkAdminWrite(req('POST', { origin: 'https://other.test', 'sec-fetch-site': 'cross-site' }), { adminOrigins: ['https://app.test'] })).toBeDefined();
  });
});

describe('webhook targets', () => {
  it.each([
    ['http://127.0.0.1:9/x', 'loopback', true],
    ['https://localhost/x', 'loopback', true],
    ['http://[::1]:9/', 'loopback', true],
    ['http://[::ffff:127.0.0.1]:9/', 'loopback', true],
    ['http://example.com/', 'loopback', false],
    ['http://example.com/', 'any', true],
    ['http://127.0.0.1/', 'none', false],
    ['ftp://127.0.0.1/', 'any', false],
    ['not a url', 'any', false],
  ] as const)('%s under %s: %s', (url, hosts, allowed) => {
    expect(isAllowedTarget(url, hosts)).toBe(allowed);
  });

  it('defaults by the listening address: loopback for loopback, nowhere beyond', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.1.2.3']) expect(defaultWebhookHosts(host)).toBe('loopback');
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'mock.internal']) expect(defaultWebhookHosts(host)).toBe('none');
  });

  it('says why a target is refused, per rule', () => {
    expect(refusal('none')).toBe('Target refused: the mock listens beyond loopback, so it delivers webhooks only when started with --webhook-hosts loopback or any');
    expect(refusal('loopback')).toBe('Target refused: webhooks go to loopback addresses unless the mock runs with --webhook-hosts any');
  });

  it('is the mock itself only on its own port (80 and 443 by default) at an address of this machine', async () => {
    expect(await isSelf('http://127.0.0.1:4010/', 4010)).toBe(true);
    expect(await isSelf('http://127.0.0.1:4011/', 4010)).toBe(false);
    expect(await isSelf('http://127.0.0.1/', 80)).toBe(true);
    expect(await isSelf('https://127.0.0.1/', 443)).toBe(true);
    expect(await isSelf('https://127.0.0.1/', 80)).toBe(false);
    expect(await isSelf('http://[::ffff:7f00:1]:4010/', 4010)).toBe(true);
    expect(await isSelf('http://192.0.2.1:4010/', 4010)).toBe(false);
    expect(await isSelf('http://localhost:4010/', 4010)).toBe(true);
    expect(await isSelf('http://127.0.0.1:4010/', undefined)).toBe(false);
  });
});
