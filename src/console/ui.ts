// The live console at /__admin/ui: a page and its bundle (ui/, built by esbuild into
// dist/console/ at `npm run build`), served from the package's files, never from another host.
// The page and bundle are static and public; every figure it shows comes from the control plane,
// behind --admin-token when one is set (the page asks for it). Nothing here runs unless the page
// is requested: the API's requests never pass through it.

import { readShipped, shippedExists } from '../shipped.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { httpDate } from '../http/respond.js';
import { CONVERSATION_CONSOLE_ROUTES } from './conversations.js';
import { listApps } from './apps.js';
import { listBulkJobs } from './jobs.js';
import { PERSON_CONSOLE_ROUTES } from './person.js';
import { RECORD_ROUTES } from './records.js';
import { tailRequests } from './traffic.js';
import { listDeliveries } from './webhooks.js';

export const CONSOLE_ROUTES = [listApps, ...RECORD_ROUTES, ...CONVERSATION_CONSOLE_ROUTES, tailRequests, ...PERSON_CONSOLE_ROUTES, listBulkJobs, listDeliveries];

export const CONSOLE_PATH = '/__admin/ui';
/** Paths the console serves beside the registry (the page and its files); not API operations. */
export const CONSOLE_PATHS = [CONSOLE_PATH, `${CONSOLE_PATH}/:file`];

const ASSETS: Record<string, string> = {
  'console.js': 'application/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
};

/**
 * Where the bundle is: dist/console beside the compiled server (dist/src/console → dist/console), or,
 * when the server runs from source (tests, `npm run dev`), the build's dist/console.
 */
export function consoleDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const beside = join(here, '..', '..', 'console');
  return shippedExists(join(beside, 'console.js')) ? beside : join(here, '..', '..', 'dist', 'console');
}

// Nothing but this origin: a record field holding an outside URL (an avatar) can never be loaded.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function page(built: boolean): string {
  const body = built
    ? '<div id="root"><p class="boot">Loading the console…</p></div>\n  <script type="module" src="/__admin/ui/console.js"></script>'
    : '<main><h1>Console not built</h1><p>The console\'s bundle is missing: run <code>npm run build</code> (npm install runs it) and reload.</p></main>';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>messaging-api-mock console</title>
  <link rel="stylesheet" href="/__admin/ui/console.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  ${body}
</body>
</html>
`;
}

export function mountConsole(app: Hono, requestId: () => string, now: () => number, dir?: string): void {
  const cache = new Map<string, Buffer>();
  const headers = (type: string) => ({ 'content-type': type, date: httpDate(now()), 'x-request-id': requestId(), 'content-security-policy': CSP, 'x-content-type-options': 'nosniff' });
  const read = (file: string): Buffer | undefined => {
    let body = cache.get(file);
    if (body) return body;
    try {
      body = readShipped(join(dir ?? consoleDir(), file));
    } catch {
      return undefined;
    }
    cache.set(file, body);
    return body;
  };
  app.get(CONSOLE_PATH, (c) => c.body(page(read('console.js') !== undefined), 200, { ...headers('text/html; charset=utf-8'), 'cache-control': 'no-store' }));
  app.get(`${CONSOLE_PATH}/:file`, (c) => {
    const file = c.req.param('file');
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    const body = type ? read(file) : undefined;
    if (!type || !body) return c.notFound();
    return c.body(new Uint8Array(body), 200, { ...headers(type), 'cache-control': 'no-cache' });
  });
}
