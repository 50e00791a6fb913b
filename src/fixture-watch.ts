// --watch: fixture files reloaded when they change. The app a changed file seeds goes back to its
// new seed (Store.reloadFixture); a file that does not load keeps the last good state and says
// what is wrong (file, member, reason). Change events where the file system gives them, and a
// poll of the files' modification times besides, for file systems that give none (network and
// container mounts); either way a file is loaded again only when its text changed.

import { readdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { loadFixtureFile } from './fixtures/files.js';
import { FixtureError } from './fixtures/fixture-doc.js';
import type { Store } from './state/store.js';

/** Events of one save come in bursts (truncate, write, rename): one reload after they settle. */
const SETTLE_MS = 100;
/** How often modification times are looked at, for file systems that give no events. */
export const POLL_MS = 1000;

export interface Watching {
  close(): void;
}

const jsonFiles = (dir: string): string[] => {
  try {
    return readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
};

const mtimeOf = (path: string): number | undefined => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};

/** `events: false` leaves the change events aside, as a file system that gives none would (its tests). */
export function watchFixtures(dir: string, store: Store, say: (line: string) => void, complain: (line: string) => void, { events = true } = {}): Watching {
  const lastText = new Map<string, string>();
  const lastTime = new Map<string, number | undefined>();
  const read = (name: string): string | undefined => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      return undefined;
    }
  };
  for (const name of jsonFiles(dir)) {
    lastText.set(name, read(name) ?? '');
    lastTime.set(name, mtimeOf(join(dir, name)));
  }

  const reload = async (name: string): Promise<void> => {
    lastTime.set(name, mtimeOf(join(dir, name)));
    const text = read(name);
    if (text === undefined || text === lastText.get(name)) return;
    lastText.set(name, text);
    try {
      const { input, file } = loadFixtureFile(join(dir, name));
      const { app, dropped } = await store.reloadFixture(input);
      say(`fixtures: ${file} changed: app "${app.id}" is back to its new seed${dropped > 0 ? ` (${dropped} test app(s) of the old seed dropped)` : ''}`);
    } catch (err) {
      const why = err instanceof FixtureError ? err.message : (err as Error).message;
      complain(`fixtures: ${why} (the app keeps its last good state)`);
    }
  };

  const timers = new Map<string, NodeJS.Timeout>();
  const soon = (name: string) => {
    clearTimeout(timers.get(name));
    timers.set(
      name,
      setTimeout(() => {
        timers.delete(name);
        void reload(name);
      }, SETTLE_MS).unref(),
    );
  };

  let watcher: FSWatcher | undefined;
  try {
    if (events) {
      watcher = watch(dir, (_event, filename) => {
        if (filename?.endsWith('.json')) soon(filename);
      });
      watcher.on('error', () => watcher?.close());
    }
  } catch {
    // No events here: the poll below is enough.
  }
  const poll = setInterval(() => {
    for (const name of jsonFiles(dir)) if (mtimeOf(join(dir, name)) !== lastTime.get(name)) soon(name);
  }, POLL_MS).unref();
  return {
    close() {
      watcher?.close();
      clearInterval(poll);
      for (const t of timers.values()) clearTimeout(t);
    },
  };
}
