// Process entry: read the configuration, build the store, listen. Nothing else lives here.

import { rmSync } from 'node:fs';
import { createApp } from './app.js';
import { ConfigError, parseConfig, USAGE } from './config.js';
import { DataDir } from './data-dir/state-files.js';
import { lockDataDir } from './data-dir/lock.js';
import { watchFixtures } from './fixture-watch.js';
import { DEFAULT_FIXTURES_DIR } from './fixtures/files.js';
import { packageVersion } from './version.js';
import { Clock } from './core/clock.js';
import { listen, RESERVED_DESCRIPTORS } from './server.js';
import { createStore } from './setup.js';
import { seedProgressPrinter } from './seed-progress-log.js';
import { writeWhole } from './write-whole.js';
import { runImport } from './import/command.js';
import { assetKey, EMBEDDED } from './shipped.js';
import { localTls, localTlsDir, readTlsFiles, TlsError, type TlsMaterial } from './tls/credentials.js';
import type { Store } from './state/store.js';
import { FixtureError } from './fixtures/fixture-doc.js';
import { apiOperations, contractReport } from './admin/report.js';
import { ROUTES } from './resources/index.js';
import { defaultWebhookHosts, type WebhookHosts } from './resources/subscriptions/targets.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** Binding beyond loopback exposes the control plane (reset, seed, state) to the network. */
/** What the start-up lines say about where webhooks go, when it is not the safe default. */
function webhookLine(host: string, hosts: WebhookHosts, named: boolean): string[] {
  if (hosts === 'any') return ['  WARNING:    --webhook-hosts any: webhook subscriptions may make this mock POST to any host the API user names'];
  if (hosts === 'none') return [`  webhooks:   not delivered: the mock listens on ${host}, beyond loopback; start it with --webhook-hosts loopback or any to deliver`];
  if (named && !LOOPBACK.test(host)) return [`  WARNING:    --webhook-hosts loopback while listening on ${host}: anyone who reaches the mock can make it POST to this machine's loopback services`];
  return [];
}

function exposureWarning(host: string, protectedByToken: boolean): string[] {
  if (LOOPBACK.test(host)) return [];
  return protectedByToken
    ? [`  note:       listening on ${host}, beyond loopback; /__admin requires X-Admin-Token`]
    : [`  WARNING:    listening on ${host}, beyond loopback: the control plane /__admin (reset, seed, state) is open to anyone who can reach it; start with --admin-token to protect it`];
}

