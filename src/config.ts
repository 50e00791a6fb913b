// The only reader of process.env and the command line.

import { CLOCK_MAX_SECONDS } from './core/clock.js';
import { DEFAULT_SEED } from './core/random.js';
import { API_VERSIONS, type AppApiVersion } from './core/versions.js';
import { isWarningCode, WARNING_CODES } from './core/warnings.js';

export interface Config {
  port: number;
  host: string;
  seed: number;
  fixturesDir: string | undefined;
  rateLimit: number | undefined;
  /** API version of apps whose fixture names none. */
  apiVersion: AppApiVersion | undefined;
  /** Start the clock frozen at this Unix time (for byte-identical runs); undefined: the wall clock. */
  now: number | undefined;
  jobDelaySeconds: number;
  bodyLimit: number;
  testApps: boolean;
  maxTestApps: number;
  testAppIdleSeconds: number;
  journalSize: number;
  /** Bytes every journal together may hold; past it the oldest entries of the whole store go. */
  journalBytes: number;
  maxCustomers: number;
  maxCompanies: number;
  maxParts: number;
  /** When set, /__admin answers only requests carrying it in X-Admin-Token. */
  adminToken: string | undefined;
  /** On SIGTERM/SIGINT, seconds the requests in flight get to finish. */
  shutdownGraceSeconds: number;
  /** Connections open at once; more are closed as soon as they are accepted. */
  maxConnections: number;
  /** Once listening, `{"url","port","pid"}` is written here (atomically), and removed on shutdown. */
  readyFile: string | undefined;
  /** `json`: the start-up and shutdown lines are JSON objects, for scripts; `text` for people. */
  logFormat: 'text' | 'json';
  /** Each app's state is loaded from here on start and written on shutdown and on POST /__admin/save. */
  dataDir: string | undefined;
  /** With dataDir: also write changed apps every this many seconds (0: only on shutdown and save). */
  autosaveSeconds: number;
  /** Access-Control-* headers and OPTIONS preflights, for browser apps. */
  cors: boolean;
  /**
   * Where webhook subscriptions may deliver: loopback addresses only, or any host. Unset: loopback
   * while the mock listens on loopback, nowhere when it listens beyond (webhookHostsFor).
   */
  webhookHosts: 'loopback' | 'any' | undefined;
  /** Host names answered beyond loopback ones and --host (DNS rebinding), or 'any'. */
  allowedHosts: string[] | 'any';
  /** Origins besides the mock's own whose pages may change /__admin. */
  adminOrigins: string[];
  /** Per-attempt timeout of a webhook delivery, in milliseconds. */
  webhookTimeoutMs: number;
  /** Refuse what the real API accepted but looks wrong (core/warnings.ts), for apps whose fixture does not say. */
  strict: boolean;
  /** Warning codes no response shows (nor strict mode refuses); the journal and the report keep them. */
  muteWarnings: string[];
  /** On shutdown, exit 1 when the run's requests caused warnings (muted ones aside). */
  failOnWarnings: boolean;
  /** A line per request on stdout (http/request-log.ts). */
  logRequests: boolean;
  /** With logRequests: the query strings too (they may hold emails). */
  logQueries: boolean;
  /** Reload fixture files when they change (fixture-watch.ts). */
  watch: boolean;
  /** Serve HTTPS with a local CA's certificate for localhost and 127.0.0.1, made once and kept (tls/credentials.ts). */
  tls: boolean;
  /** Serve HTTPS with this certificate chain (PEM) and tlsKey. */
  tlsCert: string | undefined;
  tlsKey: string | undefined;
}

