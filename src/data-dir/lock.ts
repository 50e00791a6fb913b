// One process per --data-dir: two processes writing one directory would overwrite each other's
// saves, and the second would delete the first's temporary files on start. The lock is
// proper-lockfile's: a `.lock` directory made atomically (mkdir) whose modification time its holder
// refreshes every few seconds; one not refreshed for LOCK_STALE_MS is stale and is taken over. That
// works across containers sharing the directory through the file system alone, as long as their
// clocks agree within a few seconds (proper-lockfile compares the lock's modification time with
// the local clock). On one host a lock whose process is gone is taken over at once, from the owner
// file beside it. A process that loses its lock (another took it as stale) stops saving.

import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { ConfigError } from '../config.js';

/**
 * A lock not refreshed for this long belongs to a process that is gone (or cannot reach the
 * directory). Long enough that loading a big saved state, which holds the event loop, does not let
 * the refresh fall behind it.
 */
export const LOCK_STALE_MS = 30_000;

export interface DirLock {
  /** Whether another process took the lock from this one: it must not write the directory any more. */
  lost(): boolean;
  release(): void;
}

interface Owner {
  pid: number;
  host: string;
}

function ownerOf(path: string): Owner | undefined {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<Owner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? { pid: owner.pid, host: owner.host } : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How long ago the lock was refreshed, for the takeover's line: by the file system's clock (a file touched now). */
function ageOf(path: string, dir: string): number | undefined {
  let refreshed: number;
  try {
    refreshed = statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
  const probe = join(dir, `.lock-clock.${process.pid}.tmp`);
  try {
    writeFileSync(probe, '');
    return statSync(probe).mtimeMs - refreshed;
  } catch {
    return undefined;
  } finally {
    rmSync(probe, { force: true });
  }
}

/** Takes the directory's lock, or throws a ConfigError (exit 2) naming who holds it. */
export function lockDataDir(dir: string, say: (line: string) => void): DirLock {
  const lockPath = join(dir, '.lock');
  const ownerPath = join(dir, '.lock-owner.json');
  let lost = false;
  const take = () =>
    lockfile.lockSync(dir, {
      lockfilePath: lockPath,
      realpath: false,
      stale: LOCK_STALE_MS,
      update: LOCK_STALE_MS / 3,
      // Another process took it as stale (this one was frozen, or the disk went away): say so, and stop writing.
      onCompromised: (err) => {
        lost = true;
        say(`--data-dir ${dir}: this process lost the directory's lock (${err.message}); it saves nothing more: restart it to take the lock again`);
      },
    });
  const inUse = (owner: Owner | undefined) =>
    new ConfigError(`--data-dir ${dir} is in use by ${owner === undefined ? 'another process' : `process ${owner.pid} on ${owner.host}`} (lock ${lockPath}): stop it, or give each process its own directory`);
  const age = ageOf(lockPath, dir);
  let release: () => void;
  try {
    release = take();
    if (age !== undefined && age > LOCK_STALE_MS) say(`--data-dir ${dir}: took over a stale lock (not refreshed for ${Math.round(age / 1000)} s: its process is gone)`);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ELOCKED') throw new ConfigError(`--data-dir ${dir}: cannot lock it (${code ?? (err as Error).message}); give a directory this user can write`);
    const owner = ownerOf(ownerPath);
    if (owner === undefined || owner.host !== hostname() || alive(owner.pid)) throw inUse(owner);
    // Read again just before removing: a process that took the lock meanwhile has written its own owner.
    const again = ownerOf(ownerPath);
    if (again?.pid !== owner.pid || again.host !== owner.host) throw inUse(again);
    rmSync(lockPath, { recursive: true, force: true });
    try {
      release = take();
    } catch {
      // Another process starting at the same moment took it first.
      throw inUse(ownerOf(ownerPath));
    }
    say(`--data-dir ${dir}: took over the lock of process ${owner.pid}, which is gone`);
  }
  writeFileSync(ownerPath, `${JSON.stringify({ pid: process.pid, host: hostname() })}\n`);
  return {
    lost: () => lost,
    release() {
      rmSync(ownerPath, { force: true });
      try {
        release();
      } catch {
        // Already released or taken over: nothing of ours to remove.
      }
    },
  };
}
