// What every request goes through, in one function per route rather than a chain of middleware
// (each layer of which every request would pay for): request id, auth, rate limit, negotiation,
// body, validation, the handler, and the one error writer.

import type { IncomingMessage } from 'node:http';
import { ApiError, apiError, wireCode, type ErrorItem } from '../core/errors.js';
import { routedPath, type AdminInput, type AppInput, type AppRoute, type AdminRoute, type RequestInput, type RouteDef, type RouteResult } from './route.js';
import { parseQuery } from '../core/query-string.js';
import { paramsObject } from '../schemas/json-schema.js';
import { MAX_PROBLEMS, validate } from '../schemas/validate.js';
import type { AppState } from '../state/app-state.js';
import { inRange, requestVersion, VERSION_HEADER, versionUnavailable, type ApiVersion } from '../core/versions.js';
import { checkVersionedRequest, versionedResult } from '../views/versions.js';
import type { Store } from '../state/store.js';
import { tokenFrom, tokenInvalid } from './auth.js';
import { CLIENT_CLOSED_STATUS, ClientClosedError, readJsonBody, type JsonBody } from './body.js';
import { checkAccept } from './negotiate.js';
import { dropEchoes, ignoreUndeclared, mergeDeleteBody } from './parameters.js';
import { checkLeniently } from './leniency.js';
import { RequestWarnings, readFlag } from '../core/warnings.js';
import { checkAdminWrite, type GuardOptions } from './origin-guard.js';
import { originalPathOf } from './slashes.js';
import { errorResponse, jsonResponse, type RateInfo } from './respond.js';
import { publisher } from '../resources/subscriptions/emit.js';

export interface PipelineOptions {
  store: Store;
  bodyLimit: number;
  log: (message: string, error?: unknown) => void;
  /** When set, control-plane requests must carry it in X-Admin-Token. */
  adminToken?: string | undefined;
  /** Which other origins' pages may change the control plane (http/origin-guard.ts). */
  guard?: GuardOptions;
}

/** Longer URLs are refused before anything else is read. */
export const MAX_URL_LENGTH = 8192;

export function checkUrlLength(url: string): void {
  if (url.length > MAX_URL_LENGTH) throw uriTooLong();
}

export function isAdminAllowed(request: Request, adminToken: string | undefined): boolean {
  return adminToken === undefined || request.headers.get('x-admin-token') === adminToken;
}

/** What the framework adapter hands the pipeline: the raw request and the matched path params. */
export interface Incoming {
  request: Request;
  params: Record<string, string>;
  /** The Node request behind it, when the adapter serves one (the body is read from it). */
  node?: IncomingMessage | undefined;
}

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

function check(def: RouteDef, input: RequestInput, early: ErrorItem[], warnings: RequestWarnings | undefined): void {
  const problems: ErrorItem[] = early;
  const add = (list: ReturnType<typeof validate>, prefix = '') => {
    for (const p of list) {
      const field = prefix && p.path ? `${prefix}.${p.path}` : p.path || prefix;
      problems.push({ code: p.kind === 'missing' ? 'parameter_not_found' : 'parameter_invalid', message: p.message, ...(field ? { field } : {}) });
    }
  };
  if (def.params) add(validate(paramsObject(def.params), input.params));
  if (warnings) {
    // API operations read what the real API accepted and say what they repaired.
    if (def.query) checkLeniently(def.query, input.query, 'query', warnings, problems);
    if (def.body) checkLeniently(def.body, input.body, 'body', warnings, problems);
  } else {
    if (def.query) add(validate(def.query, input.query, true));
    if (def.body) add(validate(def.body, input.body));
  }
  // Under strict mode, what leniency would have accepted is listed with the request's other problems.
  if (problems.length > 0) throw new ApiError([...problems, ...(warnings?.refusals() ?? [])].slice(0, MAX_PROBLEMS));
}

/**
 * The query an operation reads. API routes: DELETE body members join it, echoed path parameters
 * leave it, and a parameter the route does not declare is ignored with a warning
 * (http/parameters.ts). The control plane reads its query as sent.
 */
function queryOf(def: RouteDef, incoming: Incoming, url: UrlParts, body: Record<string, unknown>, problems: ErrorItem[], warnings: RequestWarnings | undefined): Record<string, unknown> {
  const query: Record<string, unknown> = parseQuery(url.search);
  if (def.scope === 'admin' || !warnings) return query;
  const bodyIsQuery = def.method === 'DELETE' && !def.body;
  if (bodyIsQuery) mergeDeleteBody(query, body, problems);
  dropEchoes(incoming.params, query, def.method === 'GET' || bodyIsQuery ? undefined : body, problems);
  ignoreUndeclared(def.query, query, warnings);
  return query;
}

