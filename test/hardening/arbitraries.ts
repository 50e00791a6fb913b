// fast-check arbitraries for hostile requests, driven by the route registry's own schemas: bodies
// are built as JSON syntax trees and written out by hand, so they can hold what JSON.stringify
// cannot (duplicate keys, `__proto__` members, 1e400, nesting deeper than it recurses).

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { RouteDef } from '../../src/http/route.js';
import type { Schema } from '../../src/schemas/json-schema.js';

// --- JSON as text -------------------------------------------------------------------------------

export type Json = { t: 'raw'; text: string } | { t: 'arr'; items: Json[] } | { t: 'obj'; entries: [string, Json][] };

const lit = (value: unknown): Json => ({ t: 'raw', text: JSON.stringify(value) });
const raw = (text: string): Json => ({ t: 'raw', text });
const arr = (items: Json[]): Json => ({ t: 'arr', items });
const obj = (entries: [string, Json][]): Json => ({ t: 'obj', entries });

export function serialize(j: Json): string {
  if (j.t === 'raw') return j.text;
  if (j.t === 'arr') return `[${j.items.map(serialize).join(',')}]`;
  return `{${j.entries.map(([k, v]) => `${JSON.stringify(k)}:${serialize(v)}`).join(',')}}`;
}

// --- values taken from the fixtures, so requests also reach records that exist --------------------

interface FixtureFile {
  customers?: { id: string; user_id?: string | null; email?: string | null }[];
  companies?: { id: string; company_id: string }[];
  tags?: { id: string; name: string }[];
  admins?: { id: string }[];
  teams?: { id: string }[];
  conversations?: { id: string }[];
  notes?: { id: string }[];
}

const fixture = (name: string): FixtureFile => JSON.parse(readFileSync(new URL(`../../fixtures/${name}.json`, import.meta.url), 'utf8')) as FixtureFile;
const present = (xs: (string | null | undefined)[]): string[] => xs.filter((x): x is string => typeof x === 'string' && x !== '');

function idsOf(doc: FixtureFile): string[] {
  return present([
    ...(doc.customers ?? []).flatMap((c) => [c.id, c.user_id, c.email]),
    ...(doc.companies ?? []).flatMap((c) => [c.id, c.company_id]),
    ...(doc.tags ?? []).flatMap((t) => [t.id, t.name]),
    ...(doc.admins ?? []).map((a) => a.id),
    ...(doc.teams ?? []).map((t) => t.id),
    ...(doc.conversations ?? []).map((c) => c.id),
    ...(doc.notes ?? []).map((n) => n.id),
  ]);
}

const demo = fixture('demo');
const other = fixture('other');
const both = (pick: (doc: FixtureFile) => (string | null | undefined)[]): string[] => present([...pick(demo), ...pick(other)]);

/** Values a member of this name takes in the fixtures, so a request names records that exist. */
const POOLS: Record<string, string[]> = {
  id: both((d) => [...(d.customers ?? []).map((c) => c.id), ...(d.companies ?? []).map((c) => c.id), ...(d.tags ?? []).map((t) => t.id)]),
  intercom_user_id: both((d) => (d.customers ?? []).map((c) => c.id)),
  service_user_id: both((d) => (d.customers ?? []).map((c) => c.id)),
  user_id: both((d) => (d.customers ?? []).map((c) => c.user_id)),
  email: both((d) => (d.customers ?? []).map((c) => c.email)),
  company_id: both((d) => (d.companies ?? []).map((c) => c.company_id)),
  admin_id: both((d) => (d.admins ?? []).map((a) => a.id)),
  name: both((d) => (d.tags ?? []).map((t) => t.name)),
  app: ['demo', 'other', 'fuzz'],
  tokens: ['demo-token', 'other-token', 'fuzz-token'],
};

/** Ids, user_ids, emails, company_ids, tag names of both seeded apps, and names the control plane knows. */
export const REAL_VALUES: readonly string[] = [
  ...new Set([...idsOf(demo), ...idsOf(other), 'demo', 'other', 'demo-token', 'other-token', 'fuzz', 'fuzz-snap', '1', '2', 'user', 'company', 'tag', 'segment', 'lead', 'plaintext', 'html', 'admin', 'comment', 'note', 'true', 'false', 'replace', 'merge', 'GET', 'POST', 'listUsers', '/users', '/users*']),
];

