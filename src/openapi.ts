// Builds the OpenAPI 3.1 document from the route registry, so the document and the mounted routes
// cannot drift. Iteration follows the registry's order, which makes the output byte-stable.

import { OpenApiBuilder, type HeaderObject, type OpenAPIObject, type OperationObject, type ParameterObject, type ResponseObject } from 'openapi3-ts/oas31';
import { ERROR_STATUS, wireCode, type ErrorCode } from './core/errors.js';
import { DEFAULT_API_VERSION, inRange, VERSION_CHANGES, versionsIn, type ApiVersion } from './core/versions.js';
import { ROUTES } from './resources/index.js';
import { APP_SCOPE_ERRORS, type RouteDef } from './http/route.js';
import { COMPONENTS } from './schemas/components.js';
import { ref, type Schema } from './schemas/json-schema.js';

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:4010';
const CONTROL_TAG = 'Control plane';

const RATE_HEADERS: Record<string, HeaderObject> = {
  'X-RateLimit-Limit': { description: 'Operations allowed in the current 10-second window: floor(per-minute limit / 6).', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Operations left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix second at which the current window ends (a multiple of 10).', schema: { type: 'integer' } },
};
const REQUEST_ID: HeaderObject = { description: 'The request id, also in error bodies as request_id.', schema: { type: 'string', pattern: '^[0-9a-z]{20}$' } };

/** What each tag of operations covers, shown above its operations on the docs page. */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Users: 'People who signed up in the customer\'s product: create or update, look up, list, archive, delete, scroll.',
  Leads: 'Contacts known by email or phone who have not signed up (type `contact` on the wire).',
  Visitors: 'Anonymous people seen on the website; they can be updated, read, deleted and converted into users or leads.',
  Companies: 'Organisations users and leads belong to, with their members and tags.',
  'Data attributes': 'The attributes customers and companies carry: the built-in lists and the app\'s custom ones.',
  Counts: 'Totals of the app\'s records: users, leads, companies, tags and segments, per tag, segment or company.',
  Tags: 'Labels put on users, leads and companies, created, renamed, applied and removed in bulk.',
  Segments: 'Groups of users, leads or companies as the app defines them, with their member counts.',
  Admins: 'The app\'s teammates who answer conversations, and their teams.',
  Notes: 'Notes admins leave on users and leads, listed per person newest first.',
  Conversations: 'Threads between admins and customers: the messages that start them, listing, reading, replying, assigning, opening, closing, snoozing and group membership.',
  Scroll: 'Iterating over every user, lead or company of the app, 100 at a time, past the paging limits.',
  Events: 'Data events about users and leads: submitting them, listing a person\'s events and their per-name summary.',
  'Bulk jobs': 'Users and events submitted in bulk: each request a task of a job, run asynchronously on the app\'s job queue, with the job\'s status and error feed.',
  Subscriptions: 'Webhook subscriptions: the mock really POSTs a notification_event for each documented topic to their url (signed with hub_secret), with a retry, and keeps sent and error feeds.',
  [CONTROL_TAG]: 'The mock\'s own control plane under /__admin: not part of the real API.',
};

const named = new Map<Schema, string>(COMPONENTS.map(([name, schema]) => [schema, name]));

/** A deep copy in which every nested named schema becomes a $ref. */
function withRefs(schema: Schema, top = true): Schema {
  if (!top) {
    const name = named.get(schema);
    if (name) return ref(name);
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (Array.isArray(value)) out[key] = value.map((v) => (isSchema(v) ? withRefs(v, false) : v));
    else if (isSchema(value) && key !== 'default' && key !== 'const' && key !== 'example') {
      out[key] = key === 'properties' ? mapValues(value as Record<string, Schema>) : withRefs(value, false);
    } else out[key] = value;
  }
  return out as Schema;
}

function mapValues(props: Record<string, Schema>): Record<string, Schema> {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, withRefs(v, false)]));
}

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every error code an operation can answer with: its own, its scope's, and its input's. */
export function errorCodesOf(def: RouteDef): ErrorCode[] {
  const codes = new Set<ErrorCode>(def.errors);
  // The control plane answers 401 only when started with --admin-token.
  for (const c of def.scope === 'app' ? APP_SCOPE_ERRORS : (['unauthorized'] as const)) codes.add(c);
  codes.add('not_acceptable');
  codes.add('uri_too_long');
  // The browser guard (http/origin-guard.ts): a Host it does not answer to; a control-plane write from another origin's page.
  codes.add('misdirected_request');
  if (def.scope === 'admin' && def.method !== 'GET') codes.add('forbidden');
  if (def.query || def.params) codes.add('parameter_invalid');
  if (def.method !== 'GET') for (const c of ['bad_request', 'unsupported_media_type', 'request_too_large'] as const) codes.add(c);
  if (def.scope === 'app' && def.method !== 'GET') codes.add('resource_limit_exceeded');
  codes.add('server_error');
  return [...codes];
}

