// What every request goes through, in one function per route rather than a chain of middleware
// (each layer of which every request would pay for): request id, auth, rate limit, negotiation,
// body, validation, the handler, and the one error writer.

import { ApiError, apiError, type ErrorItem } from '../core/errors.js';
import type { AdminInput, AppInput, AppRoute, AdminRoute, RequestInput, RouteDef, RouteResult } from '../routes/route.js';
import { paramsObject } from '../schemas/json-schema.js';
import { validate } from '../schemas/validate.js';
import type { AppState } from '../store/app-state.js';
import type { Store } from '../store/store.js';
import { tokenFrom, tokenInvalid } from './auth.js';
import { readJsonBody, type JsonBody } from './body.js';
import { checkAccept } from './negotiate.js';
import { errorResponse, jsonResponse, type RateInfo } from './respond.js';

export interface PipelineOptions {
  store: Store;
  bodyLimit: number;
  log: (message: string, error?: unknown) => void;
  /** When set, control-plane requests must carry it in X-Admin-Token. */
  adminToken?: string | undefined;
}

/** Longer URLs are refused before anything else is read. */
export const MAX_URL_LENGTH = 8192;

export function checkUrlLength(url: string): void {
  if (url.length > MAX_URL_LENGTH) throw apiError('uri_too_long', `The URL is longer than ${MAX_URL_LENGTH} characters.`);
}

export function isAdminAllowed(request: Request, adminToken: string | undefined): boolean {
  return adminToken === undefined || request.headers.get('x-admin-token') === adminToken;
}

/** What the framework adapter hands the pipeline: the raw request and the matched path params. */
export interface Incoming {
  request: Request;
  params: Record<string, string>;
}

const NO_QUERY: Readonly<Record<string, unknown>> = Object.freeze({});

/** The parts of a request URL the pipeline reads. */
export interface UrlParts {
  /** scheme://host[:port] */
  origin: string;
  pathname: string;
  /** `?…`, or empty */
  search: string;
}

/**
 * Splits the absolute URL the adapter hands over (already normalised: @hono/node-server passes a
 * URL through only when it is in canonical form, and re-serialises it through `URL` otherwise), so
 * no URL object is built per request. Anything unusual still goes through `URL`.
 */
export function splitUrl(href: string): UrlParts {
  const scheme = href.indexOf('://');
  const slash = scheme < 0 ? -1 : href.indexOf('/', scheme + 3);
  if (slash < 0 || href.includes('#')) {
    const url = new URL(href);
    return { origin: url.origin, pathname: url.pathname, search: url.search };
  }
  const q = href.indexOf('?', slash);
  if (q < 0) return { origin: href.slice(0, slash), pathname: href.slice(slash), search: '' };
  return { origin: href.slice(0, slash), pathname: href.slice(slash, q), search: q === href.length - 1 ? '' : href.slice(q) };
}

function queryOf(url: UrlParts): Record<string, unknown> {
  if (url.search === '') return NO_QUERY;
  // fromEntries defines own properties, so a `__proto__` parameter cannot reach a prototype.
  const seen = new Set<string>();
  const entries: [string, string][] = [];
  for (const [k, v] of new URLSearchParams(url.search)) {
    if (seen.has(k)) continue; // the first of repeated parameters wins
    seen.add(k);
    entries.push([k, v]);
  }
  return Object.fromEntries(entries);
}

function check(def: RouteDef, input: RequestInput): void {
  const problems: ErrorItem[] = [];
  const add = (list: ReturnType<typeof validate>, prefix = '') => {
    for (const p of list) {
      const field = prefix && p.path ? `${prefix}.${p.path}` : p.path || prefix;
      problems.push({ code: p.kind === 'missing' ? 'parameter_not_found' : 'parameter_invalid', message: p.message, ...(field ? { field } : {}) });
    }
  };
  if (def.params) add(validate(paramsObject(def.params), input.params));
  if (def.query) add(validate(def.query, input.query, true));
  if (def.body) add(validate(def.body, input.body));
  if (problems.length > 0) throw new ApiError(problems);
}

function buildInput<A>(def: RouteDef, incoming: Incoming, url: UrlParts, query: Record<string, unknown>, store: Store, body: Record<string, unknown>, app: A): RequestInput & { app: A } {
  const input = {
    store,
    params: incoming.params,
    // Validation coerces the query in place; the caller's copy stays as sent, for the journal.
    query: query === NO_QUERY ? {} : { ...query },
    body,
    origin: url.origin,
    path: url.pathname,
    app,
  };
  check(def, input);
  return input;
}

function success(result: RouteResult, requestId: string, rate: RateInfo | null): Response {
  return jsonResponse(result.status ?? 200, result.body, requestId, rate, result.headers);
}

