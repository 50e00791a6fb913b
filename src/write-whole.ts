// A small file written whole or not at all: to a temporary name beside it, then renamed, so a
// reader never sees half of it; the temporary file goes if the write fails. (--data-dir's saves
// also fsync, in data-dir/state-files.ts.)

import { renameSync, rmSync, writeFileSync } from 'node:fs';

let written = 0;

/** `mode` applies to a new file (0o600: readable by its owner only). */
export function writeWhole(path: string, text: string, mode = 0o644): void {
  // The pid and a count: two processes (two containers sharing a directory may both be pid 1,
  // hence the count too) never share a temporary name.
  const temporary = `${path}.${process.pid}.${written++}.tmp`;
  try {
    writeFileSync(temporary, text, { mode });
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}
