// The package's own version, for --version: read from package.json, which sits one level above
// src/ when run from source and two above dist/src/ when built or installed.

import { fileURLToPath } from 'node:url';
import { readShippedText, shippedExists } from './shipped.js';

export function packageVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (!shippedExists(path)) continue;
    const pkg = JSON.parse(readShippedText(path)) as { name?: string; version?: string };
    if (pkg.name === 'messaging-api-mock' && pkg.version) return pkg.version;
  }
  return 'unknown';
}