export const USAGE = `Usage: messaging-api-mock [options]
       messaging-api-mock import --from URL --token T --out FILE [options]   (see import --help)

Serves a stateful mock of the customer-messaging REST API on the default fixtures.

Options (each also read from the environment variable in brackets):
  --port N            port to listen on (PORT), default 4010; 0 picks a free port
  --host ADDR         address to bind (HOST), default 127.0.0.1
  --seed N            seed of the generated data and ids (SEED), default 1
  --fixtures DIR      load this fixture directory instead of the default (FIXTURES)
  --rate-limit N      operations per minute for apps whose fixture sets none (RATE_LIMIT), default 500
  --api-version V     API version (1.0-1.4) of apps whose fixture names none (API_VERSION), default 1.0
  --now UNIX          start the clock frozen at this Unix time (NOW); default: the wall clock
  --job-delay S       seconds before async enrichment jobs run (JOB_DELAY), default 2
  --body-limit BYTES  largest request body accepted (BODY_LIMIT), default 1048576
  --no-test-apps      unseen test_ tokens stay 401 instead of provisioning an app (TEST_APPS=0)
  --max-test-apps N   provisioned test apps kept at once (MAX_TEST_APPS), default 1000
  --test-app-idle S   evict a provisioned app idle this many seconds (TEST_APP_IDLE), default 3600
  --journal-size N    request journal entries kept per app (JOURNAL_SIZE), default 1000
  --journal-bytes N   bytes all journals together may hold (JOURNAL_BYTES), default 67108864
  --max-customers N   customers an app may reach through API writes (MAX_CUSTOMERS), default 200000
  --max-companies N   companies an app may reach through API writes (MAX_COMPANIES), default 50000
  --max-parts N       conversation parts an app may reach (MAX_PARTS), default 500000
  --admin-token T     require X-Admin-Token: T on /__admin (ADMIN_TOKEN); default: open
  --shutdown-grace S  on SIGTERM/SIGINT, seconds requests in flight get to finish (SHUTDOWN_GRACE), default 5
  --max-connections N connections open at once, one more answered 503 (MAX_CONNECTIONS), default 10000
  --ready-file PATH   once listening, write {"url","port","pid"} to PATH (READY_FILE); removed on shutdown
  --log-format F      text or json: the start-up and shutdown lines as JSON (LOG_FORMAT), default text
  --cors              answer browsers: Access-Control-* headers and OPTIONS preflights (CORS=1); default off
  --data-dir DIR      load each app's state from DIR on start, write it on shutdown and POST /__admin/save (DATA_DIR)
  --autosave S        with --data-dir, also write changed apps every S seconds (AUTOSAVE), default 0: off
  --webhook-hosts H   loopback or any: where webhook subscriptions may deliver (WEBHOOK_HOSTS); default loopback,
                      and nowhere when --host is beyond loopback
  --allowed-hosts H,… Host names answered besides loopback ones and --host (ALLOWED_HOSTS), or any
  --admin-origins O,… origins whose pages may change /__admin besides the mock's own (ADMIN_ORIGINS)
  --strict            refuse, as 400 (or 404 for a path), what the real API accepted but the mock warns about (STRICT=1)
  --mute-warnings C,… warning codes no response shows (MUTE_WARNINGS); the journal and GET /__admin/report keep them
  --fail-on-warnings  on shutdown, exit 1 if any request caused a warning that is not muted (FAIL_ON_WARNINGS=1)
  --log-requests      a line per request on stdout: time, app, method, path, status, ms, request id, warnings (LOG_REQUESTS=1)
  --log-queries       with --log-requests, the query strings too; off as they may hold emails (LOG_QUERIES=1)
  --watch             reload fixture files when they change: their apps go back to the new seed (WATCH=1)
  --tls               serve HTTPS with a certificate for localhost/127.0.0.1 from a local CA made once and kept
                      in --data-dir or ~/.local/share/messaging-api-mock/tls (TLS=1); prints the CA file to trust
  --tls-cert FILE     serve HTTPS with this PEM certificate (chain) and --tls-key (TLS_CERT)
  --tls-key FILE      the PEM private key of --tls-cert (TLS_KEY)
  --webhook-timeout MS per-attempt timeout of a webhook delivery (WEBHOOK_TIMEOUT), default 5000
  --help, -h          print this help
  --version, -v       print the version
`;

export class ConfigError extends Error {}

interface Option {
  env: string;
  key: keyof Config;
  parse: (raw: string, flag: string) => Config[keyof Config];
}

function integer(min: number, max: number) {
  return (raw: string, flag: string): number => {
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new ConfigError(`${flag} must be an integer from ${min} to ${max}, not "${raw}"`);
    }
    return n;
  };
}