/** Statuses answered before the request is counted: no rate-limit headers. */
const UNCOUNTED = new Set([401, 414, 421]);

function headersFor(def: RouteDef, status: number): Record<string, HeaderObject> {
  const rate = def.scope === 'app' && !UNCOUNTED.has(status) ? RATE_HEADERS : {};
  return { 'X-Request-Id': REQUEST_ID, ...rate };
}

function responses(def: RouteDef): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {
    [String(def.response.status)]: {
      description: def.response.description,
      headers: headersFor(def, def.response.status),
      ...(def.response.schema ? { content: { 'application/json': { schema: withRefs(def.response.schema, false) } } } : {}),
    },
  };
  const byStatus = new Map<number, string[]>();
  for (const code of errorCodesOf(def)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), wireCode(code)]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: `Error: ${[...new Set(codes)].join(', ')}`,
      headers: headersFor(def, status),
      content: { 'application/json': { schema: ref('Error') } },
    };
  }
  return out;
}

const exampleOf = (value: unknown) => (value === undefined ? {} : { example: value });

function parameters(def: RouteDef): ParameterObject[] {
  const out: ParameterObject[] = [];
  const examples = def.examples;
  for (const [name, schema] of Object.entries(def.params ?? {})) {
    out.push({ name, in: 'path', required: true, schema: withRefs(schema, false), ...(schema.description ? { description: schema.description } : {}), ...exampleOf(examples?.params?.[name]) });
  }
  const required = new Set(def.query?.required ?? []);
  for (const [name, schema] of Object.entries(def.query?.properties ?? {})) {
    const s = schema as Schema;
    out.push({ name, in: 'query', required: required.has(name), schema: withRefs(s, false), ...(s.description ? { description: s.description } : {}), ...exampleOf(examples?.query?.[name]) });
  }
  // An operation the default version lacks needs the header, so the docs page pre-fills it.
  const versions = versionsIn(def.versions);
  if (def.scope === 'app' && !versions.includes(DEFAULT_API_VERSION)) {
    out.push({
      name: 'Intercom-Version',
      in: 'header',
      required: false,
      schema: { type: 'string', enum: versions },
      description: `The API version; this operation is in ${versions.join(', ')} only (without the header: the app's version).`,
      example: versions[0],
    });
  }
  return out;
}

function operation(def: RouteDef): OperationObject {
  const op: OperationObject = {
    operationId: def.operationId,
    summary: def.summary,
    description: def.description,
    tags: [def.tag],
    security: def.scope === 'app' ? [{ bearerAuth: [] }, { basicAuth: [] }] : [{}, { adminToken: [] }],
    parameters: parameters(def),
    responses: responses(def),
  };
  // Control-plane operations are the mock's own, in no API version.
  if (def.scope === 'app') op['x-api-versions'] = versionsIn(def.versions);
  if (def.body) op.requestBody = { required: false, content: { 'application/json': { schema: withRefs(def.body, false), ...exampleOf(def.examples?.body) } } };
  return op;
}

/** The info description's table of API versions, and which one this document is for. */
function versionsText(version: ApiVersion | undefined): string {
  // A `|` in a cell, code spans included, would end the cell: Markdown tables need it escaped.
  const rows = VERSION_CHANGES.map((c) => `| ${c.version}${c.version === DEFAULT_API_VERSION ? ' (default)' : ''} | ${c.changes.replace(/\|/g, '\\|')} |`);
  const scope = version === undefined ? 'This document covers every version; each operation lists its versions in `x-api-versions`, and `/openapi.json?version=1.4` gives one version\'s document.' : `This document is for API version ${version}: it lists the operations that version has.`;
  return `\n\nAPI versions: send \`Intercom-Version: 1.0\`…\`1.4\` or \`Unstable\`, else the app's version (fixture \`app.api_version\`, else \`--api-version\`, else ${DEFAULT_API_VERSION}). An operation a version lacks answers 400 intercom_version_invalid. ${scope}\n\n| Version | Changes |\n|---|---|\n${rows.join('\n')}`;
}

