// The docs page's "Try it out" works without edits: every path parameter, query parameter and
// request body in the document carries an example, and each operation sent exactly as the page
// pre-fills it (every example filled in, the demo token) gets the operation's success status.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDir } from '../src/data-dir/state-files.js';
import type { OperationObject, ParameterObject, RequestBodyObject } from 'openapi3-ts/oas31';
import { buildDocument } from '../src/openapi.js';
import { ROUTES } from '../src/resources/index.js';
import type { RouteDef } from '../src/http/route.js';
import { mock, type TestMock } from './helpers.js';

const doc = buildDocument();
const operationOf = (def: RouteDef) => doc.paths![def.path]![def.method.toLowerCase() as 'get'] as OperationObject;

/** The request the docs page sends for an operation, every example filled in. */
function send(m: TestMock, def: RouteDef) {
  const op = operationOf(def);
  let path = def.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of (op.parameters ?? []) as ParameterObject[]) {
    if (p.in === 'header') headers[p.name] = String(p.example);
    else if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
    // An example left blank is not sent, as on the docs page.
    else if (p.example !== '') query.set(p.name, String(p.example));
  }
  const body = (op.requestBody as RequestBodyObject | undefined)?.content['application/json']?.example;
  const url = query.size > 0 ? `${path}?${query}` : path;
  return m.call(def.method, url, { headers, ...(body === undefined ? {} : { body }), ...(def.scope === 'admin' ? { token: null } : {}) });
}

describe('examples in the OpenAPI document', () => {
  it('every operation in the registry has its examples, and no example names an operation or member that is not there', () => {
    const ids = new Set(ROUTES.map((r) => r.operationId));
    expect(ROUTES.filter((r) => r.exampleAfter !== undefined && !ids.has(r.exampleAfter)).map((r) => r.operationId)).toEqual([]);
    for (const def of ROUTES) {
      const examples = def.examples ?? {};
      expect(Object.keys(examples.params ?? {}).sort(), def.operationId).toEqual(Object.keys(def.params ?? {}).sort());
      expect(Object.keys(examples.query ?? {}).sort(), def.operationId).toEqual(Object.keys(def.query?.properties ?? {}).sort());
      expect(examples.body !== undefined, def.operationId).toBe(def.body !== undefined);
    }
  });

  it('carries one on every parameter and request body', () => {
    const missing: string[] = [];
    for (const def of ROUTES) {
      const op = operationOf(def);
      for (const p of (op.parameters ?? []) as ParameterObject[]) if (p.example === undefined) missing.push(`${def.operationId} ${p.in} ${p.name}`);
      const body = (op.requestBody as RequestBodyObject | undefined)?.content['application/json'];
      if (body && body.example === undefined) missing.push(`${def.operationId} body`);
    }
    expect(missing).toEqual([]);
  });

  it.each(ROUTES.map((def) => [def.operationId, def] as const))('%s answers its success status when sent as the docs page fills it', async (_id, def) => {
    const m = mock();
    // Saving needs a mock started with --data-dir, as the operation's description says.
    if (def.operationId === 'adminSave') {
      const dataDir = new DataDir(mkdtempSync(join(tmpdir(), 'mock-examples-')), m.store);
      m.store.saver = () => dataDir.save();
    }
    const first = def.exampleAfter;
    if (first) {
      const before = ROUTES.find((r) => r.operationId === first)!;
      expect((await send(m, before)).status).toBe(before.response.status);
    }
    const res = await send(m, def);
    expect(res.status, JSON.stringify(res.body)).toBe(def.examples?.status ?? def.response.status);
  });
});