export function createHandler(def: RouteDef, options: PipelineOptions): (incoming: Incoming) => Response | Promise<Response> {
  const { store, bodyLimit, log } = options;
  const fail = (err: unknown, requestId: string, rate: RateInfo | null): Response => {
    if (err instanceof ApiError) return errorResponse(err, requestId, rate);
    log(`unexpected error in ${def.operationId} (request ${requestId})`, err);
    return errorResponse(apiError('server_error', 'An unexpected error occurred; the mock keeps serving.'), requestId, rate);
  };

  if (def.scope === 'app') {
    const route: AppRoute = def;
    const hasBody = route.method !== 'GET';
    // Reads never write, so only writes pay for the undo log.
    const run = hasBody ? (input: AppInput) => input.app.transaction(() => route.handler(input)) : route.handler;
    // A read answers synchronously (no promise to wait on); only a body or injected latency waits.
    return (incoming) => {
      const url = splitUrl(incoming.request.url);
      const query = queryOf(url);
      let app: AppState | undefined;
      try {
        checkUrlLength(incoming.request.url);
        app = store.appForToken(tokenFrom(incoming.request.headers.get('authorization') ?? undefined));
        if (!app) throw tokenInvalid();
      } catch (err) {
        const requestId = store.nextRequestId();
        const response = fail(err, requestId, null);
        record(store, undefined, route, incoming, url.pathname, query, requestId, null, response.status, undefined);
        return response;
      }
      // From the app's own stream, which its reset, seed and restore rewind.
      const requestId = store.nextRequestId(app);
      const target = app;
      const effects = store.faults.effects({ app: app.id, operationId: route.operationId, method: route.method, path: url.pathname });

      const answer = (rate: RateInfo | null, body: JsonBody | null, failure?: unknown): Response => {
        let result: RouteResult | undefined;
        let response: Response;
        try {
          if (failure !== undefined) throw failure;
          result = run(buildInput(route, incoming, url, query, store, body?.value ?? {}, target));
          response = success(result, requestId, rate);
        } catch (err) {
          response = fail(err, requestId, rate);
        }
        record(store, target, route, incoming, url.pathname, query, requestId, body, response.status, result);
        return response;
      };

      const admit = (): Response | Promise<Response> => {
        const decision = store.takeOperation(target);
        const forced = effects.rateLimit && decision.allowed ? { ...decision, allowed: false, remaining: 0 } : decision;
        const rate = effects.dropRateLimitHeaders ? null : forced;
        try {
          if (!forced.allowed) throw apiError('rate_limit_exceeded', `Exceeded rate limit of ${forced.limit} in 10_seconds`);
          checkAccept(incoming.request.headers.get('accept') ?? undefined);
          if (effects.error) throw apiError(effects.error, `Injected fault: ${effects.error}`);
          store.touch(target);
        } catch (err) {
          return answer(rate, null, err);
        }
        if (!hasBody) return answer(rate, null);
        return readJsonBody(incoming.request, bodyLimit).then(
          (body) => answer(rate, body),
          (err: unknown) => answer(rate, null, err),
        );
      };

      return effects.latencyMs > 0 ? sleep(effects.latencyMs).then(admit) : admit();
    };
  }

  const route: AdminRoute = def;
  return async (incoming) => {
    const requestId = store.nextRequestId();
    try {
      checkUrlLength(incoming.request.url);
      if (!isAdminAllowed(incoming.request, options.adminToken)) {
        throw apiError('unauthorized', 'The control plane needs its token: send X-Admin-Token.');
      }
      checkAccept(incoming.request.headers.get('accept') ?? undefined);
      const url = splitUrl(incoming.request.url);
      const body = route.method === 'GET' ? {} : (await readJsonBody(incoming.request, bodyLimit)).value;
      const input: AdminInput = buildInput(route, incoming, url, queryOf(url), store, body, undefined);
      input.app = targetApp(store, input, incoming.request);
      if (input.app) store.touch(input.app);
      return success(route.handler(input), requestId, null);
    } catch (err) {
      return fail(err, requestId, null);
    }
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Ids a request named (path parameters) or got back (the response's own id). */
function touched(params: Record<string, string>, result: RouteResult | undefined): string[] {
  const out = Object.values(params);
  const id = (result?.body as { id?: unknown } | undefined)?.id;
  if (typeof id === 'string' && !out.includes(id)) out.push(id);
  return out;
}

function record(
  store: Store,
  app: AppState | undefined,
  route: RouteDef,
  incoming: Incoming,
  path: string,
  query: Record<string, unknown>,
  requestId: string,
  body: JsonBody | null,
  status: number,
  result: RouteResult | undefined,
): void {
  const entry = {
    seq: store.nextJournalSeq(),
    time: store.now(),
    app: app?.id ?? null,
    request_id: requestId,
    method: route.method,
    path,
    query,
    body: body === null ? null : body.value,
    status,
    operationId: route.operationId,
    touched: touched(incoming.params, result),
  };
  (app?.journal ?? store.anonymousJournal).add(entry, body === null ? 0 : body.chars);
}

/** The app a control-plane request is about: `?app=<id>`, or the app whose token it carries. */
function targetApp(store: Store, input: RequestInput, request: Request): AppState | undefined {
  const named = input.query.app;
  if (typeof named === 'string' && named !== '') {
    const app = store.app(named);
    if (!app) throw apiError('not_found', `No app "${named.slice(0, 100)}"`, 'app');
    return app;
  }
  const header = request.headers.get('authorization');
  if (header === null || header.trim() === '') return undefined;
  const app = store.appForToken(tokenFrom(header));
  if (!app) throw tokenInvalid();
  return app;
}
