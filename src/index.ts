// Process entry: read the configuration, build the store, listen. Nothing else lives here.

import { createApp } from './app.js';
import { ConfigError, parseConfig, USAGE } from './config.js';
import { Clock } from './core/clock.js';
import { listen } from './server.js';
import { createStore } from './setup.js';
import { FixtureError } from './store/fixture-doc.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** Binding beyond loopback exposes the control plane (reset, seed, state) to the network. */
function exposureWarning(host: string, protectedByToken: boolean): string[] {
  if (LOOPBACK.test(host)) return [];
  return protectedByToken
    ? [`  note:       listening on ${host}, beyond loopback; /__admin requires X-Admin-Token`]
    : [`  WARNING:    listening on ${host}, beyond loopback: the control plane /__admin (reset, seed, state) is open to anyone who can reach it; start with --admin-token to protect it`];
}

async function main(): Promise<void> {
  const config = parseConfig(process.argv.slice(2), process.env);
  if (config === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const clock = config.now === undefined ? new Clock() : new Clock({ start: config.now, frozen: true });
  const store = createStore({
    seed: config.seed,
    clock,
    jobDelaySeconds: config.jobDelaySeconds,
    fixturesDir: config.fixturesDir,
    rateLimit: config.rateLimit,
    testApps: config.testApps,
    maxTestApps: config.maxTestApps,
    testAppIdleSeconds: config.testAppIdleSeconds,
    journalSize: config.journalSize,
    journalBytes: config.journalBytes,
    limits: { customers: config.maxCustomers, companies: config.maxCompanies, parts: config.maxParts },
  });
  const app = createApp({ store, bodyLimit: config.bodyLimit, ...(config.adminToken ? { adminToken: config.adminToken } : {}) });
  const server = await listen(app, config.port, config.host, { requestId: () => store.nextRequestId() });
  const demo = store.app('demo') ?? store.app(store.appIds()[0] ?? '');
  process.stdout.write(
    [
      `messaging-api-mock listening on ${server.url}`,
      `  docs:       ${server.url}/docs`,
      `  demo token: ${demo?.config.tokens[0] ?? '(none)'}  (app "${demo?.id ?? ''}", seed ${config.seed})`,
      `  try:        curl -H 'Authorization: Bearer ${demo?.config.tokens[0] ?? ''}' ${server.url}/admins`,
      ...exposureWarning(config.host, config.adminToken !== undefined),
      '',
    ].join('\n'),
  );
  const stop = (signal: string) => {
    process.stdout.write(`\n${signal}: shutting down\n`);
    server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof FixtureError) {
    process.stderr.write(`messaging-api-mock: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`messaging-api-mock: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
