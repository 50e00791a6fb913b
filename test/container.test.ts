// The container image (npm run build:image), built with podman from a base it makes itself and
// started as docs/distribution.md says: its port published on the host's loopback, it answers the
// API through it; the Host check answers loopback and the service names the image allows and
// refuses another; `podman stop` drains it and it exits 0. Skipped, saying why, where podman cannot
// run a container at all (no podman, or a runtime the machine does not allow).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './real.js';

const podman = (args: string[]) => execFileSync('podman', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Options this machine's podman needs to start a container (docs/distribution.md says when). */
const RUN_OPTIONS = (() => {
  const options = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'];
  try {
    execFileSync('sh', ['-c', 'command -v runc'], { stdio: 'ignore' });
    return { global: ['--runtime', 'runc'], run: options };
  } catch {
    return { global: [], run: options };
  }
})();

const PROBE = `localhost/messaging-api-mock-probe:${process.pid}`;

/** Why podman cannot run a container here, or undefined when it can (a trivial image of our own). */
function unavailable(): string | undefined {
  try {
    podman(['--version']);
  } catch {
    return 'podman is not installed';
  }
  const dir = mkdtempSync(join(tmpdir(), 'mock-probe-'));
  try {
    execFileSync('sh', ['-c', `mkdir "${dir}/root" && cp /bin/true "${dir}/root/true" && cp --parents $(ldd /bin/true | grep -o '/[^ ]*') "${dir}/root/"`]);
    writeFileSync(join(dir, 'Containerfile'), 'FROM scratch\nCOPY root/ /\nENTRYPOINT ["/true"]\n');
    podman(['build', '--quiet', '--tag', PROBE, '--file', join(dir, 'Containerfile'), dir]);
    podman([...RUN_OPTIONS.global, 'run', '--rm', ...RUN_OPTIONS.run, PROBE]);
    return undefined;
  } catch (err) {
    return `podman cannot run a container here: ${String((err as { stderr?: string }).stderr ?? err).trim().split('\n').at(-1)}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    try {
      podman(['rmi', '--force', PROBE]);
    } catch {
      // Not built.
    }
  }
}

const why = process.env.MUTATION_RUN === '1' ? 'mutation run' : unavailable();
if (why) process.stderr.write(`container test skipped: ${why}\n`);

describe.skipIf(why !== undefined)('the container image', () => {
  const tag = `localhost/messaging-api-mock-test:${process.pid}`;
  const root = mkdtempSync(join(tmpdir(), 'mock-container-'));
  let container = '';
  let url = '';

  beforeAll(async () => {
    const { buildBinary } = await import('../dist/src/build-binary.js');
    const { buildImage } = await import('../dist/src/build-image.js');
    const binary = await buildBinary(join(root, 'binary'));
    buildImage(tag, binary.path);
    container = podman([...RUN_OPTIONS.global, 'run', '--detach', ...RUN_OPTIONS.run, '--publish', '127.0.0.1::4010', tag, '--now', '1700000000']);
    const published = podman([...RUN_OPTIONS.global, 'port', container, '4010/tcp']);
    url = `http://${published}`;
    await waitFor(async () => (await fetch(`${url}/__admin/health`).then((r) => r.status).catch(() => 0)) === 200 || undefined, 30_000);
  }, 180_000);

  afterAll(() => {
    if (container) podman([...RUN_OPTIONS.global, 'rm', '--force', container]);
    podman(['rmi', '--force', tag]);
    rmSync(root, { recursive: true, force: true });
  });

  it('answers the API through the published port, as an unprivileged user', async () => {
    const res = await fetch(`${url}/admins`, { headers: { authorization: 'Bearer demo-token', accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { type: string }).type).toBe('admin.list');
    expect(podman([...RUN_OPTIONS.global, 'exec', container, '/messaging-api-mock', '--version'])).toMatch(/^\d+\.\d+\.\d+$/);
    expect(podman([...RUN_OPTIONS.global, 'inspect', '--format', '{{.Config.User}}', container])).toBe('10001:10001');
  });

  it('answers the service names the image allows, and refuses another Host', async () => {
    const { request } = await import('node:http');
    const hostGet = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const target = new URL(url);
        const req = request({ host: target.hostname, port: target.port, path: '/admins', headers: { host, authorization: 'Bearer demo-token' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await hostGet('mock:4010')).toBe(200);
    expect(await hostGet('messaging-api-mock')).toBe(200);
    expect(await hostGet('localhost:4010')).toBe(200);
    expect(await hostGet('rebound.example')).toBe(421);
  });

  it('drains and exits 0 on podman stop', () => {
    podman([...RUN_OPTIONS.global, 'stop', '--time', '10', container]);
    expect(podman([...RUN_OPTIONS.global, 'inspect', '--format', '{{.State.ExitCode}}', container])).toBe('0');
    expect(podman([...RUN_OPTIONS.global, 'logs', container])).toMatch(/SIGTERM: shutting down/);
  }, 30_000);
});
