// The package's own version, for --version: read from package.json, which sits one level above
// src/ when run from source and two above dist/src/ when built or installed.

import { existsSync, readFileSync } from 'node:fs';

export function packageVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    const url = new URL(rel, import.meta.url);
    if (!existsSync(url)) continue;
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'messaging-api-mock' && pkg.version) return pkg.version;
  }
  return 'unknown';
}
