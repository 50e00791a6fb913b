// The files the server reads beside its code: the default fixtures, the build's fixture cache, the
// console, the docs page's Swagger UI and package.json. From disk; or, in the single executable
// (build-binary.ts), from its embedded assets, where each sits under SHIPPED_ROOT at the path it
// has in the project (the executable's bundle gives every module an import.meta.url under it).

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { getAsset, isSea } from 'node:sea';

/** Whether this process is the single executable. */
export const EMBEDDED = isSea();

/** The project's root as the executable's modules see it: no such directory exists on disk. */
export const SHIPPED_ROOT = '/messaging-api-mock.embedded/';

/** The asset key naming every embedded file, by directory. */
export const MANIFEST_KEY = 'manifest.json';

let manifest: Record<string, string[]> | undefined;
const embeddedFiles = (): Record<string, string[]> => (manifest ??= JSON.parse(getAsset(MANIFEST_KEY, 'utf8')) as Record<string, string[]>);

/**
 * The asset key of a path under SHIPPED_ROOT in the executable (`a//b/` is `a/b`, as on disk);
 * undefined for a file on disk, and for the root itself, which holds no fixtures.
 */
export function assetKey(path: string, embedded = EMBEDDED): string | undefined {
  if (!embedded || !path.startsWith(SHIPPED_ROOT)) return undefined;
  const key = path.slice(SHIPPED_ROOT.length).replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return key === '' ? undefined : key;
}

const keyOf = (path: string): string | undefined => assetKey(path);

/** Whether the manifest lists `key` as a file. */
function listed(key: string): boolean {
  const slash = key.lastIndexOf('/');
  return embeddedFiles()[slash < 0 ? '' : key.slice(0, slash)]?.includes(key.slice(slash + 1)) ?? false;
}

function missing(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: 'ENOENT' });
}

export function readShipped(path: string): Buffer {
  const key = keyOf(path);
  if (key === undefined) return readFileSync(path);
  if (!listed(key)) throw missing(path);
  return Buffer.from(getAsset(key));
}

export const readShippedText = (path: string): string => readShipped(path).toString('utf8');

export function shippedExists(path: string): boolean {
  const key = keyOf(path);
  if (key === undefined) return existsSync(path);
  return Object.hasOwn(embeddedFiles(), key) || listed(key);
}

export function isShippedDirectory(path: string): boolean {
  const key = keyOf(path);
  return key === undefined ? statSync(path).isDirectory() : Object.hasOwn(embeddedFiles(), key);
}

export function listShipped(dir: string): string[] {
  const key = keyOf(dir);
  if (key === undefined) return readdirSync(dir);
  const names = embeddedFiles()[key];
  if (!names) throw missing(dir);
  return [...names];
}
