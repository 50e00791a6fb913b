import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CONFIG, parseConfig } from '../src/config.js';

describe('parseConfig', () => {
  it('defaults to 127.0.0.1:4010, seed 1, the default fixtures', () => {
    expect(parseConfig([], {})).toEqual(DEFAULT_CONFIG);
    expect(DEFAULT_CONFIG.host).toBe('127.0.0.1');
  });

  it('reads flags in both spellings, and flags win over the environment', () => {
    const c = parseConfig(['--port', '5000', '--host=0.0.0.0', '--seed', '9', '--fixtures', 'dir', '--rate-limit', '60', '--now', '100'], {
      PORT: '1',
      SEED: '2',
    });
    expect(c).toMatchObject({ port: 5000, host: '0.0.0.0', seed: 9, fixturesDir: 'dir', rateLimit: 60, now: 100 });
  });

  it('reads the environment', () => {
    expect(parseConfig([], { PORT: '0', HOST: '::1', SEED: '3', RATE_LIMIT: '600', FIXTURES: 'x' })).toMatchObject({
      port: 0,
      host: '::1',
      seed: 3,
      rateLimit: 600,
      fixturesDir: 'x',
    });
  });

  it('leaves webhooks to the listening address (webhookHosts unset) with a 5 s timeout unless --webhook-hosts / --webhook-timeout say otherwise', () => {
    expect(DEFAULT_CONFIG).toMatchObject({ webhookHosts: undefined, webhookTimeoutMs: 5000 });
    expect(parseConfig(['--webhook-hosts', 'loopback'], {})).toMatchObject({ webhookHosts: 'loopback' });
    expect(parseConfig(['--webhook-hosts', 'any', '--webhook-timeout=250'], {})).toMatchObject({ webhookHosts: 'any', webhookTimeoutMs: 250 });
    expect(parseConfig([], { WEBHOOK_HOSTS: 'any', WEBHOOK_TIMEOUT: '1000' })).toMatchObject({ webhookHosts: 'any', webhookTimeoutMs: 1000 });
    expect(() => parseConfig(['--webhook-hosts', 'lan'], {})).toThrow(ConfigError);
    expect(() => parseConfig(['--webhook-timeout', '0'], {})).toThrow(ConfigError);
  });

  it('reads --allowed-hosts (names, or any) and --admin-origins (origins), refusing what is neither', () => {
    expect(DEFAULT_CONFIG).toMatchObject({ allowedHosts: [], adminOrigins: [] });
    expect(parseConfig(['--allowed-hosts', 'Mock, mock.internal ,[::2]'], {})).toMatchObject({ allowedHosts: ['mock', 'mock.internal', '[::2]'] });
    expect(parseConfig([], { ALLOWED_HOSTS: 'any' })).toMatchObject({ allowedHosts: 'any' });
    expect(parseConfig(['--admin-origins=http://localhost:3000,https://app.test'], {})).toMatchObject({ adminOrigins: ['http://localhost:3000', 'https://app.test'] });
    for (const bad of ['http://mock', 'mock:4010', 'mock/x', ',']) expect(() => parseConfig(['--allowed-hosts', bad], {}), bad).toThrow(ConfigError);
    for (const bad of ['localhost:3000', 'http://app.test/', 'http://app.test/x', 'not a url', ',']) expect(() => parseConfig(['--admin-origins', bad], {}), bad).toThrow(ConfigError);
  });

  it('answers help', () => {
    expect(parseConfig(['--seed', '1', '--help'], {})).toBe('help');
  });

  it('answers version for --version and -v', () => {
    expect(parseConfig(['--version'], {})).toBe('version');
    expect(parseConfig(['--seed', '1', '-v'], {})).toBe('version');
  });

  it.each([
    [['--port', '70000']],
    [['--port', 'abc']],
    [['--seed', '-1']],
    [['--rate-limit', '5']],
    [['--unknown']],
    [['--port']],
    [['--host', '']],
  ])('rejects %j with a ConfigError', (argv) => {
    expect(() => parseConfig(argv, {})).toThrow(ConfigError);
  });

  it('rejects a bad environment value', () => {
    expect(() => parseConfig([], { PORT: 'eighty' })).toThrow(/--port must be an integer/);
  });

  it('reads the journal budget from --journal-bytes or JOURNAL_BYTES, at least 1 MiB', () => {
    expect(DEFAULT_CONFIG.journalBytes).toBe(64 * 1024 * 1024);
    expect(parseConfig(['--journal-bytes', '2097152'], {})).toMatchObject({ journalBytes: 2_097_152 });
    expect(parseConfig([], { JOURNAL_BYTES: '1048576' })).toMatchObject({ journalBytes: 1_048_576 });
    expect(() => parseConfig(['--journal-bytes', '1000'], {})).toThrow(/--journal-bytes must be an integer from 1048576/);
  });
});

describe('HTTPS options', () => {
  it('reads them from flags and from the environment', () => {
    expect(parseConfig(['--tls'], {})).toMatchObject({ tls: true, tlsCert: undefined, tlsKey: undefined });
    expect(parseConfig([], { TLS: '1' })).toMatchObject({ tls: true });
    expect(parseConfig(['--tls-cert', 'c.pem', '--tls-key=k.pem'], {})).toMatchObject({ tls: false, tlsCert: 'c.pem', tlsKey: 'k.pem' });
    expect(parseConfig([], { TLS_CERT: 'c.pem', TLS_KEY: 'k.pem' })).toMatchObject({ tlsCert: 'c.pem', tlsKey: 'k.pem' });
  });

  it('lets the flags win over the environment, the one way of HTTPS over the other', () => {
    expect(parseConfig(['--tls-cert', 'c.pem', '--tls-key', 'k.pem'], { TLS: '1' })).toMatchObject({ tls: false, tlsCert: 'c.pem', tlsKey: 'k.pem' });
    expect(parseConfig(['--tls'], { TLS_CERT: 'c.pem', TLS_KEY: 'k.pem' })).toMatchObject({ tls: true, tlsCert: undefined, tlsKey: undefined });
    expect(parseConfig(['--tls'], { TLS_CERT: 'c.pem' })).toMatchObject({ tls: true, tlsCert: undefined });
  });

  it('refuses half a pair, saying where the half came from, and both ways at once', () => {
    expect(() => parseConfig(['--tls-key', 'k.pem'], {})).toThrow(new ConfigError('--tls-cert and --tls-key go together: give both'));
    expect(() => parseConfig([], { TLS_CERT: 'c.pem' })).toThrow(new ConfigError('--tls-cert and --tls-key go together: give both (TLS_CERT is set in the environment)'));
    expect(() => parseConfig([], { TLS_KEY: 'k.pem' })).toThrow(new ConfigError('--tls-cert and --tls-key go together: give both (TLS_KEY is set in the environment)'));
    expect(() => parseConfig(['--tls', '--tls-cert', 'c.pem', '--tls-key', 'k.pem'], {})).toThrow(new ConfigError('--tls makes its own certificate: give it, or --tls-cert and --tls-key, not both'));
  });
});