function buildInput<A>(def: RouteDef, incoming: Incoming, url: UrlParts, store: Store, body: Record<string, unknown>, app: A, warnings?: RequestWarnings): RequestInput & { app: A } {
  const problems: ErrorItem[] = [];
  const input = {
    store,
    params: incoming.params,
    // Validation coerces it in place; the journal keeps the query string as sent.
    query: queryOf(def, incoming, url, body, problems, warnings),
    body,
    origin: url.origin,
    // Page links point at the path as routed: `/users/?page=2` links to `/users?page=3`.
    path: routedPath(url.pathname),
    app,
  };
  check(def, input, problems, warnings);
  return input;
}

/** The header a request sets strict mode with, over its app's setting and the process's. */
export const STRICT_HEADER = 'x-mock-strict';

/** The response header that lists a request's warnings. */
export const WARNING_HEADER = 'x-mock-warning';

function warningsFor(store: Store, app: AppState, request: Request): RequestWarnings {
  const sent = request.headers.get(STRICT_HEADER);
  const flag = readFlag(sent);
  if (sent !== null && flag === undefined) throw apiError('parameter_invalid', 'X-Mock-Strict must be true or false (or 1 or 0).', 'X-Mock-Strict');
  return new RequestWarnings(flag ?? app.config.strict ?? store.strict, store.mutedWarnings(app));
}

function success(result: RouteResult, requestId: string, now: number, rate: RateInfo | null): Response {
  return jsonResponse(result.status ?? 200, result.body, requestId, now, rate, result.headers);
}

/** What a request whose client went away is answered with: nothing reaches anyone; the journal shows 499. */
const clientClosed = (): Response => new Response(null, { status: CLIENT_CLOSED_STATUS });

