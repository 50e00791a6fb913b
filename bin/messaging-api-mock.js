#!/usr/bin/env node
// Runs the compiled entry (`npm start` and the package's bin both come here). `npm install`
// builds dist/ through the prepare script; without it, say so in one line instead of a stack.
import { existsSync } from 'node:fs';
import process from 'node:process';

const entry = new globalThis.URL('../dist/cli/index.js', import.meta.url);
if (existsSync(entry)) {
  await import(entry.href);
} else {
  process.stderr.write('messaging-api-mock: dist/ is missing: run npm install (or npm run build) first\n');
  process.exitCode = 1;
}
