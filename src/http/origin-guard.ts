// What a web page in the developer's browser can make the mock do. The Host check runs before any
// route (app.ts): a page whose name resolves to the mock's address (DNS rebinding) is answered
// 421, so it can neither read the mock nor call it as its own origin. The control plane's
// handlers (http/pipeline.ts, keyed on the route, however the path was encoded) answer 403 to a
// write a browser sends on another page's behalf (its Origin or Sec-Fetch-Site says so). Requests
// without those headers (curl, test suites in any language, the library API) pass both.

import { isIP } from 'node:net';
import { isLoopbackAddress } from '../resources/subscriptions/targets.js';
import { apiError, type ApiError } from '../core/errors.js';

export interface GuardOptions {
  /** Host names answered beyond loopback ones and the listening address; 'any' turns the check off. */
  allowedHosts?: readonly string[] | 'any';
  /** The address the mock listens on (--host). */
  listenHost?: string;
  /** Origins besides the mock's own whose pages may change the control plane (--admin-origins). */
  adminOrigins?: readonly string[];
}

const WILDCARDS = new Set(['0.0.0.0', '::']);

/** A host name as compared: no brackets, lower case, no trailing dot (`localhost.` is `localhost`). */
const bare = (host: string): string => host.replace(/^\[(.*)\]$/, '$1').toLowerCase().replace(/\.$/, '');

/** Names and addresses that reach this machine only: no page elsewhere can be rebound to them. */
function isLoopback(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return isLoopbackAddress(name);
}

/** The host name of an authority (`host[:port]`, `[v6]:port`), or undefined when it does not parse. */
function hostOf(authority: string): string | undefined {
  try {
    const { hostname } = new URL(`http://${authority}`);
    return hostname === '' ? undefined : bare(hostname);
  } catch {
    return undefined;
  }
}

/**
 * A Host the mock answers to: a loopback name, the listening address, a name --allowed-hosts lists,
 * and, when it listens on every interface, any address literal (an address cannot be rebound).
 */
export function hostAllowed(authority: string, options: GuardOptions): boolean {
  if (options.allowedHosts === 'any') return true;
  const name = hostOf(authority);
  if (name === undefined) return false;
  if (isLoopback(name)) return true;
  const listen = options.listenHost === undefined ? undefined : bare(options.listenHost);
  if (name === listen) return true;
  if (listen !== undefined && WILDCARDS.has(listen) && isIP(name) !== 0) return true;
  return (options.allowedHosts ?? []).some((h) => bare(h) === name);
}

/** The authority of an absolute URL (`scheme://authority/...`), read without parsing the rest. */
export function authorityOf(url: string): string {
  const start = url.indexOf('://') + 3;
  const end = url.indexOf('/', start);
  return url.slice(start, end < 0 ? url.length : end);
}

/** Authorities already judged: a request pays for a parse only the first time its Host is seen. */
const MAX_REMEMBERED = 256;

/** The Host check of one app, remembering what it judged (bounded: a client sending a new Host each time only pays the parse). */
export function hostChecker(options: GuardOptions): (request: Request) => ApiError | undefined {
  const judged = new Map<string, boolean>();
  const allowed = (authority: string): boolean => {
    let ok = judged.get(authority);
    if (ok === undefined) {
      ok = hostAllowed(authority, options);
      if (judged.size < MAX_REMEMBERED) judged.set(authority, ok);
    }
    return ok;
  };
  return (request) => checkHost(request, options, allowed);
}

/** The 421 for a Host the mock does not answer to, naming the option that would allow it. */
export function checkHost(request: Request, options: GuardOptions, allowed = (authority: string) => hostAllowed(authority, options)): ApiError | undefined {
  const own = authorityOf(request.url);
  const header = request.headers.get('host');
  // The authority of an absolute-form target is the URL's; Host is checked too when it differs.
  for (const authority of header === null || header === own ? [own] : [own, header]) {
    if (!allowed(authority)) {
      const shown = authority.slice(0, 100);
      return apiError('misdirected_request', `Host ${JSON.stringify(shown)} is not a name this mock answers to (a page whose name resolves to it could read and change it). Use localhost or the listening address, or start the mock with --allowed-hosts ${hostOf(authority) ?? 'NAME'} (or any).`);
    }
  }
  return undefined;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The 403 for a control-plane write a browser sends on another page's behalf: a cross-site or
 * same-site Sec-Fetch-Site, or an Origin other than the mock's own or one --admin-origins lists.
 */
export function checkAdminWrite(request: Request, options: GuardOptions): ApiError | undefined {
  if (READS.has(request.method)) return undefined;
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  const own = new URL(request.url).origin;
  if (origin !== null && (options.adminOrigins ?? []).includes(origin)) return undefined;
  const foreignSite = site === 'cross-site' || site === 'same-site';
  const foreignOrigin = origin !== null && origin !== own;
  if (!foreignSite && !foreignOrigin) return undefined;
  const from = origin === null ? 'another site' : JSON.stringify(origin.slice(0, 100));
  return apiError('forbidden', `A page of ${from} may not change the mock's control plane: send the request from a script, a test or the console, or start the mock with --admin-origins naming that origin.`);
}