function oneOf<T extends string>(values: readonly T[]) {
  return (raw: string, flag: string): T => {
    if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${flag} must be one of ${values.join(', ')}, not "${raw}"`);
    return raw as T;
  };
}

const text = (raw: string, flag: string): string => {
  if (raw.trim() === '') throw new ConfigError(`${flag} needs a value`);
  return raw;
};

const OPTIONS: Record<string, Option> = {
  '--port': { env: 'PORT', key: 'port', parse: integer(0, 65_535) },
  '--host': { env: 'HOST', key: 'host', parse: text },
  '--seed': { env: 'SEED', key: 'seed', parse: integer(0, 4_294_967_295) },
  '--fixtures': { env: 'FIXTURES', key: 'fixturesDir', parse: text },
  '--rate-limit': { env: 'RATE_LIMIT', key: 'rateLimit', parse: integer(6, 1_000_000_000) },
  '--api-version': { env: 'API_VERSION', key: 'apiVersion', parse: oneOf(API_VERSIONS) },
  '--now': { env: 'NOW', key: 'now', parse: integer(0, CLOCK_MAX_SECONDS) },
  '--job-delay': { env: 'JOB_DELAY', key: 'jobDelaySeconds', parse: integer(0, 86_400) },
  '--body-limit': { env: 'BODY_LIMIT', key: 'bodyLimit', parse: integer(1024, 1024 * 1024 * 1024) },
  '--max-test-apps': { env: 'MAX_TEST_APPS', key: 'maxTestApps', parse: integer(1, 1_000_000) },
  '--test-app-idle': { env: 'TEST_APP_IDLE', key: 'testAppIdleSeconds', parse: integer(1, 31_536_000) },
  '--journal-size': { env: 'JOURNAL_SIZE', key: 'journalSize', parse: integer(0, 1_000_000) },
  '--journal-bytes': { env: 'JOURNAL_BYTES', key: 'journalBytes', parse: integer(1024 * 1024, 2 ** 40) },
  '--max-customers': { env: 'MAX_CUSTOMERS', key: 'maxCustomers', parse: integer(1, 100_000_000) },
  '--max-companies': { env: 'MAX_COMPANIES', key: 'maxCompanies', parse: integer(1, 100_000_000) },
  '--max-parts': { env: 'MAX_PARTS', key: 'maxParts', parse: integer(1, 100_000_000) },
  '--admin-token': { env: 'ADMIN_TOKEN', key: 'adminToken', parse: text },
  '--shutdown-grace': { env: 'SHUTDOWN_GRACE', key: 'shutdownGraceSeconds', parse: integer(0, 3600) },
  '--max-connections': { env: 'MAX_CONNECTIONS', key: 'maxConnections', parse: integer(1, 1_000_000) },
  '--ready-file': { env: 'READY_FILE', key: 'readyFile', parse: text },
  '--log-format': { env: 'LOG_FORMAT', key: 'logFormat', parse: oneOf(['text', 'json']) },
  '--data-dir': { env: 'DATA_DIR', key: 'dataDir', parse: text },
  '--tls-cert': { env: 'TLS_CERT', key: 'tlsCert', parse: text },
  '--tls-key': { env: 'TLS_KEY', key: 'tlsKey', parse: text },
  '--autosave': { env: 'AUTOSAVE', key: 'autosaveSeconds', parse: integer(0, 86_400) },
  '--webhook-hosts': { env: 'WEBHOOK_HOSTS', key: 'webhookHosts', parse: oneOf(['loopback', 'any']) },
  '--webhook-timeout': { env: 'WEBHOOK_TIMEOUT', key: 'webhookTimeoutMs', parse: integer(1, 60_000) },
  '--mute-warnings': { env: 'MUTE_WARNINGS', key: 'muteWarnings', parse: warningCodes },
  '--allowed-hosts': { env: 'ALLOWED_HOSTS', key: 'allowedHosts', parse: hostNames },
  '--admin-origins': { env: 'ADMIN_ORIGINS', key: 'adminOrigins', parse: origins },
};

const list = (raw: string): string[] => raw.split(',').map((c) => c.trim()).filter((c) => c !== '');

/** Host names (no port), or `any`. */
function hostNames(raw: string, flag: string): string[] | 'any' {
  if (raw.trim() === 'any') return 'any';
  const names = list(raw);
  if (names.length === 0) throw new ConfigError(`${flag} needs a value`);
  for (const name of names) if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/.test(name)) throw new ConfigError(`${flag}: "${name.slice(0, 60)}" is not a host name (no scheme, port or path)`);
  return names.map((n) => n.toLowerCase());
}

/** Web origins, `scheme://host[:port]` each. */
function origins(raw: string, flag: string): string[] {
  const out = list(raw);
  if (out.length === 0) throw new ConfigError(`${flag} needs a value`);
  for (const origin of out) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) throw new ConfigError(`${flag}: "${origin.slice(0, 60)}" is not an origin (scheme://host[:port], nothing after)`);
  }
  return out;
}

/** A comma-separated list of warning codes (core/warnings.ts). */
function warningCodes(raw: string, flag: string): string[] {
  const codes = list(raw);
  for (const code of codes) if (!isWarningCode(code)) throw new ConfigError(`${flag}: "${code.slice(0, 60)}" is not a warning code (${Object.keys(WARNING_CODES).join(', ')})`);
  return codes;
}

