// Checks a response against the generated OpenAPI document: the status must be declared for the
// operation, the body must match the declared schema, and the declared headers must be present.
// test/helpers.ts runs it on every response the HTTP tests see.

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenAPIObject, ResponseObject } from 'openapi3-ts/oas31';
import { buildDocument } from '../src/openapi.js';
import { ROUTES } from '../src/resources/index.js';
import { pathPattern, type RouteDef } from '../src/http/route.js';

const DOC_ID = 'https://mock.invalid/openapi.json';
let state: { doc: OpenAPIObject; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | undefined;

function load(routes: readonly RouteDef[]) {
  if (state && routes === ROUTES) return state;
  const doc = buildDocument(routes);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const s = { doc, ajv, validators: new Map<string, ValidateFunction>() };
  if (routes === ROUTES) state = s;
  return s;
}

const matchers = new WeakMap<RouteDef, RegExp>();
function matches(def: RouteDef, path: string): boolean {
  let re = matchers.get(def);
  if (!re) {
    re = pathPattern(def.path);
    matchers.set(def, re);
  }
  return re.test(path);
}

function rebase(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`));
}

export function checkContract(
  method: string,
  url: string,
  status: number,
  headers: Headers,
  body: unknown,
  routes: readonly RouteDef[] = ROUTES,
): void {
  const { doc, ajv, validators } = load(routes);
  const path = new URL(url, 'http://x').pathname;
  const where = `${method} ${path.length > 120 ? `${path.slice(0, 120)}…` : path} → ${status}`;
  if (!headers.get('x-request-id')) throw new Error(`${where}: no X-Request-Id`);
  const def = routes.find((r) => r.method === method && matches(r, path));
  let response: ResponseObject | undefined;
  let key: string;
  if (def) {
    const op = doc.paths?.[def.path]?.[def.method.toLowerCase() as 'get'];
    response = op?.responses?.[String(status)] as ResponseObject | undefined;
    if (!response) throw new Error(`${where}: status ${status} is not declared for ${def.operationId}`);
    key = `${def.operationId}:${status}`;
    for (const name of Object.keys(response.headers ?? {})) {
      if (headers.get(name) === null) throw new Error(`${where}: declared header ${name} is missing`);
    }
  } else {
    // Unknown routes and wrong methods: only the error envelope is possible.
    if (status < 400) return;
    response = { description: 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    key = 'unrouted-error';
  }
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(rebase(schema) as object);
    validators.set(key, validate);
  }
  if (!validate(body)) {
    const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    throw new Error(`${where}: body does not match the document:\n  ${problems.join('\n  ')}`);
  }
}
