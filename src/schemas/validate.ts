// Validation against our own JSON Schemas with ajv (2020-12, the dialect of OpenAPI 3.1).
// Compiling the fixture schema alone takes ~150 ms, so `npm run build` precompiles every schema the
// mock validates with (src/build-validators.ts) into dist/, keyed by a hash of the schema's JSON.
// A schema with no precompiled match (running from source, or a schema changed since the build)
// is compiled here on first use; both are ajv's code for the same schema, so they agree.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import type { Schema } from './json-schema.js';
import { booleanText } from '../core/query-string.js';

export interface Problem {
  /** Dotted path of the member, e.g. `customers[3].email`; empty for the document itself. */
  path: string;
  /** `missing` when a required member is absent, `invalid` otherwise. */
  kind: 'missing' | 'invalid';
  message: string;
  /** Where a lenient reader may repair it: a member no schema lists, or a value of another type. */
  fix?: Fix;
}

/** A problem a lenient reader can repair in place (http/leniency.ts). */
export interface Fix {
  kind: 'unknown' | 'type';
  /** The member's keys from the document's root. */
  pointer: string[];
  /** For `type`: the types the schema allows, e.g. `string` or `integer,null`. */
  expected?: string;
}

export const AJV_OPTIONS: Options = { allErrors: true, strict: false, validateFormats: false, strictNumbers: true };
export const COERCING_OPTIONS: Options = { ...AJV_OPTIONS, coerceTypes: true };
export const PRECOMPILED_FILES = { plain: 'validators.plain.cjs', coercing: 'validators.coercing.cjs' } as const;

/** The export name of a schema's precompiled validator: a hash of its JSON. */
export function validatorKey(schema: Schema): string {
  return `v_${createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 32)}`;
}

const requireHere = createRequire(import.meta.url);

function precompiled(file: string): Record<string, ValidateFunction> {
  try {
    return requireHere(`./${file}`) as Record<string, ValidateFunction>;
  } catch {
    return {};
  }
}

