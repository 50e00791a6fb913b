// The one writer of responses: every body is JSON with the same headers, and every error is the
// API's `error.list` envelope with the request id of the X-Request-Id header.

import { ApiError, wireCode, type ErrorItem } from '../core/errors.js';

export type Headers = Record<string, string>;

/** `headers` become the response's own: callers pass a fresh object. */
export function jsonResponse(status: number, body: unknown, requestId: string, headers: Headers = {}): Response {
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['x-request-id'] = requestId;
  return new Response(JSON.stringify(body), { status, headers });
}

export function errorBody(errors: readonly ErrorItem[], requestId: string) {
  return {
    type: 'error.list',
    request_id: requestId,
    errors: errors.map((e) => (e.field === undefined ? { code: wireCode(e.code), message: e.message } : { code: wireCode(e.code), message: e.message, field: e.field })),
  };
}

export function errorResponse(error: ApiError, requestId: string, headers: Headers = {}): Response {
  return jsonResponse(error.status, errorBody(error.errors, requestId), requestId, { ...headers, ...error.headers });
}
