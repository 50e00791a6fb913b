// The one writer of responses: every body is JSON with the same headers, and every error is the
// API's `error.list` envelope with the request id of the X-Request-Id header.

import { ApiError, wireCode, type ErrorItem } from '../core/errors.js';
import { setImmediate as afterPoll } from 'node:timers';
import { jsonChunks } from '../core/json-chunks.js';
import { JsonPieces, jsonText } from '../views/json-text.js';

export type Headers = Record<string, string>;

/** The app's rate-limit window for the X-RateLimit-* headers; null where none are sent. */
export interface RateInfo {
  limit: number;
  remaining: number;
  reset: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';

let dateSecond = NaN;
let dateText = '';

/**
 * The `Date` header (IMF-fixdate) of a Unix second on the mock's clock, so a run with a frozen
 * clock is byte-identical, headers included. Node adds no Date of its own to a response that has one.
 */
export function httpDate(seconds: number): string {
  if (seconds !== dateSecond) {
    dateText = new Date(seconds * 1000).toUTCString();
    dateSecond = seconds;
  }
  return dateText;
}

/** Built in one literal of one of two shapes, so every response's headers look alike to the engine. */
function headersFor(requestId: string, now: number, rate: RateInfo | null): Headers {
  return rate === null
    ? { 'content-type': JSON_TYPE, date: httpDate(now), 'x-request-id': requestId }
    : {
        'content-type': JSON_TYPE,
        date: httpDate(now),
        'x-request-id': requestId,
        'x-ratelimit-limit': String(rate.limit),
        'x-ratelimit-remaining': String(rate.remaining),
        'x-ratelimit-reset': String(rate.reset),
      };
}

/** `now` is the Unix second on the mock's clock, for the Date header. */
export function jsonResponse(status: number, body: unknown, requestId: string, now: number, rate: RateInfo | null = null, extra?: Readonly<Headers>): Response {
  const headers = headersFor(requestId, now, rate);
  if (extra) Object.assign(headers, extra);
  return new Response(body instanceof JsonPieces ? piecesStream(body.value) : jsonText(body), { status, headers });
}

const nextTurn = () => new Promise<void>((resolve) => afterPoll(resolve));

/** One piece a read, each after the event loop's turn: the requests that arrived meanwhile go first. */
function piecesStream(value: unknown): ReadableStream<Uint8Array> {
  const pieces = jsonChunks(value);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await nextTurn();
      const next = pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}

export function errorBody(errors: readonly ErrorItem[], requestId: string) {
  return {
    type: 'error.list',
    request_id: requestId,
    errors: errors.map((e) => (e.field === undefined ? { code: wireCode(e.code), message: e.message } : { code: wireCode(e.code), message: e.message, field: e.field })),
  };
}

export function errorResponse(error: ApiError, requestId: string, now: number, rate: RateInfo | null = null): Response {
  return jsonResponse(error.status, errorBody(error.errors, requestId), requestId, now, rate, error.headers);
}
