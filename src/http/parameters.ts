// The query an API operation reads, assembled the same way for every route, so routes added later
// get the wire habits of real clients without a line of their own:
// - a DELETE without a body schema reads its identifiers from the query or from a JSON body
//   (PHP 1.5 sends `DELETE /users` with `{"email":…}`; Ruby and Python send `{}`);
// - a path parameter echoed in the query or the body (`GET /conversations/1?id=1`, the Node
//   client) is dropped when it says the same as the path, and refused when it contradicts it;
// - a query parameter the route does not declare is ignored, as the real API ignored it, and
//   reported as a warning (strict mode refuses it).

import type { ErrorItem } from '../core/errors.js';
import type { RequestWarnings } from '../core/warnings.js';
import type { Schema } from '../schemas/json-schema.js';

/** A JSON value as the query text it stands for, or undefined when it cannot be one. */
function asText(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

/** Defines an own member, so a `__proto__` name stays a member instead of reaching a prototype. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const invalid = (field: string, message: string): ErrorItem => ({ code: 'parameter_invalid', message, field });

/**
 * DELETE body members become query parameters. The same name in both must say the same thing:
 * two different values for one identifier would leave the record to delete a guess.
 */
export function mergeDeleteBody(query: Record<string, unknown>, body: Record<string, unknown>, problems: ErrorItem[]): void {
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (!Object.hasOwn(query, key)) {
      put(query, key, value);
      continue;
    }
    if (asText(value) !== query[key]) problems.push(invalid(key, `${key} is given twice with different values (query ${JSON.stringify(query[key])}, body ${JSON.stringify(value)}).`));
  }
}

/**
 * Path parameters echoed by name in the query or the body: dropped when equal to the path's value,
 * a problem when not (which of the two the client meant cannot be known).
 */
export function dropEchoes(params: Record<string, string>, query: Record<string, unknown>, body: Record<string, unknown> | undefined, problems: ErrorItem[]): void {
  for (const name in params) {
    const path = params[name] as string;
    dropEcho(name, path, 'query', query, problems);
    if (body !== undefined) dropEcho(name, path, 'body', body, problems);
  }
}

function dropEcho(name: string, path: string, where: string, members: Record<string, unknown>, problems: ErrorItem[]): void {
  if (!Object.hasOwn(members, name)) return;
  if (asText(members[name]) !== path) problems.push(invalid(name, `${name} in the ${where} (${JSON.stringify(members[name])}) differs from the path's ${name} (${JSON.stringify(path)}).`));
  // Reported once: the route's own validation does not see it again.
  delete members[name];
}

const NO_NAMES: ReadonlySet<string> = new Set();
const declaredNames = new WeakMap<Schema, ReadonlySet<string>>();

function declared(schema: Schema | undefined): ReadonlySet<string> {
  if (schema === undefined) return NO_NAMES;
  let names = declaredNames.get(schema);
  if (!names) {
    names = new Set(Object.keys(schema.properties ?? {}));
    declaredNames.set(schema, names);
  }
  return names;
}

/**
 * Query parameters the route does not declare, removed from `query` and reported as warnings, so
 * the route's own validation only sees what it knows (the real API ignored them).
 */
export function ignoreUndeclared(schema: Schema | undefined, query: Record<string, unknown>, warnings: RequestWarnings): void {
  const names = declared(schema);
  for (const key of Object.keys(query)) {
    if (names.has(key)) continue;
    delete query[key];
    const shown = key.length > 100 ? `${key.slice(0, 100)}…` : key;
    const supported = names.size === 0 ? 'it takes none' : `it takes ${[...names].join(', ')}`;
    warnings.add('unknown_parameter', `${shown} is not a query parameter of this operation (${supported}).`, shown);
  }
}