// --- hostile leaves -----------------------------------------------------------------------------

export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const SPECIAL_STRINGS: readonly string[] = [
  '', ' ', '\t\n', 'NaN', 'Infinity', '-Infinity', '-1', '0', '-0', '1e400', '9'.repeat(400), '0x1F', '1_000', 'null', 'true', '[]', '{}',
  ...PROTO_KEYS, 'toString', 'hasOwnProperty', 'valueOf',
  '\u0000', '\u0000\u0001\u001f\u007f', '\ud800', '\udfff', 'a\ud83d', '\u202eevil', '\ufeffbom', '\u2028\u2029', 'e\u0301', '𝒜𝒷𝒸', '👩‍👩‍👧‍👦', '🙂'.repeat(300),
  '<script>alert(1)</script>', "'; DROP TABLE users; --", '../../etc/passwd', '%00', '%ZZ', 'a.b', 'a$b', 'x_at',
  'a'.repeat(191), 'a'.repeat(256), 'a'.repeat(70_000), 'UPPER@EXAMPLE.COM', 'not-an-email', 'x@y', 'shared@example.com', 'test_fuzz',
];

const realString = fc.constantFrom(...REAL_VALUES);
export const junkString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
);
const someString = fc.oneof({ weight: 3, arbitrary: realString }, { weight: 2, arbitrary: junkString });

/** Number tokens JSON allows but JavaScript cannot hold exactly (1e400 parses to Infinity). */
const NUMBER_TOKENS = ['1e400', '-1e400', '-0', '0.0', '1E308', '-1.7976931348623157e308', '5e-324', '9007199254740993', '123456789012345678901234567890', '1.5', '-1', '1e2'];
const rawNumber = fc.constantFrom(...NUMBER_TOKENS).map(raw);
const BIG = [2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, -(2 ** 53) - 2, Number.MAX_SAFE_INTEGER, 1_767_225_600, 253_402_300_800];

const hostileLeaf: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: someString.map(lit) },
  { weight: 2, arbitrary: rawNumber },
  { weight: 2, arbitrary: fc.integer({ min: -1000, max: 1000 }).map(lit) },
  { weight: 1, arbitrary: fc.constantFrom(...BIG).map(lit) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map(lit) },
  { weight: 1, arbitrary: fc.boolean().map(lit) },
  { weight: 1, arbitrary: fc.constant(lit(null)) },
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  { weight: 2, arbitrary: junkString },
  { weight: 1, arbitrary: realString },
);

export const hostileJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileLeaf,
    fc.array(tie('value'), { maxLength: 3 }).map(arr),
    fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 3 }).map(obj),
  ),
})).value;

// --- values that follow a schema, most of the time ---------------------------------------------

function intArb(s: Schema): fc.Arbitrary<Json> {
  const bounds = [0, -1, ...BIG];
  if (typeof s.minimum === 'number') bounds.push(s.minimum, s.minimum - 1);
  // Never the maximum itself: `generate.users: 1000000` is valid and would take the run's time.
  if (typeof s.maximum === 'number') bounds.push(s.maximum + 1);
  return fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: -3, max: 120 }).map(lit) },
    { weight: 2, arbitrary: fc.constantFrom(...bounds).map(lit) },
    { weight: 1, arbitrary: rawNumber },
  );
}

function objectArb(s: Schema, depth: number): fc.Arbitrary<Json> {
  const required = new Set<string>(s.required ?? []);
  const members = Object.entries((s.properties ?? {}) as Record<string, Schema>).map(([key, ps]) =>
    fc.oneof(
      { weight: required.has(key) ? 1 : 3, arbitrary: fc.constant(null) },
      { weight: required.has(key) ? 9 : 2, arbitrary: fromSchema(ps, depth + 1, key).map((v): [string, Json] => [key, v]) },
    ),
  );
  const additional = typeof s.additionalProperties === 'object' ? (s.additionalProperties as Schema) : undefined;
  const extras = fc.oneof(
    { weight: 3, arbitrary: fc.constant<[string, Json][]>([]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(hostileKey, additional ? fromSchema(additional, depth + 1) : hostileJson), { minLength: 1, maxLength: 2 }) },
  );
  const duplicated = fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
  return fc.tuple(fc.tuple(...members), extras, duplicated, hostileJson).map(([known, more, duplicate, dupValue]) => {
    const entries = [...known.filter((e): e is [string, Json] => e !== null), ...more];
    // The same key twice: JSON.parse keeps the last one, whatever the first one said.
    const first = entries[0];
    if (duplicate && first) entries.push([first[0], dupValue]);
    return obj(entries);
  });
}