/** Switches that take no value, each also set by its environment variable as 1 or true. */
const SWITCHES: Record<string, { env: string; key: 'cors' | 'strict' | 'failOnWarnings' | 'logRequests' | 'logQueries' | 'watch' | 'tls' }> = {
  '--cors': { env: 'CORS', key: 'cors' },
  '--strict': { env: 'STRICT', key: 'strict' },
  '--fail-on-warnings': { env: 'FAIL_ON_WARNINGS', key: 'failOnWarnings' },
  '--log-requests': { env: 'LOG_REQUESTS', key: 'logRequests' },
  '--log-queries': { env: 'LOG_QUERIES', key: 'logQueries' },
  '--watch': { env: 'WATCH', key: 'watch' },
  '--tls': { env: 'TLS', key: 'tls' },
};

export const DEFAULT_CONFIG: Config = {
  port: 4010,
  host: '127.0.0.1',
  seed: DEFAULT_SEED,
  fixturesDir: undefined,
  rateLimit: undefined,
  apiVersion: undefined,
  now: undefined,
  jobDelaySeconds: 2,
  bodyLimit: 1024 * 1024,
  testApps: true,
  maxTestApps: 1000,
  testAppIdleSeconds: 3600,
  journalSize: 1000,
  journalBytes: 64 * 1024 * 1024,
  maxCustomers: 200_000,
  maxCompanies: 50_000,
  maxParts: 500_000,
  adminToken: undefined,
  shutdownGraceSeconds: 5,
  maxConnections: 10_000,
  readyFile: undefined,
  logFormat: 'text',
  dataDir: undefined,
  autosaveSeconds: 0,
  cors: false,
  webhookHosts: undefined,
  allowedHosts: [],
  adminOrigins: [],
  webhookTimeoutMs: 5000,
  strict: false,
  muteWarnings: [],
  failOnWarnings: false,
  logRequests: false,
  logQueries: false,
  watch: false,
  tls: false,
  tlsCert: undefined,
  tlsKey: undefined,
};

/** Flags win over the environment, which wins over the defaults. Returns 'help' for --help, 'version' for --version. */
export function parseConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Config | 'help' | 'version' {
  const config: Config = { ...DEFAULT_CONFIG };
  const set = (flag: string, raw: string) => {
    const option = OPTIONS[flag] as Option;
    (config as unknown as Record<string, unknown>)[option.key] = option.parse(raw, flag);
  };
  for (const [flag, option] of Object.entries(OPTIONS)) {
    const raw = env[option.env];
    if (raw !== undefined && raw !== '') set(flag, raw);
  }
  if (env.TEST_APPS === '0' || env.TEST_APPS === 'false') config.testApps = false;
  for (const { env: name, key } of Object.values(SWITCHES)) if (env[name] === '1' || env[name] === 'true') config[key] = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--version' || arg === '-v') return 'version';
    if (arg === '--no-test-apps') {
      config.testApps = false;
      continue;
    }
    const on = SWITCHES[arg];
    if (on && Object.hasOwn(SWITCHES, arg)) {
      config[on.key] = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!Object.hasOwn(OPTIONS, flag)) throw new ConfigError(`unknown option "${arg}" (see --help)`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new ConfigError(`${flag} needs a value`);
    set(flag, value);
  }
  if (config.autosaveSeconds > 0 && config.dataDir === undefined) throw new ConfigError('--autosave needs --data-dir DIR to write to');
  // Flags win over the environment: HTTPS asked one way on the command line drops the other way
  // the environment asked for.
  const flagged = (name: string) => argv.some((a) => a === name || a.startsWith(`${name}=`));
  if (flagged('--tls-cert') || flagged('--tls-key')) {
    if (!flagged('--tls')) config.tls = false;
  } else if (flagged('--tls')) {
    config.tlsCert = undefined;
    config.tlsKey = undefined;
  }
  if ((config.tlsCert === undefined) !== (config.tlsKey === undefined)) {
    const [flag, name] = config.tlsCert === undefined ? ['--tls-key', 'TLS_KEY'] : ['--tls-cert', 'TLS_CERT'];
    throw new ConfigError(`--tls-cert and --tls-key go together: give both${flagged(flag) ? '' : ` (${name} is set in the environment)`}`);
  }
  if (config.tls && config.tlsCert !== undefined) throw new ConfigError('--tls makes its own certificate: give it, or --tls-cert and --tls-key, not both');
  return config;
}