async function main(): Promise<void> {
  if (process.argv[2] === 'import') {
    process.exitCode = await runImport(process.argv.slice(3), process.env, (line) => process.stdout.write(`${line}\n`), (line) => process.stderr.write(`messaging-api-mock: ${line}\n`));
    return;
  }
  const config = parseConfig(process.argv.slice(2), process.env);
  if (config === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (config === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  if (config.watch && EMBEDDED && (config.fixturesDir === undefined || assetKey(config.fixturesDir) !== undefined)) throw new ConfigError('--watch needs --fixtures DIR here: the default fixtures are inside the executable');
  const clock = config.now === undefined ? new Clock() : new Clock({ start: config.now, frozen: true });
  const seedProgress = seedProgressPrinter(config.logFormat, (line) => process.stdout.write(`${line}\n`));
  const store = createStore({
    seedReporter: seedProgress,
    seed: config.seed,
    clock,
    jobDelaySeconds: config.jobDelaySeconds,
    fixturesDir: config.fixturesDir,
    rateLimit: config.rateLimit,
    apiVersion: config.apiVersion,
    testApps: config.testApps,
    maxTestApps: config.maxTestApps,
    testAppIdleSeconds: config.testAppIdleSeconds,
    journalSize: config.journalSize,
    journalBytes: config.journalBytes,
    strict: config.strict,
    muteWarnings: config.muteWarnings,
    limits: { customers: config.maxCustomers, companies: config.maxCompanies, parts: config.maxParts },
  });
  store.seeds.reporter = seedProgress;
  const dataDir = config.dataDir === undefined ? undefined : new DataDir(config.dataDir, store);
  dataDir?.prepare();
  // Taken before anything in the directory is read or cleaned: another process's temporary files are its own.
  const lock = dataDir ? lockDataDir(dataDir.dir, (line) => process.stderr.write(`messaging-api-mock: ${line}\n`)) : undefined;
  const loaded = dataDir?.load() ?? [];
  // A process that lost the lock to another writes nothing more (data-dir/lock.ts).
  if (dataDir) store.saver = () => (lock?.lost() ? Promise.reject(new Error('this process lost the --data-dir lock to another')) : dataDir.save());
  const webhookHosts = config.webhookHosts ?? defaultWebhookHosts(config.host);
  const app = createApp({
    store,
    bodyLimit: config.bodyLimit,
    cors: config.cors,
    guard: { allowedHosts: config.allowedHosts, listenHost: config.host, adminOrigins: config.adminOrigins },
    ...(config.logRequests ? { requestLog: { format: config.logFormat, queries: config.logQueries, write: (line: string) => process.stdout.write(`${line}\n`) } } : {}),
    webhookHosts,
    webhookTimeoutMs: config.webhookTimeoutMs,
    ...(config.adminToken ? { adminToken: config.adminToken } : {}),
  });
  const tls = config.tls ? await localTls(localTlsDir(config.dataDir)) : config.tlsCert !== undefined && config.tlsKey !== undefined ? readTlsFiles(config.tlsCert, config.tlsKey) : undefined;
  const server = await listen(app, config.port, config.host, {
    requestId: () => store.nextConnectionRequestId(),
    now: () => store.now(),
    ...(tls ? { tls: { cert: tls.cert, key: tls.key } } : {}),
    limits: { shutdownGraceMs: config.shutdownGraceSeconds * 1000, maxConnections: config.maxConnections },
  }).catch((err: unknown) => {
    throw listenFailure(err, config.host, config.port);
  });
  store.webhooks?.listening(server.port);
  // Before the banner: a ready file that cannot be written stops the start with its one line only.
  if (config.readyFile !== undefined) writeReadyFile(config.readyFile, { url: server.url, port: server.port, pid: process.pid, ...(tls?.caFile ? { ca_file: tls.caFile } : {}) });
  const demo = store.app('demo') ?? store.app(store.appIds()[0] ?? '');
  const token = demo?.config.tokens[0];
  if (config.logFormat === 'json') {
    const line = { event: 'listening', url: server.url, port: server.port, pid: process.pid, version: packageVersion(), docs: `${server.url}/docs`, console: `${server.url}/__admin/ui`, health: `${server.url}/__admin/health`, demo_app: demo?.id ?? null, demo_token: token ?? null, seed: config.seed, data_dir: dataDir?.dir ?? null, loaded, ...(tls ? { ca_file: tls.caFile ?? null } : {}) };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  } else {
    process.stdout.write(
      [
        `messaging-api-mock listening on ${server.url}`,
        `  docs:       ${server.url}/docs`,
        `  console:    ${server.url}/__admin/ui`,
        `  demo token: ${token ?? '(none)'}  (app "${demo?.id ?? ''}", seed ${config.seed})`,
        `  try:        curl ${tls?.caFile ? `--cacert ${tls.caFile} ` : ''}-H 'Authorization: Bearer ${token ?? ''}' ${server.url}/admins`,
        ...httpsLines(tls, config.tlsCert),
        ...exposureWarning(config.host, config.adminToken !== undefined),
        ...webhookLine(config.host, webhookHosts, config.webhookHosts !== undefined),
        ...(server.maxConnections < config.maxConnections
          ? [`  note:       --max-connections held at ${server.maxConnections}: this process may open ${server.maxConnections + RESERVED_DESCRIPTORS} files (ulimit -n), ${RESERVED_DESCRIPTORS} of them kept for webhooks and files`]
          : []),
        '',
      ].join('\n'),
    );
  }
  if (dataDir && config.logFormat === 'text') {
    process.stdout.write(`  data dir:   ${dataDir.dir} (${loaded.length > 0 ? `loaded ${loaded.join(', ')}` : 'nothing saved yet'}; written on shutdown${config.autosaveSeconds > 0 ? ` and every ${config.autosaveSeconds} s` : ''})\n`);
  }
  if (config.watch) {
    const dir = config.fixturesDir ?? DEFAULT_FIXTURES_DIR;
    watchFixtures(dir, store, (line) => process.stdout.write(`${line}\n`), (line) => process.stderr.write(`messaging-api-mock: ${line}\n`));
    if (config.logFormat === 'text') process.stdout.write(`  watching:   ${dir} (a changed fixture file puts its app back to the new seed)\n`);
  }
  if (dataDir && config.autosaveSeconds > 0) {
    // A failed autosave (disk full, say) is said and retried next time; the mock keeps serving.
    // One at a time: a save still writing a big app is not queued behind again.
    setInterval(() => {
      if (!dataDir.saving) void saveOrSay(store, dataDir.dir);
    }, config.autosaveSeconds * 1000).unref();
  }
  // A repeated signal changes nothing: under `npm start` a terminal's Ctrl-C reaches the server
  // twice (from the terminal and forwarded by npm), and the grace already bounds the wait.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (config.logFormat === 'json') process.stdout.write(`${JSON.stringify({ event: 'stopping', signal, grace_seconds: config.shutdownGraceSeconds })}\n`);
    else process.stdout.write(`\n${signal}: shutting down (requests in flight get up to ${config.shutdownGraceSeconds} s)\n`);
    if (config.readyFile !== undefined) rmSync(config.readyFile, { force: true });
    // Saved after the drain, so the writes of the requests in flight are in it; the contract
    // report's line comes last, with what the run's requests called.
    void server.close().then(async () => {
      const saved = !dataDir || (await saveOrSay(store, dataDir.dir));
      lock?.release();
      const report = contractReport(store, apiOperations(ROUTES));
      if (config.logFormat === 'json') process.stdout.write(`${JSON.stringify({ event: 'contract', ...report.totals, summary: report.summary })}\n`);
      else process.stdout.write(`${report.summary}\n`);
      const warned = config.failOnWarnings && report.totals.warnings > report.totals.muted;
      if (warned) process.stderr.write(`messaging-api-mock: --fail-on-warnings: ${report.totals.warnings - report.totals.muted} warning(s) that are not muted\n`);
      process.exit(saved && !warned ? 0 : 1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function saveOrSay(store: Store, dir: string): Promise<boolean> {
  try {
    await store.saver?.();
    return true;
  } catch (err) {
    process.stderr.write(`messaging-api-mock: could not save to ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
    return false;
  }
}

/**
 * Written to a temporary name and renamed, so a script polling for the file never reads half of
 * it; a path that cannot be written stops the start like a bad option.
 */
function writeReadyFile(path: string, ready: { url: string; port: number; pid: number; ca_file?: string }): void {
  try {
    writeWhole(path, `${JSON.stringify(ready)}\n`);
  } catch (err) {
    throw new ConfigError(`--ready-file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}: cannot write it`);
  }
}

/** What the banner says of HTTPS: the certificate, and (--tls) the CA a client trusts. */
function httpsLines(tls: TlsMaterial | undefined, certFile: string | undefined): string[] {
  if (!tls) return [];
  if (!tls.caFile) return [`  https:      certificate from ${certFile ?? ''}`];
  const made = tls.made === 'ca' ? 'a new local CA, made now' : tls.made === 'certificate' ? 'the local CA (certificate renewed now)' : 'the local CA';
  return [`  https:      certificate for localhost, 127.0.0.1 and ::1 from ${made}`, `  trust:      ${tls.caFile}  (Node: NODE_EXTRA_CA_CERTS=${tls.caFile}; other clients: docs/reference.md#https)`];
}

/** A failure to listen, said in one line with what to do about it. */
function listenFailure(err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `cannot listen on host ${host}`;
  switch (code) {
    case 'EADDRINUSE':
      return new ConfigError(`port ${port} is in use: choose another with --port, or --port 0 for a free one`);
    case 'EACCES':
      return new ConfigError(`port ${port} needs privileges this process lacks: choose one above 1023 with --port, or --port 0 for a free one`);
    case 'EADDRNOTAVAIL':
      return new ConfigError(`${where}: no interface of this machine has that address; use 127.0.0.1, 0.0.0.0 or one of its own addresses`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new ConfigError(`${where}: the name does not resolve; give an IP address such as 127.0.0.1 or 0.0.0.0`);
    default:
      return code === undefined ? err : new ConfigError(`${where}, port ${port}: ${(err as Error).message}`);
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof FixtureError || err instanceof TlsError) {
    process.stderr.write(`messaging-api-mock: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`messaging-api-mock: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