/** Mostly values of the schema's shape (so requests reach the handlers), sometimes anything at all. */
export function fromSchema(s: Schema | undefined, depth = 0, key?: string): fc.Arbitrary<Json> {
  if (!s || depth > 8) return hostileJson;
  const pool = key !== undefined ? POOLS[key] : undefined;
  const strings = pool ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pool) }, { weight: 2, arbitrary: someString }) : someString;
  const variants: fc.Arbitrary<Json>[] = [];
  for (const branch of [...((s.anyOf as Schema[] | undefined) ?? []), ...((s.oneOf as Schema[] | undefined) ?? [])]) variants.push(fromSchema(branch, depth + 1));
  if (Array.isArray(s.enum)) variants.push(fc.constantFrom(...(s.enum as unknown[])).map(lit));
  if (s.const !== undefined) variants.push(fc.constant(lit(s.const)));
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  for (const t of types) {
    if (t === 'string' && !s.enum && s.const === undefined) variants.push(strings.map(lit));
    if (t === 'integer') variants.push(pool ? fc.oneof(intArb(s), fc.constantFrom(...pool.filter((x) => /^[0-9]{1,15}$/.test(x)), 0).map(Number).map(lit)) : intArb(s));
    if (t === 'number') variants.push(fc.oneof(intArb(s), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(lit)));
    if (t === 'boolean') variants.push(fc.boolean().map(lit));
    if (t === 'null') variants.push(fc.constant(lit(null)));
    if (t === 'array') variants.push(fc.array(fromSchema(s.items as Schema | undefined, depth + 1, key), { maxLength: 3 }).map(arr));
    if (t === 'object') variants.push(objectArb(s, depth));
  }
  return variants.length === 0 ? hostileJson : fc.oneof({ weight: 12, arbitrary: fc.oneof(...variants) }, { weight: 1, arbitrary: hostileJson });
}

// --- whole requests -----------------------------------------------------------------------------

/** Nested `depth` levels under a member the schema knows, so validation walks into it. */
const deeplyNested = (key: string, depth: number, open: string, close: string): string => `{${JSON.stringify(key)}:${open.repeat(depth)}${close.repeat(depth)}}`;

const OVER_LIMIT = `{"name":"${'x'.repeat(1024 * 1024 + 10)}"}`;

function bodyArb(route: RouteDef): fc.Arbitrary<string | undefined> {
  const keys = Object.keys((route.body?.properties ?? {}) as Record<string, Schema>);
  const key = keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('x');
  return fc.oneof(
    { weight: 10, arbitrary: fromSchema(route.body).map(serialize) },
    { weight: 2, arbitrary: hostileJson.map(serialize) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom('', '   ', 'null', '[]', '"text"', '42', 'true', '{', '{"a":}', '{"a":1,}', "{'a':1}", '{"a":1} trailing', '\ufeff{}', '{"a":1 /* c */}', 'a=1&b=2', '<xml/>', 'NaN', '{"a":NaN}', '{"a":Infinity}', '{"a":"\u0000"}', '{"a":"\\ud800"}'),
    },
    { weight: 1, arbitrary: fc.tuple(key, fc.integer({ min: 1, max: 20_000 }), fc.constantFrom(['[', ']'], ['{"a":', '}'])).map(([k, d, [o, c]]) => deeplyNested(k, d, o as string, c as string)) },
    { weight: 1, arbitrary: fc.constant(OVER_LIMIT) },
  );
}

function paramValue(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: realString.map(encodeURIComponent) },
    { weight: 3, arbitrary: junkString.filter((s) => s !== '').map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '\ufffd'))) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%E0%A4%A', '%00', '%2F', '.', '%2e', '..', '%2e%2e', 'a%20b', '%ZZ', '-', '~') },
  );
}

const wellFormed = (s: string): string => s.replace(/[\ud800-\udfff]/g, '\ufffd');

