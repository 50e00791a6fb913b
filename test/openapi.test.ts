import { readFileSync } from 'node:fs';
import { BaseResolver, createConfig, lintDocument, Source } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { DOC_PATHS } from '../src/http/docs.js';
import { buildDocument, documentJson } from '../src/openapi.js';
import { ROUTES } from '../src/resources/index.js';
import { appRoute } from '../src/http/route.js';
import { obj, str } from '../src/schemas/json-schema.js';
import { checkContract } from './contract.js';
import { mock } from './helpers.js';

const COMMITTED = new URL('../openapi/openapi.json', import.meta.url);

describe('the OpenAPI document', () => {
  it('is committed and fresh: openapi/openapi.json equals the generated one (run `npm run openapi`)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(documentJson(buildDocument()));
  });

  it('is byte-stable across builds', () => {
    expect(documentJson(buildDocument())).toBe(documentJson(buildDocument()));
  });

  it('passes an OpenAPI 3.1 validator', async () => {
    const result = await new Validator().validate(buildDocument() as any);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("passes Redocly's recommended lint rules (and info-contact) with no error and no warning", async () => {
    const text = documentJson(buildDocument());
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-contact': 'warn' } });
    const problems = await lintDocument({ document: { source: new Source('openapi.json', text), parsed: JSON.parse(text) }, config, externalRefResolver: new BaseResolver() });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
  });

  it('gives every tag a description', () => {
    expect(buildDocument().tags?.filter((t) => !t.description)).toEqual([]);
  });

  it('documents every mounted route and mounts every documented operation', () => {
    const { app } = mock();
    const mounted = new Set(
      app.routes.filter((r) => r.method !== 'ALL' && !DOC_PATHS.includes(r.path)).map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, '{$1}')}`),
    );
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(buildDocument().paths ?? {})) {
      for (const method of ['get', 'post', 'put', 'delete', 'patch']) if ((item as any)[method]) documented.add(`${method.toUpperCase()} ${path}`);
    }
    expect([...mounted].sort()).toEqual([...documented].sort());
  });

  it('gives every operation an operationId, summary, description and its error responses', () => {
    const doc = buildDocument();
    const ids = new Set<string>();
    for (const item of Object.values(doc.paths ?? {})) {
      for (const op of Object.values(item as Record<string, any>)) {
        expect(op.operationId).toMatch(/^[a-zA-Z]+$/);
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        expect(op.summary.length).toBeGreaterThan(3);
        expect(op.description.length).toBeGreaterThan(10);
        expect(op.responses['500']).toBeDefined();
        const app = op.security.some((s: object) => 'bearerAuth' in s);
        if (app) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '406', '429']));
        const success = Object.keys(op.responses).find((status) => status.startsWith('2')) as string;
        if (app) expect(Object.keys(op.responses[success].headers)).toEqual(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
      }
    }
    expect(ids.size).toBe(ROUTES.length);
  });

  it('names a component schema for every resource of the spec', () => {
    const names = Object.keys(buildDocument().components?.schemas ?? {});
    for (const name of ['User', 'Lead', 'Visitor', 'Company', 'Tag', 'Count', 'DataAttribute', 'Admin', 'Team', 'Conversation', 'ConversationPart', 'Pages', 'Error']) {
      expect(names).toContain(name);
    }
    expect(JSON.stringify(buildDocument().paths?.['/users']?.post?.responses?.['200'])).toContain('"#/components/schemas/User"');
  });

  it('declares both auth schemes (and the optional control-plane token) and keeps the control plane under its own tag', () => {
    const doc = buildDocument();
    expect(doc.components?.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <token>' },
      basicAuth: { type: 'http', scheme: 'basic', description: 'The token as user name, empty password' },
      adminToken: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Admin-Token',
        description: 'Needed on the control plane only when the mock was started with --admin-token',
      },
    });
    expect(doc.tags?.at(-1)?.name).toBe('Control plane');
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const tags = Object.values(item as Record<string, any>).map((op) => op.tags[0]);
      for (const tag of tags) expect(tag === 'Control plane').toBe(path.startsWith('/__admin'));
    }
  });
});

describe('serving the document', () => {
  it('answers GET /openapi.json with the server URL set to the request origin', async () => {
    const res = await mock({ guard: { allowedHosts: ['mock.test'] } }).app.request('http://mock.test:9999/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const doc = (await res.json()) as any;
    expect(doc.servers).toEqual([{ url: 'http://mock.test:9999' }]);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(Object.keys(buildDocument().paths ?? {}));
  });

  it('answers GET /openapi.yaml with the same document in YAML', async () => {
    const res = await mock({ guard: { allowedHosts: ['mock.test'] } }).app.request('http://mock.test/openapi.yaml');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^openapi: 3\.1\.0$/m);
    expect(text).toContain('url: http://mock.test');
  });

  it('answers GET / with a JSON index pointing to the docs page, the document and the probe, from the request\'s origin', async () => {
    const res = await mock({ guard: { allowedHosts: ['mock.test'] } }).app.request('http://mock.test:4010/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-z]{20}$/);
    const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect(await res.json()).toEqual({
      name: 'messaging-api-mock',
      description: 'A stateful mock of the v1-era customer-messaging REST API. Send API requests with Authorization: Bearer <token>.',
      version,
      docs: 'http://mock.test:4010/docs',
      openapi: 'http://mock.test:4010/openapi.json',
      openapi_yaml: 'http://mock.test:4010/openapi.yaml',
      health: 'http://mock.test:4010/__admin/health',
      demo_token: 'demo-token',
    });
  });

  it('serves the docs page and its assets from the package, referring to no other host', async () => {
    const m = mock();
    const page = await m.app.request('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js']) {
      expect(html).toContain(asset);
      const res = await m.app.request(asset);
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    const missing = await m.app.request('/docs/../package.json');
    expect(missing.status).toBe(404);
    expect((await m.app.request('/docs/index.html')).status).toBe(404);
  });
});

describe('the contract check on responses', () => {
  const liar = appRoute({
    method: 'GET',
    path: '/liar',
    operationId: 'liar',
    summary: 'test route',
    description: 'Answers a body its schema does not allow.',
    tag: 'test',
    response: { status: 200, description: 'x', schema: obj({ name: str() }, ['name']) },
    errors: [],
    // The compiler would refuse this body; the run-time check is what this test pins.
    handler: () => ({ body: { name: 42 } as unknown as { name: string } }),
  });

  it('fails a response whose body breaks the declared schema', async () => {
    const m = mock({ routes: [...ROUTES, liar] });
    await expect(m.call('GET', '/liar')).rejects.toThrow(/body does not match the document/);
  });

  it('fails a status the operation does not declare', () => {
    const headers = new Headers({ 'x-request-id': 'a'.repeat(20) });
    expect(() => checkContract('GET', '/admins', 418, headers, {})).toThrow(/status 418 is not declared for listAdmins/);
  });

  it('fails a response missing a declared header', () => {
    const headers = new Headers({ 'x-request-id': 'a'.repeat(20) });
    expect(() => checkContract('GET', '/admins', 200, headers, { type: 'admin.list', admins: [] })).toThrow(/X-RateLimit-Limit is missing/);
  });
});
