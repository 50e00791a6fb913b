// The document and its viewer: GET /openapi.json (and .yaml) with the server URL set to the
// request's origin, and GET /docs, Swagger UI served from the swagger-ui-dist package, so the page
// works offline and makes no request to any other host.

import { createRequire } from 'node:module';
import { EMBEDDED, readShipped, SHIPPED_ROOT } from '../shipped.js';
import { dirname, join } from 'node:path';
import type { Hono } from 'hono';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { ApiError } from '../core/errors.js';
import { CONSOLE_PATH, CONSOLE_PATHS } from '../console/ui.js';
import { packageVersion } from '../version.js';
import { invalidVersion, isApiVersion, SERVED_VERSIONS, type ApiVersion } from '../core/versions.js';
import { errorResponse, httpDate } from './respond.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** swagger-ui-dist's files: the installed package, or (in the executable) its copy inside. */
const uiDir = (): string => (EMBEDDED ? `${SHIPPED_ROOT}swagger-ui` : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')));

function page(demoToken: string, version: ApiVersion | undefined): string {
  const options = ['', ...SERVED_VERSIONS].map((v) => `<option value="${v}"${v === (version ?? '') ? ' selected' : ''}>${v === '' ? 'every version' : v}</option>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Customer messaging API mock: docs</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  <p style="font: 14px sans-serif; margin: 8px 20px"><a href="${CONSOLE_PATH}">Live console</a>: the apps, records, requests and faults of this mock ·
    <label>API version <select id="api-version" onchange="location.search = this.value ? '?version=' + this.value : ''">${options}</select></label></p>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: ${JSON.stringify(version === undefined ? '/openapi.json' : `/openapi.json?version=${version}`)},
      dom_id: '#swagger-ui',
      deepLinking: true,
      layout: 'BaseLayout',
      persistAuthorization: false,
      onComplete: function () { window.ui.preauthorizeApiKey('bearerAuth', ${JSON.stringify(demoToken)}); },
    });
  </script>
</body>
</html>
`;
}

/** `?version=` of the document requests: absent or empty is every version. */
function versionOf(value: string | null): ApiVersion | undefined {
  if (value === null || value === '') return undefined;
  if (!isApiVersion(value)) throw invalidVersion(value);
  return value;
}

/** Paths the docs own; they are not operations of the API and are left out of the document. */
export const DOC_PATHS = ['/', '/openapi.json', '/openapi.yaml', '/docs', '/docs/:file', ...CONSOLE_PATHS];

/** `now` is the mock's clock (Unix seconds), for the Date header. */
export function mountDocs(app: Hono, document: (version?: ApiVersion) => Promise<OpenAPIObject>, demoToken: string, requestId: () => string, now: () => number): void {
  const cache = new Map<string, Buffer>();
  const forOrigin = async (url: string): Promise<OpenAPIObject> => {
    const parsed = new URL(url);
    return { ...(await document(versionOf(parsed.searchParams.get('version')))), servers: [{ url: parsed.origin }] };
  };
  const refused = (err: unknown): Response => {
    if (err instanceof ApiError) return errorResponse(err, requestId(), now());
    throw err;
  };
  const headers = (type: string) => ({ 'content-type': type, date: httpDate(now()), 'x-request-id': requestId() });

  app.get('/openapi.json', async (c) => {
    try {
      return c.body(JSON.stringify(await forOrigin(c.req.url), null, 2), 200, headers('application/json; charset=utf-8'));
    } catch (err) {
      return refused(err);
    }
  });
  app.get('/openapi.yaml', async (c) => {
    try {
      const doc = await forOrigin(c.req.url);
      const { stringify } = await import('yaml');
      return c.body(stringify(doc), 200, headers('application/yaml; charset=utf-8'));
    } catch (err) {
      return refused(err);
    }
  });
  // What someone who opens the base URL needs: where the docs, the document and the probe are.
  app.get('/', (c) => {
    const origin = new URL(c.req.url).origin;
    const index = {
      name: 'messaging-api-mock',
      description: 'A stateful mock of the v1-era customer-messaging REST API. Send API requests with Authorization: Bearer <token>.',
      version: packageVersion(),
      docs: `${origin}/docs`,
      openapi: `${origin}/openapi.json`,
      openapi_yaml: `${origin}/openapi.yaml`,
      health: `${origin}/__admin/health`,
      demo_token: demoToken,
    };
    return c.body(`${JSON.stringify(index, null, 2)}\n`, 200, headers('application/json; charset=utf-8'));
  });
  app.get('/docs', (c) => {
    try {
      return c.body(page(demoToken, versionOf(c.req.query('version') ?? null)), 200, headers('text/html; charset=utf-8'));
    } catch (err) {
      return refused(err);
    }
  });
  app.get('/docs/:file', (c) => {
    const file = c.req.param('file');
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) return c.notFound();
    let body = cache.get(file);
    if (!body) {
      body = readShipped(join(uiDir(), file));
      cache.set(file, body);
    }
    return c.body(new Uint8Array(body), 200, { ...headers(type), 'cache-control': 'public, max-age=3600' });
  });
}
