// Builds a container image of the single executable with podman, from a base it makes itself: an
// empty image (FROM scratch) holding the executable, the shared libraries it links (found with
// ldd on the build machine), a passwd entry for an unprivileged user and /tmp. No image registry
// is needed. `npm run build:image` after `npm run build:binary`; Linux only (ldd, podman).

import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BINARY_DIR, BINARY_NAME } from './build-binary.js';

export const IMAGE = 'localhost/messaging-api-mock:latest';

/**
 * What the image runs. Inside a container the mock must listen beyond loopback for a published
 * port to reach it (--host 0.0.0.0); the Host check then answers loopback names (a port published
 * on the host's 127.0.0.1) and the service names below (compose, a CI job's service container);
 * another name is added with one more --allowed-hosts after the image name. Webhooks stay
 * undelivered (the default beyond loopback) until --webhook-hosts any says where they may go.
 */
export const ENTRYPOINT = ['/messaging-api-mock', '--host', '0.0.0.0', '--allowed-hosts', 'mock,messaging-api-mock'];

export const CONTAINERFILE = `FROM scratch
COPY rootfs/ /
USER 10001:10001
ENV HOME=/tmp
EXPOSE 4010
ENTRYPOINT ${JSON.stringify(ENTRYPOINT)}
`;

/** The libraries `ldd` says the executable loads, as absolute paths. */
function sharedLibraries(binary: string): string[] {
  const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
  return [...out.matchAll(/(\/[^\s)]+)/g)].map((m) => m[1] as string);
}

/** The build context: the Containerfile and rootfs/ (executable, libraries, passwd, /tmp). */
export function imageContext(binary = join(BINARY_DIR, BINARY_NAME), dir = mkdtempSync(join(tmpdir(), 'mock-image-'))): string {
  const rootfs = join(dir, 'rootfs');
  for (const sub of ['etc', 'tmp']) mkdirSync(join(rootfs, sub), { recursive: true });
  chmodSync(join(rootfs, 'tmp'), 0o1777);
  copyFileSync(binary, join(rootfs, 'messaging-api-mock'));
  chmodSync(join(rootfs, 'messaging-api-mock'), 0o755);
  for (const lib of sharedLibraries(binary)) {
    mkdirSync(join(rootfs, dirname(lib)), { recursive: true });
    copyFileSync(realpathSync(lib), join(rootfs, lib));
  }
  writeFileSync(join(rootfs, 'etc', 'passwd'), 'root:x:0:0::/:/sbin/nologin\nmock:x:10001:10001::/tmp:/sbin/nologin\n');
  writeFileSync(join(rootfs, 'etc', 'group'), 'root:x:0:\nmock:x:10001:\n');
  writeFileSync(join(dir, 'Containerfile'), CONTAINERFILE);
  return dir;
}

export function buildImage(tag = IMAGE, binary?: string): string {
  const context = imageContext(binary);
  try {
    execFileSync('podman', ['build', '--quiet', '--tag', tag, '--file', join(context, 'Containerfile'), context], { stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  return tag;
}

// Run as a script (npm run build:image), not imported (the test builds an image of its own).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  process.stdout.write(`built ${buildImage()}\n`);
}
