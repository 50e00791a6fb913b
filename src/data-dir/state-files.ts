// --data-dir: each app's state in a file of its own, loaded on start and written on shutdown, on
// POST /__admin/save and by --autosave. Writes are atomic (temporary file, fsync, rename, fsync of
// the directory), so a crash mid-write leaves the previous file whole.

import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../config.js';
import { parseFixture } from '../fixtures/validate.js';
import { COLLECTION_NAMES, type AppState, type StreamPosition } from '../state/app-state.js';
import { exportState } from '../fixtures/base.js';
import { jsonChunks } from '../core/json-chunks.js';
import { FixtureError, type FixtureDocument } from '../fixtures/fixture-doc.js';
import type { SaveReport, Store } from '../state/store.js';

export const STATE_FORMAT = 'messaging-api-mock/app-state';
export const STATE_VERSION = 1;

interface StateFile {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  app: string;
  /** The mock's clock when saved (Unix seconds). */
  saved_at: number;
  streams: StreamPosition;
  state: FixtureDocument;
}

const TEMPORARY = /\.json\.\d+\.tmp$/;

/**
 * The directory and its missing parents, made one at a time, so a refusal is an error: Node's
 * recursive mkdir retries forever where a parent exists but refuses children (`/proc/x`).
 */
export function makeDir(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (err) {
      // Made meanwhile by someone else: as good.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

export class DataDir {
  /** What each app looked like when last saved or loaded, so an unchanged app is not rewritten. */
  private readonly marks = new WeakMap<AppState, { data: object; print: string }>();

  constructor(
    readonly dir: string,
    private readonly store: Store,
  ) {}

  /**
   * Loads every saved app. A file the mock did not write, or cannot read back, stops the start
   * (FixtureError naming the file) before anything is written, so it is never overwritten.
   */
  load(): string[] {
    this.prepare();
    const loaded: string[] = [];
    for (const name of readdirSync(this.dir).sort()) {
      const path = join(this.dir, name);
      // What a crash left between writing and renaming: the previous file is still whole.
      if (TEMPORARY.test(name)) {
        rmSync(path, { force: true });
        continue;
      }
      if (name.startsWith('.')) continue;
      const file = this.readStateFile(path, name);
      if (file.app !== file.state.app.id) throw new FixtureError('app', `names app "${file.app}" but holds app "${file.state.app.id}"`, path);
      try {
        const app = this.store.loadSaved(parseFixture(file.state), file.streams);
        this.mark(app);
        loaded.push(app.id);
      } catch (err) {
        throw err instanceof FixtureError ? new FixtureError(`state.${err.path}`, err.problem, path) : err;
      }
    }
    return loaded;
  }

  /**
   * Makes the directory and checks it can be written now, so an unwritable one stops the start
   * (exit 2) instead of losing the session's data at shutdown.
   */
  prepare(): void {
    const fail = (what: string, err: unknown) =>
      new ConfigError(`--data-dir ${this.dir}: cannot ${what} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give one this user can create and write`);
    try {
      makeDir(this.dir);
    } catch (err) {
      throw fail('create the directory', err);
    }
    const probe = join(this.dir, `.write-check.${process.pid}.tmp`);
    try {
      writeFileSync(probe, '');
      rmSync(probe, { force: true });
    } catch (err) {
      throw fail('write in the directory', err);
    }
  }

  /** The save running now, if any: saves run one at a time. */
  private running: Promise<SaveReport> | undefined;

  get saving(): boolean {
    return this.running !== undefined;
  }

  /**
   * Writes every app that changed since it was loaded or last saved (all of them with `all`). Each
   * app's state is taken whole at once (records are never changed in place, so the file is the
   * state at that moment), then written in pieces with the event loop free between them: other
   * requests are served while a big app is written. A save asked for while one runs follows it.
   */
  save(all = false): Promise<SaveReport> {
    const previous = this.running ?? Promise.resolve(undefined);
    const run = previous.catch(() => undefined).then(() => this.saveNow(all));
    this.running = run;
    const done = () => {
      if (this.running === run) this.running = undefined;
    };
    run.then(done, done);
    return run;
  }

  private async saveNow(all: boolean): Promise<SaveReport> {
    makeDir(this.dir);
    const report: SaveReport = { dir: this.dir, saved: [], unchanged: [] };
    for (const id of this.store.appIds()) {
      const app = this.store.app(id);
      if (!app || app.provisioned) continue;
      if (!all && !this.changed(app)) {
        report.unchanged.push(id);
        continue;
      }
      const mark = { data: app.data, print: fingerprint(app) };
      const file: StateFile = { format: STATE_FORMAT, version: STATE_VERSION, app: id, saved_at: this.store.now(), streams: app.streams(), state: exportState(app) };
      await writeAtomically(join(this.dir, `${id}.json`), jsonChunks(file));
      // What was written, not what the app holds now: a write made meanwhile is saved next time.
      this.marks.set(app, mark);
      report.saved.push(id);
    }
    return report;
  }

  private readStateFile(path: string, name: string): StateFile {
    if (!name.endsWith('.json')) throw new FixtureError('', 'not a state file of this mock (only <app>.json files written by --data-dir belong in the directory)', path);
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new FixtureError('', `not valid JSON (${(err as Error).message}); the file was left as it is`, path);
    }
    const file = value as Partial<StateFile> | null;
    if (typeof file !== 'object' || file === null || file.format !== STATE_FORMAT) {
      throw new FixtureError('format', `not a state file of this mock (expected format "${STATE_FORMAT}"); the file was left as it is`, path);
    }
    if (file.version !== STATE_VERSION) throw new FixtureError('version', `state file version ${String(file.version)} is not ${STATE_VERSION}, the one this mock reads`, path);
    if (typeof file.app !== 'string' || typeof file.state !== 'object' || file.state === null || !validStreams(file.streams)) {
      throw new FixtureError('', 'a state file needs app, streams and state; the file was left as it is', path);
    }
    return file as StateFile;
  }

  private mark(app: AppState): void {
    this.marks.set(app, { data: app.data, print: fingerprint(app) });
  }

  private changed(app: AppState): boolean {
    const mark = this.marks.get(app);
    return mark === undefined || mark.data !== app.data || mark.print !== fingerprint(app);
  }
}

/** Every write bumps a collection's version; a reset or restore replaces `data` itself. */
function fingerprint(app: AppState): string {
  const versions = COLLECTION_NAMES.map((name) => app.data[name].version);
  return `${versions.join(',')}|${app.jobs.length}|${app.deliveries.version}|${JSON.stringify(app.streams())}`;
}

function validStreams(s: unknown): s is StreamPosition {
  const v = s as Partial<StreamPosition> | undefined;
  const state = (x: unknown) => Array.isArray(x) && x.length === 4 && x.every((n) => Number.isInteger(n) && n >= -0x80000000 && n <= 0xffffffff);
  const counter = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.counters === 'object' &&
    v.counters !== null &&
    counter(v.counters.object) &&
    counter(v.counters.numeric) &&
    counter(v.counters.job) &&
    state(v.random) &&
    state(v.requestIds) &&
    state(v.faults)
  );
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The pieces, then a newline, to a temporary file that is renamed into place once it is whole and synced. */
async function writeAtomically(path: string, pieces: Iterable<string>): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    for (const piece of pieces) {
      writeSync(fd, piece);
      await nextTurn();
    }
    writeSync(fd, '\n');
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(temporary, path);
  // The rename itself is durable only once the directory is synced.
  const dirFd = openSync(join(path, '..'), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
