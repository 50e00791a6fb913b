// Debian's Chromium through playwright-core, for the tests that need a real browser; skipped with
// a message where none is installed.

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

export function warnIfMissing(what: string): void {
  if (!chromiumAvailable) {
    console.warn(`[${what}] skipped: no Chromium at ${CHROMIUM}. Install Debian's "chromium" package (.ci/run does) or set CHROMIUM_PATH.`);
  }
}

export const launchChromium = (extraArgs: readonly string[] = []): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
