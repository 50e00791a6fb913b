// Collections declared as data: each room names the maps it keeps (`map<Customer>()`), the app's
// registry (state/collections.ts) puts the rooms' declarations together, and the engine makes, forks
// and hands the undo log to every declared map without knowing what any of them holds.

import { CowMap, type AnyCowMap, type MapKey } from './cow.js';
import { CowLog } from './cow-log.js';

/** One declared collection: a map by id (or name), or a log by place (`log`), whose overlay is an array. */
export interface Declared<V, K extends MapKey = string> {
  readonly kind: 'map' | 'log';
  /** Type only: what the collection holds and is keyed by. */
  readonly '~value': V;
  readonly '~key': K;
}

export const map = <V, K extends MapKey = string>(): Declared<V, K> => ({ kind: 'map' }) as Declared<V, K>;

/** A log kept by its places (numbers), oldest first: its overlay is an array (cow-log.ts). */
export const log = <V>(): Declared<V, number> => ({ kind: 'log' }) as Declared<V, number>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any declaration, whatever it holds
export type Declarations = Record<string, Declared<any, any>>;

/** The seeded, never-mutated maps a declaration describes. */
export type BaseOf<D extends Declarations> = { [N in keyof D]: ReadonlyMap<D[N]['~key'], D[N]['~value']> };

/** An app's copy-on-write maps over that base. */
export type LiveOf<D extends Declarations> = { [N in keyof D]: CowMap<D[N]['~value'], D[N]['~key']> };

/**
 * Each live set's maps as a list, made with the set (`liveOf` and `forkOf` are the only makers, and
 * a set's members are never replaced): every write request hands all of them the undo log and takes
 * it back, and reading them by name is a lookup per name each time.
 */
const mapLists = new WeakMap<object, readonly AnyCowMap[]>();

function liveSet<D extends Declarations>(declared: D, make: (name: keyof D & string) => AnyCowMap): LiveOf<D> {
  const out: Record<string, AnyCowMap> = {};
  const list: AnyCowMap[] = [];
  for (const name of Object.keys(declared)) list.push((out[name] = make(name)));
  mapLists.set(out, list);
  return out as LiveOf<D>;
}

/** Fresh overlays over the seeded maps: O(number of collections), whatever the base holds. */
export function liveOf<D extends Declarations>(declared: D, base: BaseOf<D>): LiveOf<D> {
  return liveSet(declared, (name) => {
    const seeded = base[name] as ReadonlyMap<MapKey, unknown>;
    // Stryker disable next-line OptionalChaining: equivalent, every name comes from the declarations
    return declared[name]?.kind === 'log' ? (CowLog.over(seeded as ReadonlyMap<number, unknown>) as AnyCowMap) : (CowMap.from(seeded) as AnyCowMap);
  });
}

/** Copies of each overlay over the same base: what a snapshot keeps and a restore starts from. */
export function forkOf<D extends Declarations>(declared: D, live: LiveOf<D>): LiveOf<D> {
  return liveSet(declared, (name) => (live[name] as AnyCowMap).fork());
}

export const mapsOf = (live: object): readonly AnyCowMap[] => mapLists.get(live) as readonly AnyCowMap[];