/** ajv itself (~45 ms to load) only when a schema has to be compiled here. */
function newAjv(options: Options): Ajv2020 {
  const { Ajv2020: Ajv } = requireHere('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  return new Ajv(options);
}

let ajv: Ajv2020 | undefined;
let coercing: Ajv2020 | undefined;
let built: { plain: Record<string, ValidateFunction>; coercing: Record<string, ValidateFunction> } | undefined;
const compiled = new WeakMap<Schema, ValidateFunction>();
const compiledCoercing = new WeakMap<Schema, ValidateFunction>();

function compile(schema: Schema, coerce: boolean): ValidateFunction {
  const cache = coerce ? compiledCoercing : compiled;
  let fn = cache.get(schema);
  if (!fn) {
    built ??= { plain: precompiled(PRECOMPILED_FILES.plain), coercing: precompiled(PRECOMPILED_FILES.coercing) };
    fn = (coerce ? built.coercing : built.plain)[validatorKey(schema)];
    if (!fn) {
      const instance = coerce ? (coercing ??= newAjv(COERCING_OPTIONS)) : (ajv ??= newAjv(AJV_OPTIONS));
      fn = instance.compile(schema);
    }
    cache.set(schema, fn);
  }
  return fn;
}

/** A JSON pointer's keys, unescaped. */
function pathOf(instancePath: string): string {
  return segments(instancePath).reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

const join = (a: string, b: string): string => (a ? `${a}.${b}` : b);

const unknownMember = (path: string, pointer?: string[]): Problem => ({
  path,
  kind: 'invalid',
  message: `${path} is not a recognised member.`,
  ...(pointer ? { fix: { kind: 'unknown' as const, pointer } } : {}),
});

const segments = (instancePath: string): string[] =>
  instancePath === '' ? [] : instancePath.split('/').slice(1).map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'));

/** Inside anyOf/oneOf a branch's complaint need not be the one to repair. */
const inBranch = (e: ErrorObject): boolean => e.schemaPath.includes('/anyOf/') || e.schemaPath.includes('/oneOf/');

function describe(e: ErrorObject): Problem {
  const at = pathOf(e.instancePath);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { path: join(at, String(p.missingProperty)), kind: 'missing', message: `${join(at, String(p.missingProperty))} is a required parameter.` };
    case 'additionalProperties':
      return unknownMember(join(at, String(p.additionalProperty)), inBranch(e) ? undefined : [...segments(e.instancePath), String(p.additionalProperty)]);
    case 'type':
      return {
        path: at,
        kind: 'invalid',
        message: `${at || 'body'} must be of type ${String(p.type).replace(',', ' or ')}.`,
        ...(inBranch(e) || e.instancePath === '' ? {} : { fix: { kind: 'type' as const, pointer: segments(e.instancePath), expected: String(p.type) } }),
      };
    case 'enum':
      return {
        path: at,
        kind: 'invalid',
        message: `${at} must be one of: ${(p.allowedValues as unknown[]).map(String).join(', ')}.`,
        ...(isFlagEnum(p.allowedValues) && !inBranch(e) && e.instancePath !== '' ? { fix: { kind: 'type' as const, pointer: segments(e.instancePath), expected: 'flag' } } : {}),
      };
    case 'const':
      return { path: at, kind: 'invalid', message: `${at} must be ${JSON.stringify(p.allowedValue)}.` };
    default:
      return { path: at, kind: 'invalid', message: `${at || 'body'} ${e.message ?? 'is invalid'}.` };
  }
}

/**
 * Problems of `value` against `schema`, one per member (the first of each), in the validator's
 * order. `coerce` turns query-string text into the schema's types in place.
 */
const NONE: readonly Problem[] = Object.freeze([]);

/**
 * Query text an integer parameter accepts: decimal digits only, and few enough to stay exact.
 * ajv's coercion takes whatever `Number()` does (`0x10`, `1e3`, `60.0`, twenty digits rounded).
 */
const PLAIN_INTEGER = /^[0-9]{1,15}$/;

/** What a check reads of a schema on every request, derived once per schema (schemas are module constants). */
function derived<T>(cache: WeakMap<Schema, T>, schema: Schema, make: (props: Record<string, Schema>) => T): T {
  let value = cache.get(schema);
  if (value === undefined) {
    value = make((schema.properties ?? {}) as Record<string, Schema>);
    cache.set(schema, value);
  }
  return value;
}

const integerKeys = new WeakMap<Schema, readonly string[]>();

const integerKeysOf = (schema: Schema): readonly string[] =>
  derived(integerKeys, schema, (props) =>
    Object.keys(props).filter((k) => {
      const type = props[k]?.type;
      return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
    }),
  );

const cappedMembers = new WeakMap<Schema, readonly (readonly [string, number])[]>();

/** The members with a maxProperties, and it: a user body has dozens of members and two such. */
const cappedMembersOf = (schema: Schema): readonly (readonly [string, number])[] =>
  derived(cappedMembers, schema, (props) => {
    const out: [string, number][] = [];
    for (const key in props) {
      const max = props[key]?.maxProperties;
      if (typeof max === 'number') out.push([key, max]);
    }
    return out;
  });

/** Integer parameters of a query whose text is not a plain decimal integer. */
function notPlainIntegers(schema: Schema, value: unknown): Problem[] {
  const out: Problem[] = [];
  if (value === null || typeof value !== 'object') return out;
  for (const key of integerKeysOf(schema)) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === 'string' && !PLAIN_INTEGER.test(v)) {
      out.push({ path: key, kind: 'invalid', message: `${key} must be a whole number in decimal digits (at most 15).` });
    }
  }
  return out;
}

/**
 * Problems listed for one request at the most: a body of 50,000 unknown members would otherwise
 * be answered with 50,000 items, all of them describing the same mistake.
 */
export const MAX_PROBLEMS = 20;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * What ajv would report only after checking every member (it runs with allErrors), found first by
 * counting: a closed object with more unknown members than an answer lists, or a member object
 * over its maxProperties. A 1 MiB body of such members would otherwise cost tens of ms of checks
 * whose results the answer leaves out.
 */