export function createHandler(def: RouteDef, options: PipelineOptions): (incoming: Incoming) => Response | Promise<Response> {
  const { store, bodyLimit, log } = options;
  const fail = (err: unknown, requestId: string, rate: RateInfo | null): Response => {
    if (err instanceof ApiError) return errorResponse(err, requestId, store.now(), rate);
    if (err instanceof ClientClosedError) return clientClosed();
    log(`unexpected error in ${def.operationId} (request ${requestId})`, err);
    return errorResponse(apiError('server_error', 'An unexpected error occurred; the mock keeps serving.'), requestId, store.now(), rate);
  };

  if (def.scope === 'app') {
    const route: AppRoute = def;
    const hasBody = route.method !== 'GET';
    // Reads never write, so only writes pay for the undo log.
    // Only an app with subscriptions pays for reading what a write changed (resources/subscriptions/emit.ts).
    const observe = (app: AppState) => (app.data.subscriptions.size > 0 ? publisher(app, store.now(), store.jobDelaySeconds) : undefined);
    const run = hasBody ? (input: AppInput) => input.app.transaction(() => route.handler(input), observe(input.app)) : route.handler;
    // A read answers synchronously (no promise to wait on); only a body or injected latency waits.
    const handle = (incoming: Incoming): Response | Promise<Response> => {
      const href = incoming.request.url;
      // Before anything is split, parsed or kept: the journal gets a short copy of the path only.
      if (href.length > MAX_URL_LENGTH) {
        const requestId = store.nextRequestId();
        const response = fail(uriTooLong(), requestId, null);
        record(store, undefined, route, NO_PARAMS, overlongTarget(href), requestId, null, response.status, undefined);
        return response;
      }
      const url = splitUrl(href);
      const target: Target = { path: url.pathname, search: url.search, original: originalPathOf(incoming.request) };
      let app: AppState | undefined;
      let token = '';
      try {
        token = tokenFrom(incoming.request.headers.get('authorization') ?? undefined);
        // A token of a document being seeded: answered by the app the seed makes.
        const pending = store.seeds.ofToken(token);
        if (pending) return pending.then(() => handle(incoming));
        app = store.appForToken(token);
        if (!app) throw tokenInvalid();
      } catch (err) {
        const requestId = store.nextRequestId();
        const response = fail(err, requestId, null);
        record(store, undefined, route, incoming.params, target, requestId, null, response.status, undefined);
        return response;
      }
      // The app is being seeded: answered once the seed is in place, by the app it made.
      const seeding = store.seeds.of(app.id);
      if (seeding) return seeding.then(() => handle(incoming));
      // From the app's own stream, which its reset, seed and restore rewind.
      const requestId = store.nextRequestId(app);
      const appState = app;
      const effects = store.faults.effects({ app: app.id, operationId: route.operationId, method: route.method, path: routedPath(url.pathname) }, app.faultRandom);

      let version: ApiVersion = appState.config.api_version;

      const answer = (rate: RateInfo | null, body: JsonBody | null, failure?: unknown): Response => {
        let result: RouteResult | undefined;
        let response: Response;
        let warnings: RequestWarnings | undefined;
        let codes: string[] | undefined;
        try {
          if (failure !== undefined) throw failure;
          warnings = warningsFor(store, appState, incoming.request);
          if (target.original !== undefined) warnings.add('path_normalized', `${target.original.slice(0, 100)} has repeated slashes: routed as ${target.path}.`);
          const input = Object.assign(buildInput(route, incoming, url, store, body?.value ?? {}, appState, warnings), { token, version, warnings });
          checkVersionedRequest(route.operationId, version, input);
          warnings.enforce();
          appState.requestWarnings = warnings;
          try {
            result = versionedResult(route.operationId, version, run(input), input);
          } finally {
            appState.requestWarnings = undefined;
          }
          response = success(result, requestId, store.now(), rate);
        } catch (err) {
          response = fail(err, requestId, rate);
          codes = err instanceof ApiError ? err.errors.map((e) => wireCode(e.code)) : undefined;
        }
        const said = warnings?.header();
        if (said !== undefined && response.status !== CLIENT_CLOSED_STATUS) response.headers.set(WARNING_HEADER, said);
        record(store, appState, route, incoming.params, target, requestId, body, response.status, result, version, warnings, codes);
        return response;
      };

      const admit = (): Response | Promise<Response> => {
        const decision = store.takeOperation(appState);
        const forced = effects.rateLimit && decision.allowed ? { ...decision, allowed: false, remaining: 0 } : decision;
        const rate = effects.dropRateLimitHeaders ? null : forced;
        try {
          if (!forced.allowed) throw apiError('rate_limit_exceeded', `Exceeded rate limit of ${forced.limit} in 10_seconds`);
          checkAccept(incoming.request.headers.get('accept') ?? undefined);
          version = requestVersion(incoming.request.headers.get(VERSION_HEADER), appState.config.api_version);
          if (!inRange(version, route.versions)) throw versionUnavailable();
          if (effects.error) throw apiError(effects.error, `Injected fault: ${effects.error}`);
          store.touch(appState);
        } catch (err) {
          return answer(rate, null, err);
        }
        if (!hasBody) return answer(rate, null);
        return readJsonBody(incoming.request, bodyLimit, incoming.node).then(
          (body) => answer(rate, body),
          (err: unknown) => answer(rate, null, err),
        );
      };

      return effects.latencyMs > 0 ? sleep(effects.latencyMs).then(admit) : admit();
    };
    return handle;
  }

  const route: AdminRoute = def;
  return async (incoming) => {
    const requestId = store.nextRequestId();
    try {
      checkUrlLength(incoming.request.url);
      // Keyed on the route, not the URL's text: `/%5F_admin/reset` routes here too.
      const foreign = checkAdminWrite(incoming.request, options.guard ?? {});
      if (foreign) throw foreign;
      if (!isAdminAllowed(incoming.request, options.adminToken)) {
        throw apiError('unauthorized', 'The control plane needs its token: send X-Admin-Token.');
      }
      checkAccept(incoming.request.headers.get('accept') ?? undefined);
      const url = splitUrl(incoming.request.url);
      const body = route.method === 'GET' ? {} : (await readJsonBody(incoming.request, bodyLimit, incoming.node)).value;
      const input: AdminInput = buildInput(route, incoming, url, store, body, undefined);
      const read = route.method === 'GET';
      // A write lands after the seeds in progress of its app (or, naming none, of every app); a
      // read shows the app as it stands, before the seed. POST /__admin/seed waits in its handler.
      if (!read && !route.seedsItself) await seedsLanded(store, input, incoming.request);
      input.app = targetApp(store, input, incoming.request, read);
      // What has fallen due on the mock's clock runs first, as for any request naming an app; a
      // preview (an unseen test_ app a GET shows) is not kept, and an app being seeded is left to
      // the seed, so nothing runs for them.
      if (input.app && !input.app.preview && !store.seeds.of(input.app.id)) store.touch(input.app);
      return success(await route.handler(input), requestId, store.now(), null);
    } catch (err) {
      return fail(err, requestId, null);
    }
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Until no seed the request's app (by `?app=` or token; every app when it names none) waits for is in progress. */
async function seedsLanded(store: Store, input: RequestInput, request: Request): Promise<void> {
  const named = typeof input.query.app === 'string' && input.query.app !== '' ? input.query.app : undefined;
  const header = request.headers.get('authorization');
  const token = header === null || header.trim() === '' ? undefined : tokenFrom(header);
  for (;;) {
    const id = named ?? (token === undefined ? undefined : store.appIdOfToken(token));
    const seeding = id !== undefined ? store.seeds.of(id) : token !== undefined ? store.seeds.ofToken(token) : store.seeds.all();
    if (!seeding) return;
    await seeding;
  }
}

/** Ids a request named (path parameters) or got back (the response's own id). */
function touched(params: Record<string, string>, result: RouteResult | undefined): string[] {
  const out = Object.values(params);
  const id = (result?.body as { id?: unknown } | undefined)?.id;
  if (typeof id === 'string' && !out.includes(id)) out.push(id);
  return out;
}

/** The path and query string a journal entry keeps. */
interface Target {
  path: string;
  search: string;
  /** The path as sent, when it had repeated slashes (http/slashes.ts). */
  original?: string | undefined;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** Journaled path of a refused over-long URL: its first characters. */
const OVERLONG_PATH_CHARS = 256;

function overlongTarget(href: string): Target {
  const scheme = href.indexOf('://');
  const slash = Math.max(0, href.indexOf('/', scheme < 0 ? 0 : scheme + 3));
  const q = href.indexOf('?', slash);
  const end = Math.min(q < 0 ? href.length : q, slash + OVERLONG_PATH_CHARS);
  return { path: href.slice(slash, end), search: '' };
}

function uriTooLong(): ApiError {
  return apiError('uri_too_long', `The URL is longer than ${MAX_URL_LENGTH} characters.`);
}

function record(
  store: Store,
  app: AppState | undefined,
  route: RouteDef,
  params: Record<string, string>,
  target: Target,
  requestId: string,
  body: JsonBody | null,
  status: number,
  result: RouteResult | undefined,
  version: ApiVersion | null = null,
  warnings?: RequestWarnings,
  codes?: readonly string[],
): void {
  if (app) store.report.record(app.id, route.operationId, status, codes, warnings);
  (app?.journal ?? store.anonymousJournal).add({
    seq: store.nextJournalSeq(),
    time: store.now(),
    app: app?.id ?? null,
    request_id: requestId,
    method: route.method,
    path: target.path,
    search: target.search,
    bodyText: body === null ? null : body.text,
    status,
    operationId: route.operationId,
    api_version: version,
    touched: touched(params, result),
    ...(warnings && warnings.list.length > 0 ? { warnings: warnings.list.map(({ error: _error, ...w }) => (warnings.isMuted(w.code) ? { ...w, muted: true } : w)) } : {}),
  });
}

/**
 * The app a control-plane request is about: `?app=<id>`, or the app whose token it carries. A GET
 * changes nothing: an unseen test_ token shows the app it would provision, which is not kept.
 */
function targetApp(store: Store, input: RequestInput, request: Request, read: boolean): AppState | undefined {
  const forToken = (token: string) => (read ? store.peekApp(token) : store.appForToken(token));
  const named = input.query.app;
  if (typeof named === 'string' && named !== '') {
    // A test_ token names the app it provisions, so a test can set its app up (seed, faults,
    // clock) before its first API call, as the token itself would.
    const app = store.app(named) ?? (named.startsWith('test_') ? forToken(named) : undefined);
    if (!app) {
      throw apiError('not_found', `No app "${named.slice(0, 100)}": name one of ${store.appIds().slice(0, 10).join(', ')}${store.appIds().length > 10 ? ', …' : ''} (GET /__admin/health lists them), or a test_ token, which provisions its app unless the mock runs with --no-test-apps.`, 'app');
    }
    return app;
  }
  const header = request.headers.get('authorization');
  if (header === null || header.trim() === '') return undefined;
  const app = forToken(tokenFrom(header));
  if (!app) throw tokenInvalid();
  return app;
}
