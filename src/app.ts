// createApp: the Hono app over a store. It never listens; src/server.ts does that, and tests call
// app.request() directly.

import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { ApiError, apiError } from './core/errors.js';
import { DEFAULT_BODY_LIMIT } from './http/body.js';
import { mountDocs } from './http/docs.js';
import { mountConsole } from './console/ui.js';
import { checkUrlLength, createHandler, splitUrl } from './http/pipeline.js';
import { errorResponse, httpDate } from './http/respond.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, installDelivery, type WebhookHosts } from './resources/subscriptions/delivery.js';
import { ROUTES } from './resources/index.js';
import { pathPattern, type Method, type RouteDef } from './http/route.js';
import type { Store } from './state/store.js';
import { isLaterVersionPath, versionUnavailable } from './core/versions.js';
import { nodeRequestOf } from './http/read-incoming.js';
import { foldSlashes } from './http/slashes.js';
import { hostChecker, type GuardOptions } from './http/origin-guard.js';
import { requestLogger, type RequestLogOptions } from './http/request-log.js';

export interface AppOptions {
  store: Store;
  /** Largest request body accepted, in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** Where unexpected errors are reported; defaults to stderr. */
  log?: (message: string, error?: unknown) => void;
  /** The routes to mount; defaults to every route of the registry. */
  routes?: readonly RouteDef[];
  /** When set, /__admin answers only requests carrying it in X-Admin-Token. */
  adminToken?: string;
  /** Where the live console's bundle is (default: dist/console of the package, see console/ui.ts). */
  consoleDir?: string;
  /** Where webhooks may go: loopback addresses (default) or any host (--webhook-hosts any). */
  webhookHosts?: WebhookHosts;
  /** Per-attempt timeout of a webhook delivery (default 5000 ms). */
  webhookTimeoutMs?: number;
  /** Answer browsers' cross-origin requests and OPTIONS preflights (off: the real API is not for browsers); never on /__admin. */
  cors?: boolean;
  /** Which Host names it answers to and which other origins' pages may change /__admin (http/origin-guard.ts). */
  guard?: GuardOptions;
  /** A line per request (--log-requests, http/request-log.ts); off when absent. */
  requestLog?: RequestLogOptions;
}


/** What a browser app may send and read under --cors. */
const CORS = {
  origin: '*',
  allowMethods: ['GET', 'POST', 'PUT', 'DELETE'],
  allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Admin-Token', 'Intercom-Version', 'X-Mock-Strict'],
  exposeHeaders: ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Allow', 'Retry-After', 'X-Mock-Warning'],
  maxAge: 600,
};

/** The real API's answer to a path it never had (surface §0.7). */
export const UNKNOWN_PATH_MESSAGE = 'The requested resource does not exist; check your path and try again';

const honoPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');

interface PathMatcher {
  pattern: RegExp;
  methods: Method[];
}

function matchers(routes: readonly RouteDef[]): PathMatcher[] {
  const byPath = new Map<string, Method[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r.method]);
  return [...byPath].map(([path, methods]) => ({
    pattern: pathPattern(path),
    methods,
  }));
}

/** At most one document per version (and one for all), built on first request. */
function cached<T>(map: Map<string, T>, key: string, make: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

export function createApp(options: AppOptions): Hono {
  const { store } = options;
  const routes = options.routes ?? ROUTES;
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[mock] ${message}`, error ?? ''));
  const pipeline = { store, bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT, log, adminToken: options.adminToken, guard: options.guard ?? {} };
  installDelivery(store, { hosts: options.webhookHosts ?? 'loopback', timeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS });
  // strict: false routes `/users/` as `/users` (one trailing slash; Python and PHP clients send it).
  const app = new Hono({ strict: false });
  if (options.cors) {
    const allow = cors(CORS);
    // A preflight is answered by the middleware alone; it still carries the mock's Date and a request id.
    app.use('*', async (c, next) => {
      // The control plane is never opened to other origins' pages.
      // The path as the router reads it (decoded: `/%5F_admin` is the control plane too).
      if (c.req.path.startsWith('/__admin')) {
        await next();
        return undefined;
      }
      const preflight = await allow(c, next);
      if (preflight instanceof Response) {
        preflight.headers.set('x-request-id', store.nextRequestId());
        preflight.headers.set('date', httpDate(store.now()));
        return preflight;
      }
      return undefined;
    });
  }

  for (const def of routes) {
    const handle = createHandler(def, pipeline);
    app.on(def.method, honoPath(def.path), (c) => handle({ request: c.req.raw, params: c.req.param() as Record<string, string>, node: nodeRequestOf(c.env) }));
  }

  // The document (openapi3-ts, yaml) loads on first request, not at start-up.
  const documents = new Map<string, Promise<OpenAPIObject>>();
  const demo = store.app('demo') ?? store.app(store.appIds()[0] ?? '');
  mountDocs(app, (version) => cached(documents, version ?? '', () => import('./openapi.js').then((m) => m.buildDocument(routes, undefined, version))), demo?.config.tokens[0] ?? '', () => store.nextRequestId(), () => store.now());

  mountConsole(app, () => store.nextRequestId(), () => store.now(), options.consoleDir);

  const paths = matchers(routes);
  /** The router's own dispatch; app.fetch becomes the guarded one below. */
  const dispatch = app.fetch;
  app.notFound((c) => {
    try {
      checkUrlLength(c.req.url);
    } catch (err) {
      return errorResponse(err as ApiError, store.nextRequestId(), store.now());
    }
    const { pathname } = splitUrl(c.req.url);
    const folded = foldSlashes(c.req.raw, pathname);
    // Routed again by the router itself: the Host check and the request log saw the request once.
    if (folded) return dispatch(folded, c.env);
    const requestId = store.nextRequestId();
    if (isLaterVersionPath(c.req.method, pathname)) return errorResponse(versionUnavailable(), requestId, store.now());
    const allowed = paths.find((m) => m.pattern.test(pathname))?.methods;
    if (allowed && !allowed.includes(c.req.method as Method)) {
      const error = new ApiError(
        { code: 'method_not_allowed', message: `${c.req.method} is not allowed on ${pathname}; allowed: ${allowed.join(', ')}.` },
        { allow: allowed.join(', ') },
      );
      return errorResponse(error, requestId, store.now());
    }
    return errorResponse(apiError('not_found', UNKNOWN_PATH_MESSAGE), requestId, store.now());
  });

  app.onError((err) => {
    const requestId = store.nextRequestId();
    if (err instanceof ApiError) return errorResponse(err, requestId, store.now());
    log(`unexpected error (request ${requestId})`, err);
    return errorResponse(apiError('server_error', 'An unexpected error occurred; the mock keeps serving.'), requestId, store.now());
  });

  // The Host check comes before any route, the docs and the console: a plain check in front of the
  // dispatch rather than a middleware, which would put an async step on every request.
  const checkHost = hostChecker(options.guard ?? {});
  const logRequest = options.requestLog ? requestLogger(store, options.requestLog) : undefined;
  const guarded = (request: Request, env?: unknown, ctx?: Parameters<typeof app.fetch>[2]): Response | Promise<Response> => {
    const refusal = checkHost(request);
    return refusal ? errorResponse(refusal, store.nextRequestId(), store.now()) : dispatch(request, env, ctx);
  };
  app.fetch = !logRequest
    ? guarded
    : (request, env, ctx) => {
        const started = performance.now();
        const done = (response: Response): Response => {
          logRequest(request, response, performance.now() - started);
          return response;
        };
        const answer = guarded(request, env, ctx);
        return answer instanceof Promise ? answer.then(done) : done(answer);
      };
  return app;
}