function queryArb(route: RouteDef): fc.Arbitrary<string> {
  const props = Object.entries((route.query?.properties ?? {}) as Record<string, Schema>);
  const known = props.length > 0 ? fc.constantFrom(...props.map(([k]) => k)) : hostileKey;
  const value = fc.oneof(
    { weight: 3, arbitrary: realString },
    { weight: 2, arbitrary: fc.integer({ min: -5, max: 80 }).map(String) },
    { weight: 3, arbitrary: junkString },
    { weight: 1, arbitrary: fc.constantFrom('1e400', 'Infinity', '-Infinity', 'NaN', '1.5', '0x10', ' 7', '99999999999999999999999', '') },
  );
  const pair = fc.tuple(fc.oneof({ weight: 3, arbitrary: known }, { weight: 1, arbitrary: hostileKey }), value, fc.boolean());
  return fc.array(pair, { maxLength: 5 }).map((pairs) => {
    if (pairs.length === 0) return '';
    // Mostly encoded; sometimes written raw, stray `%` and all.
    const text = pairs.map(([k, v, rawText]) => (rawText ? `${wellFormed(k).replace(/[#&=\s]/g, '')}=${wellFormed(v).replace(/[#&\s]/g, '')}` : `${encodeURIComponent(wellFormed(k))}=${encodeURIComponent(wellFormed(v))}`));
    return `?${text.join('&')}`;
  });
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** Header values must be ByteStrings without CR/LF; the fuzzing is of what the server does with them. */
const headerText = fc.string({ unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@AZaz[\\]^_`{|}~\u00e9\u00ff'.split('')), maxLength: 40 });

function authorizationArb(route: RouteDef): fc.Arbitrary<string | undefined> {
  const good = route.scope === 'app' ? 14 : 1;
  return fc.oneof(
    { weight: good, arbitrary: fc.constant('Bearer demo-token') },
    { weight: route.scope === 'app' ? 1 : 6, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('Bearer other-token', `Basic ${b64('demo-token:')}`, `Basic ${b64('demo-token')}`, 'bearer demo-token', 'Bearer  demo-token', 'Bearer demo-token extra') },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic', 'Basic ===', `Basic ${b64(':')}`, 'Token demo-token', `Bearer ${'x'.repeat(10_000)}`, 'Bearer test_fuzz', 'Bearer test_fuzz%20é', 'Bearer __proto__', 'Bearer constructor'),
        headerText.map((t) => `Bearer ${t}`),
      ),
    },
  );
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  raw: string | undefined;
}

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/vnd.api+json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'json', ''];
const ACCEPTS = ['application/json', '*/*', 'application/*', 'application/vnd.intercom.3+json', 'text/html', 'application/xml', '', 'application/json;q=0', 'text/html, application/json;q=0.5'];

/** One request for `route`: path parameters real or junk, hostile query, headers and body. */
export function requestArb(route: RouteDef): fc.Arbitrary<FuzzRequest> {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1] as string);
  const params = fc.tuple(...names.map(() => paramValue()));
  const hasBody = route.method !== 'GET';
  const extra = fc.dictionary(
    fc.constantFrom('x-forwarded-for', 'x-request-id', 'content-length', 'origin', 'cookie', 'x-http-method-override', 'user-agent', 'x-fuzz', 'intercom-version'),
    // Every API version too, so the versioned answers are fuzzed as well as the refusals.
    fc.oneof(headerText, fc.constantFrom('-1', '0', 'abc', '99999999999', '1e400', '1.0', '1.2', '1.4', '2.0', 'Unstable')),
    { maxKeys: 2 },
  );
  return fc
    .record({
      params,
      query: queryArb(route),
      auth: authorizationArb(route),
      accept: fc.oneof({ weight: 20, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom(...ACCEPTS) }, { weight: 1, arbitrary: headerText }),
      contentType: fc.oneof({ weight: 20, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) }),
      body: hasBody ? bodyArb(route) : fc.constant(undefined),
      extra,
    })
    .map(({ params: values, query, auth, accept, contentType, body, extra: more }) => {
      let i = 0;
      const path = route.path.replace(/\{[^}]+\}/g, () => values[i++] ?? '') + query;
      const headers: Record<string, string> = { ...more, accept };
      // content-length is the body's own business once there is a body.
      if (body !== undefined) delete headers['content-length'];
      if (auth !== undefined) headers.authorization = auth;
      if (contentType !== undefined && body !== undefined) headers['content-type'] = contentType;
      return { method: route.method, path, headers, raw: body };
    });
}
