// HTTPS on the real command, checked by clients that verify the certificate: Node's https (and
// tls for a raw connection), curl, Python's ssl and Java's HttpClient where the machine has them.
// --tls makes a local CA once and keeps it (a restart serves the same CA and certificate);
// --tls-cert/--tls-key serve the files given; a bad file stops the start with one line.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localTls, RENEW_BEFORE_MS } from '../src/tls/credentials.js';
import { BUILT, listeningUrl, spawnLogged, waitFor, type Spawned } from './real.js';

const root = mkdtempSync(join(tmpdir(), 'mock-tls-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const has = (command: string, args: string[]) => {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const HAS_CURL = has('curl', ['--version']);
const HAS_PYTHON = has('python3', ['--version']);
const HAS_JAVA = has('java', ['-version']) && has('keytool', ['-help']);

function start(args: string[], dataHome: string): Spawned {
  return spawnLogged(process.execPath, [...BUILT, '--port', '0', ...args], { ...process.env, XDG_DATA_HOME: dataHome });
}

async function stop(cli: Spawned): Promise<void> {
  cli.child.kill('SIGTERM');
  expect(await cli.exited).toBe(0);
}

/** GET over HTTPS, verifying the certificate against `ca` (none: the system's roots only). */
function get(url: string, ca: string | undefined, token = 'demo-token'): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, ...(ca ? { ca } : {}) }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(process.env.MUTATION_RUN === '1')('HTTPS', () => {
  it('--tls: a local CA made once, its certificate verified by Node, curl, Python and Java, the same after a restart', async () => {
    const home = join(root, 'home');
    const ready = join(root, 'ready.json');
    const cli = start(['--tls', '--ready-file', ready], home);
    const dir = join(home, 'messaging-api-mock', 'tls');
    const caFile = join(dir, 'ca.pem');
    let url: string;
    try {
      url = await listeningUrl(cli);
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const out = cli.output().stdout;
      expect(out).toContain('  https:      certificate for localhost, 127.0.0.1 and ::1 from a new local CA, made now\n');
      expect(out).toContain(`  trust:      ${caFile}  (Node: NODE_EXTRA_CA_CERTS=${caFile}; other clients: docs/reference.md#https)\n`);
      expect(JSON.parse(readFileSync(ready, 'utf8'))).toEqual({ url, port: Number(new URL(url).port), pid: cli.child.pid, ca_file: caFile });
      const ca = readFileSync(caFile, 'utf8');
      const admins = await get(`${url}/admins`, ca);
      expect(admins.status).toBe(200);
      expect(admins.body.type).toBe('admin.list');
      // The certificate names localhost too; links the mock writes say https.
      const byName = url.replace('127.0.0.1', 'localhost');
      const home200 = await get(`${byName}/`, ca);
      expect(home200.body.docs).toBe(`${byName}/docs`);
      // Verification is on: without the CA the client refuses.
      await expect(get(`${url}/admins`, undefined)).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
      if (HAS_CURL) {
        const curled = execFileSync('curl', ['-sS', '--cacert', caFile, '-H', 'Authorization: Bearer demo-token', `${byName}/admins`], { encoding: 'utf8' });
        expect(JSON.parse(curled).type).toBe('admin.list');
      }
      if (HAS_PYTHON) {
        const script = `import json, ssl, sys, urllib.request
req = urllib.request.Request(sys.argv[1] + '/admins', headers={'Authorization': 'Bearer demo-token', 'Accept': 'application/json'})
print(json.load(urllib.request.urlopen(req, context=ssl.create_default_context(cafile=sys.argv[2])))['type'])`;
        expect(execFileSync('python3', ['-c', script, byName, caFile], { encoding: 'utf8' }).trim()).toBe('admin.list');
      }
      if (HAS_JAVA) {
        // As docs/reference.md tells a Java team: the CA into a trust store, named on the command line.
        const store = join(root, 'mock-truststore.p12');
        execFileSync('keytool', ['-importcert', '-noprompt', '-alias', 'messaging-api-mock', '-file', caFile, '-keystore', store, '-storetype', 'PKCS12', '-storepass', 'changeit'], { stdio: 'ignore' });
        const source = join(root, 'Get.java');
        writeFileSync(
          source,
          `public class Get { public static void main(String[] a) throws Exception {
  var client = java.net.http.HttpClient.newHttpClient();
  var req = java.net.http.HttpRequest.newBuilder(java.net.URI.create(a[0] + "/admins")).header("Authorization", "Bearer demo-token").build();
  var res = client.send(req, java.net.http.HttpResponse.BodyHandlers.ofString());
  System.out.println(res.statusCode() + " " + res.body().substring(0, 20)); } }`,
        );
        const java = execFileSync('java', [`-Djavax.net.ssl.trustStore=${store}`, '-Djavax.net.ssl.trustStorePassword=changeit', source, byName], { encoding: 'utf8' });
        expect(java.trim()).toBe('200 {"type":"admin.list"');
      }
    } finally {
      await stop(cli);
    }
    const files = ['ca.pem', 'ca-key.pem', 'localhost.pem', 'localhost-key.pem'].map((f) => readFileSync(join(dir, f), 'utf8'));
    const again = start(['--tls'], home);
    try {
      const url2 = await listeningUrl(again);
      expect(again.output().stdout).toContain('  https:      certificate for localhost, 127.0.0.1 and ::1 from the local CA\n');
      expect((await get(`${url2}/admins`, files[0])).status).toBe(200);
      expect(['ca.pem', 'ca-key.pem', 'localhost.pem', 'localhost-key.pem'].map((f) => readFileSync(join(dir, f), 'utf8'))).toEqual(files);
    } finally {
      await stop(again);
    }
  }, 60_000);

  it('--tls-cert and --tls-key serve the files given; with --data-dir, --tls keeps its CA there', async () => {
    const made = await localTls(join(root, 'made'));
    const certFile = join(root, 'made', 'localhost.pem');
    const keyFile = join(root, 'made', 'localhost-key.pem');
    const cli = start(['--tls-cert', certFile, '--tls-key', keyFile], join(root, 'unused'));
    try {
      const url = await listeningUrl(cli);
      expect(cli.output().stdout).toContain(`  https:      certificate from ${certFile}\n`);
      expect(cli.output().stdout).not.toContain('trust:');
      expect((await get(`${url}/admins`, readFileSync(made.caFile as string, 'utf8'))).status).toBe(200);
    } finally {
      await stop(cli);
    }
    const data = join(root, 'data');
    const kept = start(['--tls', '--data-dir', data], join(root, 'unused'));
    try {
      const url = await listeningUrl(kept);
      expect((await get(`${url}/admins`, readFileSync(join(data, 'tls', 'ca.pem'), 'utf8'))).status).toBe(200);
    } finally {
      await stop(kept);
    }
  }, 60_000);

  it('answers a connection past --max-connections 503 over TLS, after the handshake', async () => {
    const home = join(root, 'capped');
    const cli = start(['--tls', '--max-connections', '1'], home);
    try {
      const url = new URL(await listeningUrl(cli));
      const ca = readFileSync(join(home, 'messaging-api-mock', 'tls', 'ca.pem'), 'utf8');
      const open = () =>
        new Promise<ReturnType<typeof connect>>((resolve, reject) => {
          const socket = connect({ host: url.hostname, port: Number(url.port), ca, servername: 'localhost' }, () => resolve(socket));
          socket.on('error', reject);
        });
      const first = await open();
      const second = await open();
      let said = '';
      second.on('data', (d) => (said += d));
      await waitFor(() => (said.includes('\r\n\r\n{') && said.endsWith('}') ? true : undefined));
      expect(said).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
      expect(said).toContain('retry-after: 1');
      expect(JSON.parse(said.slice(said.indexOf('\r\n\r\n') + 4)).errors[0].code).toBe('service_unavailable');
      first.destroy();
      second.destroy();
    } finally {
      await stop(cli);
    }
  }, 30_000);

  it('gives two processes starting together on a fresh directory one CA, which both certificates chain to', async () => {
    const home = join(root, 'together');
    const [a, b] = [start(['--tls'], home), start(['--tls'], home)];
    try {
      const urls = await Promise.all([listeningUrl(a), listeningUrl(b)]);
      const ca = readFileSync(join(home, 'messaging-api-mock', 'tls', 'ca.pem'), 'utf8');
      for (const url of urls) expect((await get(`${url}/admins`, ca)).status).toBe(200);
      // One of them made the CA; the other found it made.
      const said = [a, b].map((cli) => /from (a new local CA, made now|the local CA)\n/.exec(cli.output().stdout)?.[1]).sort();
      expect(said).toEqual(['a new local CA, made now', 'the local CA']);
    } finally {
      await Promise.all([stop(a), stop(b)]);
    }
  }, 30_000);

  it('stops at once on SIGTERM while a client has connected but not shaken hands', async () => {
    const home = join(root, 'shaking');
    const cli = start(['--tls', '--shutdown-grace', '0'], home);
    const url = new URL(await listeningUrl(cli));
    const { connect: connectTcp } = await import('node:net');
    const silent = connectTcp(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => silent.once('connect', () => resolve()));
    const closed = new Promise<void>((resolve) => silent.once('close', () => resolve()));
    silent.on('error', () => undefined);
    cli.child.kill('SIGTERM');
    // Well before the handshake's own timeout (10 s), which alone used to end it.
    await closed;
    expect(await cli.exited).toBe(0);
  }, 8_000);

  it('stops the start with one line for a missing, mismatched or half-given certificate', async () => {
    await localTls(join(root, 'bad'));
    const certFile = join(root, 'bad', 'localhost.pem');
    const cases: [string[], RegExp][] = [
      [['--tls-cert', certFile], /^messaging-api-mock: --tls-cert and --tls-key go together: give both\n$/],
      [['--tls-cert', join(root, 'none.pem'), '--tls-key', certFile], /^messaging-api-mock: --tls-cert .*none\.pem: no such file\n$/],
      [['--tls-cert', certFile, '--tls-key', join(root, 'bad', 'ca-key.pem')], /^messaging-api-mock: --tls-key .*ca-key\.pem is not the key of the certificate in .*localhost\.pem\n$/],
      [['--tls-cert', join(root, 'bad', 'localhost-key.pem'), '--tls-key', certFile], /^messaging-api-mock: --tls-cert .*localhost-key\.pem: not a PEM certificate\n$/],
      [['--tls', '--tls-cert', certFile, '--tls-key', certFile], /^messaging-api-mock: --tls makes its own certificate: give it, or --tls-cert and --tls-key, not both\n$/],
    ];
    for (const [args, line] of cases) {
      const cli = start(args, join(root, 'unused'));
      expect(await cli.exited).toBe(2);
      expect(cli.output().stderr).toMatch(line);
      expect(cli.output().stdout).toBe('');
    }
    // The CA's directory cannot be made: a file stands where it would go.
    const blocked = start(['--tls'], certFile);
    expect(await blocked.exited).toBe(2);
    expect(blocked.output().stderr).toMatch(/^messaging-api-mock: --tls: cannot keep the local CA in .*localhost\.pem\/messaging-api-mock\/tls: ENOTDIR\n$/);
  }, 60_000);
});

describe('the local CA', () => {
  const DAY = 24 * 3600 * 1000;
  it('keeps the CA and its certificate while they are valid, renews the certificate near its end, and the CA near its own', async () => {
    const dir = join(root, 'renew');
    const t0 = Date.UTC(2026, 0, 1);
    const first = await localTls(dir, t0);
    expect(first.made).toBe('ca');
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    const ca = read('ca.pem');
    expect((await localTls(dir, t0 + 100 * DAY)).made).toBe('nothing');
    expect(read('ca.pem')).toBe(ca);
    // The certificate runs a year: within RENEW_BEFORE_MS of its end it is made again, from the same CA.
    const late = t0 + 365 * DAY - RENEW_BEFORE_MS + DAY;
    const renewed = await localTls(dir, late);
    expect(renewed.made).toBe('certificate');
    expect(read('ca.pem')).toBe(ca);
    expect(renewed.cert).not.toBe(first.cert);
    // The CA runs ten years.
    const remade = await localTls(dir, t0 + 10 * 365 * DAY - RENEW_BEFORE_MS + DAY);
    expect(remade.made).toBe('ca');
    expect(read('ca.pem')).not.toBe(ca);
  });

  it('makes them again when a file is damaged or the key does not match', async () => {
    const dir = join(root, 'damaged');
    await localTls(dir);
    writeFileSync(join(dir, 'localhost-key.pem'), readFileSync(join(dir, 'ca-key.pem')));
    expect((await localTls(dir)).made).toBe('certificate');
    writeFileSync(join(dir, 'ca.pem'), 'not a certificate');
    expect((await localTls(dir)).made).toBe('ca');
  });
});