function oversized(schema: Schema, value: unknown, lenient: boolean): Problem[] | undefined {
  if (!isRecord(value)) return undefined;
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  // A lenient reader removes every unknown member anyway (a walk of the body it pays once).
  if (schema.additionalProperties === false && !lenient) {
    // The answer lists MAX_PROBLEMS of them, so one more than that settles it: no need to go on.
    const unknown: string[] = [];
    for (const key in value) {
      if (Object.hasOwn(props, key)) continue;
      if (unknown.length === MAX_PROBLEMS) return unknown.map((key) => unknownMember(key));
      unknown.push(key);
    }
  }
  for (const [key, max] of cappedMembersOf(schema)) {
    const member = value[key];
    if (!isRecord(member)) continue;
    let count = 0;
    for (const _ in member) if (++count > max) return [{ path: key, kind: 'invalid', message: `${key} must NOT have more than ${max} properties.` }];
  }
  return undefined;
}

/** A query flag declared as the text `true` or `false` (`include_count`, `include_archived`). */
export function isFlagEnum(values: unknown): boolean {
  return Array.isArray(values) && values.length === 2 && values[0] === 'true' && values[1] === 'false';
}

const booleanKeys = new WeakMap<Schema, readonly (readonly [string, 'boolean' | 'flag'])[]>();

const booleanKeysOf = (schema: Schema): readonly (readonly [string, 'boolean' | 'flag'])[] =>
  derived(booleanKeys, schema, (props) => {
    const out: [string, 'boolean' | 'flag'][] = [];
    for (const k of Object.keys(props)) {
      const type = props[k]?.type;
      if (type === 'boolean' || (Array.isArray(type) && type.includes('boolean'))) out.push([k, 'boolean']);
      else if (isFlagEnum(props[k]?.enum)) out.push([k, 'flag']);
    }
    return out;
  });


/** Boolean query parameters sent as any spelling of a boolean, made booleans before ajv coerces the rest. */
function readBooleans(schema: Schema, value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const [key, kind] of booleanKeysOf(schema)) {
    const v = record[key];
    if (typeof v !== 'string') continue;
    const b = booleanText(v);
    if (b !== undefined) record[key] = kind === 'flag' ? String(b) : b;
  }
}

/**
 * Problems of `value` against `schema`. With `fixes`, the problems a lenient reader can repair
 * (an unknown member, a value of another type) go there instead, every one of them.
 */
export function validate(schema: Schema, value: unknown, coerce = false, fixes?: Problem[]): readonly Problem[] {
  const early = coerce ? undefined : oversized(schema, value, fixes !== undefined);
  if (early) return early;
  const fn = compile(schema, coerce);
  if (coerce) readBooleans(schema, value);
  // Read before ajv coerces the text in place.
  const plain = coerce ? notPlainIntegers(schema, value) : undefined;
  const valid = fn(value);
  // The common case allocates nothing: every request validates its params, query and body.
  if (valid && !coerce) return NONE;
  const out = plain ?? [];
  const seen = new Set<string>(out.map((p) => p.path));
  if (coerce) {
    // ajv does not check a coerced value again: text such as `1e400` becomes Infinity and passes
    // `integer` and `minimum` (strictNumbers only guards values that arrive as numbers).
    for (const [key, v] of value !== null && typeof value === 'object' ? Object.entries(value) : []) {
      if (typeof v === 'number' && !Number.isFinite(v) && !seen.has(key)) {
        seen.add(key);
        out.push({ path: key, kind: 'invalid', message: `${key} must be a finite number.` });
      }
    }
  }
  if (valid) return out;
  for (const e of fn.errors ?? []) {
    if (out.length >= MAX_PROBLEMS && fixes === undefined) break;
    // anyOf/oneOf report each branch; the type error of the nullable branch says nothing useful.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const problem = describe(e);
    if (seen.has(problem.path)) continue;
    seen.add(problem.path);
    if (fixes !== undefined && problem.fix) fixes.push(problem);
    else if (out.length < MAX_PROBLEMS) out.push(problem);
  }
  return out;
}
