// --log-requests: one line per request on stdout, as a terminal or a CI log shows traffic. Time,
// app, method, path (its query only when asked: emails in queries are personal data), status,
// milliseconds to the answer's head, request id and the contract warnings the answer carried;
// never a body. Text for people, a JSON object per line under --log-format json.

import type { Store } from '../state/store.js';
import { tokenFrom } from './auth.js';

export interface RequestLogOptions {
  format: 'text' | 'json';
  /** Log the query string too (off: it may hold emails). */
  queries: boolean;
  write: (line: string) => void;
}

/** The path as sent, and its query when asked for, from an absolute URL. */
function targetOf(url: string, queries: boolean): string {
  const start = url.indexOf('/', url.indexOf('://') + 3);
  const target = start < 0 ? '/' : url.slice(start);
  if (queries) return target;
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

/** The app a request named, read only: `?app=` on the control plane, else its token's app. */
function appOf(store: Store, request: Request): string | null {
  const url = request.url;
  const named = /[?&]app=([^&#]*)/.exec(url)?.[1];
  if (named !== undefined && url.includes('/__admin')) return decodeURIComponent(named.replace(/\+/g, ' ')).slice(0, 100);
  const header = request.headers.get('authorization');
  if (header === null) return null;
  try {
    return store.appIdOfToken(tokenFrom(header)) ?? null;
  } catch {
    return null;
  }
}

const warningCodes = (header: string | null): string[] => (header === null ? [] : [...header.matchAll(/(?:^|, )([a-z_]+) "/g)].map((m) => m[1] as string));

/** Writes the line of one answered request. */
export function requestLogger(store: Store, options: RequestLogOptions): (request: Request, response: Response, ms: number) => void {
  return (request, response, ms) => {
    const state = store.clock.state();
    const entry = {
      time: new Date().toISOString(),
      ...(state.frozen ? { clock: state.now } : {}),
      app: appOf(store, request),
      method: request.method,
      path: targetOf(request.url, options.queries),
      status: response.status,
      ms: Math.round(ms * 10) / 10,
      request_id: response.headers.get('x-request-id'),
      warnings: warningCodes(response.headers.get('x-mock-warning')),
    };
    if (options.format === 'json') {
      options.write(JSON.stringify({ event: 'request', ...entry }));
      return;
    }
    const parts = [entry.time, ...(state.frozen ? [`clock=${state.now}`] : []), entry.app ?? '-', entry.method, entry.path, String(entry.status), `${entry.ms}ms`, entry.request_id ?? '-'];
    if (entry.warnings.length > 0) parts.push(`warnings=${entry.warnings.join(',')}`);
    options.write(parts.join(' '));
  };
}