/** `version`: only the operations that version has (the control plane is in every document). */
export function buildDocument(routes: readonly RouteDef[] = ROUTES, serverUrl = DEFAULT_SERVER_URL, version?: ApiVersion): OpenAPIObject {
  if (version !== undefined) routes = routes.filter((r) => r.scope === 'admin' || inRange(version, r.versions));
  const builder = OpenApiBuilder.create()
    .addOpenApiVersion('3.1.0')
    .addInfo({
      title: 'Customer messaging API (mock)',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'messaging-api-mock maintainers' },
      description:
        'A stateful, deterministic mock of the v1-era customer-messaging REST API. Authenticate with `Bearer <token>` or Basic auth with the token as user name (demo token: `demo-token`). Per-app rate limit: floor(limit/6) operations per 10-second window. Every error is an `error.list` envelope, including those the server gives before routing: 431 (request head over 16 KiB), 408 (a request that does not arrive in time) and 400 (not HTTP), each with code bad_request.' +
        versionsText(version),
    })
    .addServer({ url: serverUrl })
    .addSecurityScheme('bearerAuth', { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <token>' })
    .addSecurityScheme('basicAuth', { type: 'http', scheme: 'basic', description: 'The token as user name, empty password' })
    .addSecurityScheme('adminToken', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Admin-Token',
      description: 'Needed on the control plane only when the mock was started with --admin-token',
    });
  const tags = [...new Set(routes.map((r) => r.tag))].sort((a, b) => Number(a === CONTROL_TAG) - Number(b === CONTROL_TAG));
  for (const tag of tags) {
    const description = TAG_DESCRIPTIONS[tag];
    builder.addTag(description === undefined ? { name: tag } : { name: tag, description });
  }
  for (const [name, schema] of COMPONENTS) builder.addSchema(name, withRefs(schema));
  const paths = new Map<string, Record<string, OperationObject>>();
  for (const def of routes) paths.set(def.path, { ...(paths.get(def.path) ?? {}), [def.method.toLowerCase()]: operation(def) });
  for (const [path, item] of paths) builder.addPath(path, item);
  return builder.getSpec();
}

export function documentJson(doc: OpenAPIObject): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The reference's table of the query parameters each API operation takes (npm run openapi writes it into docs/reference.md). */
export function queryParameterTable(routes: readonly RouteDef[] = ROUTES): string {
  const rows = routes.filter((r) => r.scope === 'app').map((r) => {
    const names = Object.keys(r.query?.properties ?? {});
    const required = new Set(r.query?.required ?? []);
    const shown = names.map((n) => `\`${n}\`${required.has(n) ? ' (required)' : ''}`).join(', ');
    return `| \`${r.method} ${r.path}\` | ${shown || 'none'} |`;
  });
  return [QUERY_HEADER, '|---|---|', ...rows].join('\n');
}

const QUERY_HEADER = '| operation | query parameters it takes |';
const ENDPOINT_HEADER = '| operation | what it does | API versions | answers | errors beyond every operation\'s |';

/** The reference's index of every API operation: what the registry says of each (npm run openapi writes it into docs/reference.md). */
export function endpointTable(routes: readonly RouteDef[] = ROUTES): string {
  const versions = (r: RouteDef): string => {
    const { since, until } = r.versions ?? {};
    if (since && until) return `${since} to ${until}`;
    if (since) return `${since} on`;
    return until ? `up to ${until}` : 'all';
  };
  const rows = routes
    .filter((r) => r.scope === 'app')
    .map((r) => {
      const own = r.errors.filter((e) => !APP_SCOPE_ERRORS.includes(e));
      // An operation the API never had answers its example's status (a 404), never its success.
      const status = r.examples?.status ?? r.response.status;
      return `| \`${r.method} ${r.path}\` | ${r.summary.replaceAll('|', '\\|')} | ${versions(r)} | ${status} | ${own.map((e) => `\`${e}\``).join(', ') || 'none'} |`;
    });
  return [ENDPOINT_HEADER, '|---|---|---|---|---|', ...rows].join('\n');
}

/**
 * The reference with one generated table (the rows from its header line on) replaced by `table`,
 * indented by `indent` (a table inside a list item is). Throws, changing nothing, when the reference
 * has CR line ends or lacks the table.
 */
function withTable(reference: string, what: string, header: string, table: string, indent: string): string {
  if (reference.includes('\r')) throw new Error('docs/reference.md has CR line ends: the table is written with LF only');
  const start = reference.indexOf(`\n${indent}${header}\n`);
  if (start < 0) throw new Error(`docs/reference.md has no ${what}`);
  let end = start + 1;
  while (end < reference.length && reference.startsWith(`${indent}|`, end)) {
    const next = reference.indexOf('\n', end);
    end = next < 0 ? reference.length : next + 1;
  }
  const indented = table.split('\n').map((line) => `${indent}${line}\n`).join('');
  return `${reference.slice(0, start + 1)}${indented}${reference.slice(end)}`;
}

/** The reference with its query parameter table replaced by `table`, indented as the list item it sits in. */
export const withQueryParameterTable = (reference: string, table = queryParameterTable()): string => withTable(reference, 'query parameter table', QUERY_HEADER, table, '  ');

/** The reference with its endpoint index replaced by `table`. */
export const withEndpointTable = (reference: string, table = endpointTable()): string => withTable(reference, 'endpoint table', ENDPOINT_HEADER, table, '');

/** Every table of the reference that the registry writes. */
export const withGeneratedTables = (reference: string): string => withEndpointTable(withQueryParameterTable(reference));
