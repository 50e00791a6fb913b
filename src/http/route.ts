// A route definition: the one declaration from which routing, request validation and the OpenAPI
// document are all derived. Handlers are framework-free: validated input in, a result out.

import type { ErrorCode } from '../core/errors.js';
import type { ApiVersion, VersionRange } from '../core/versions.js';
import type { RequestWarnings } from '../core/warnings.js';
import type { Schema, StaticOf } from '../schemas/json-schema.js';
import type { AppState } from '../state/app-state.js';
import type { Store } from '../state/store.js';
import type { JsonPieces, JsonText } from '../views/json-text.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestInput {
  store: Store;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  /** scheme://host[:port] of the request, for absolute URLs such as `next` links. */
  origin: string;
  /** The path as requested, for building page links. */
  path: string;
}

export interface AppInput extends RequestInput {
  app: AppState;
  /** The app token the request was authenticated with (GET /me answers the admin it belongs to). */
  token: string;
  /** The API version the request is served in (Intercom-Version, else the app's). */
  version: ApiVersion;
  /** What the request sent that the real API accepted but looks wrong (core/warnings.ts). */
  warnings: RequestWarnings;
}

export interface AdminInput extends RequestInput {
  /** The app named by `?app=` or by an app token in Authorization, when the request names one. */
  app: AppState | undefined;
}

export interface RouteResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** What the docs page pre-fills for one operation: it answers 2xx without edits. */
export interface RouteExamples {
  params?: Record<string, string>;
  /**
   * Every query parameter. An empty string is an example left blank, which the docs page does
   * not send: for a parameter that cannot be combined with one the example fills in
   * (`tag_id` with `segment_id`, the company lookups with the company list).
   */
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** The answer when it is not the operation's success status (an operation the API never had). */
  status?: number;
}

export interface ResponseSpec {
  status: number;
  description: string;
  /** Absent: the answer has no body (POST /events' 202). */
  schema?: Schema;
}

interface RouteBase {
  method: Method;
  /** OpenAPI form: /users/{id} */
  path: string;
  operationId: string;
  summary: string;
  /** The rules, a sentence or two each. */
  description: string;
  tag: string;
  params?: Record<string, Schema>;
  /** An object schema over the query parameters (values arrive as text and are coerced). */
  query?: Schema;
  /** An object schema over the JSON body; a route without one takes no body. */
  body?: Schema;
  response: ResponseSpec;
  /** Error codes this operation can answer with, beyond those every operation of its scope can. */
  errors: readonly ErrorCode[];
  /** The API versions that have this operation (default: all); others answer 400 intercom_version_invalid. */
  versions?: VersionRange;
  /** What the docs page pre-fills: every path and query parameter and the body (resources/demo-examples.ts). */
  examples?: RouteExamples;
  /** The operation whose example makes what this one's acts on (a snapshot, a fault, a subscription). */
  exampleAfter?: string;
}

export interface AppRoute extends RouteBase {
  scope: 'app';
  handler: (input: AppInput) => RouteResult;
}

export interface AdminRoute extends RouteBase {
  scope: 'admin';
  /** May answer later (POST /__admin/jobs/run waits for the webhook deliveries it starts). */
  handler: (input: AdminInput) => RouteResult | Promise<RouteResult>;
  /** Names its app in its body and waits for that app's seed in progress itself (POST /__admin/seed). */
  seedsItself?: boolean;
}

export type RouteDef = AppRoute | AdminRoute;

/** What a handler reads from a part of the request its schema declares: that schema's type once validated and repaired. */
type Declared<S> = unknown extends StaticOf<S> ? Record<string, unknown> : StaticOf<S> & Record<string, unknown>;
/** Path parameters: every one declared is there, as text. */
type ParamsOf<P> = { [K in keyof P]: string } & Record<string, string>;

type Typed<Input, P, Q, B> = Omit<Input, 'params' | 'query' | 'body'> & { params: ParamsOf<P>; query: Declared<Q>; body: Declared<B> };

/** What a handler may answer: the declared shape, or text already serialised from it. */
type Answer<S> = StaticOf<S> | JsonText | JsonPieces;
type Answered<T, S> = T extends Promise<infer U> ? Promise<Omit<U, 'body'> & { body: Answer<S> }> : Omit<T, 'body'> & { body: Answer<S> };

type Definition<R extends RouteDef, P, Q, B, S> = Omit<R, 'scope' | 'params' | 'query' | 'body' | 'handler' | 'response'> & {
  params?: P;
  query?: Q;
  body?: B;
  response: Omit<ResponseSpec, 'schema'> & { schema?: S };
  handler: (input: Typed<Parameters<R['handler']>[0], P, Q, B>) => Answered<ReturnType<R['handler']>, S>;
};

/**
 * An API operation. Its handler reads the query, path and body as their schemas declare them:
 * the pipeline has validated and repaired them before it runs.
 */
export const appRoute = <P extends Record<string, Schema> = Record<string, Schema>, Q extends Schema = Schema, B extends Schema = Schema, S extends Schema = Schema>(def: Definition<AppRoute, P, Q, B, S>): AppRoute =>
  ({ ...def, scope: 'app' }) as AppRoute;
/** A control-plane operation, typed as appRoute's. */
export const adminRoute = <P extends Record<string, Schema> = Record<string, Schema>, Q extends Schema = Schema, B extends Schema = Schema, S extends Schema = Schema>(def: Definition<AdminRoute, P, Q, B, S>): AdminRoute =>
  ({ ...def, scope: 'admin' }) as AdminRoute;

/**
 * Errors any authenticated API operation can give, whatever it does (`parameter_invalid`: a query
 * parameter it does not support, or an echoed path parameter that contradicts the path).
 */
export const APP_SCOPE_ERRORS: readonly ErrorCode[] = ['token_not_found', 'unauthorized', 'not_acceptable', 'rate_limit_exceeded', 'parameter_invalid'];

/**
 * A matcher for a route's path template, as the router matches it: one trailing slash is the same
 * path (`/users/` is `/users`), two are not, so a 405 is only ever answered for a path some route
 * really serves.
 */
export function pathPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
}

/** The path a request is routed by: one trailing slash dropped (`/users/` → `/users`; `/` stays). */
export function routedPath(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}
