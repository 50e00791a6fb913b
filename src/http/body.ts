// Reads a JSON request body with a size cap: a body past the cap is refused as soon as the cap is
// crossed (or at once from Content-Length), without reading the rest. Bodies are JSON in UTF-8 and
// uncompressed, as every client of this API sends them; anything else is refused, never guessed at.

import { ApiError, apiError } from '../core/errors.js';
import { checkContentType } from './negotiate.js';
import type { IncomingMessage } from 'node:http';
import { readableHere, readIncoming } from './read-incoming.js';
import { readUpTo } from './read-stream.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * JSON.parse accepts nesting of any depth, but everything after it (validation, JSON.stringify in
 * the journal and the state export) recurses; no document of this API nests anywhere near this.
 */
export const MAX_BODY_DEPTH = 64;

/**
 * The client went away before its body arrived (a disconnect, or the socket closed after a 408):
 * not a fault of the mock, and nobody is left to answer. Journaled as 499, logged nowhere.
 */
export class ClientClosedError extends Error {}

/** The status common servers record for a request whose client closed the connection first. */
export const CLIENT_CLOSED_STATUS = 499;

/**
 * Whether JSON text nests deeper than `max`, read off its brackets outside strings: a walk of the
 * parsed value would cost as much as parsing it again (a 1 MiB body of small objects).
 */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * From this size on, parsing a body and handling it are two turns of the event loop: JSON.parse of
 * a 1 MiB body takes 5 to 40 ms on its own, and validation and the write can take as long again, so
 * other connections wait at most the longer of the two instead of their sum.
 */
export const YIELD_AFTER_PARSE_BYTES = 64 * 1024;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const tooLarge = (limit: number) => apiError('request_too_large', `The request body is larger than the limit of ${limit} bytes.`);

async function readCapped(request: Request, limit: number, node: IncomingMessage | undefined): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  try {
    // With a declared length the server reads no further than it: from Node's stream when the
    // adapter serves the request (read-incoming.ts), else arrayBuffer(), the adapter's direct path;
    // streaming (several times slower per request) is kept for chunked bodies.
    if (declared !== null && /^\d+$/.test(declared)) return node && readableHere(node) ? await readIncoming(node) : new Uint8Array(await request.arrayBuffer());
    if (!request.body) return new Uint8Array(0);
    const { bytes, over } = await readUpTo(request.body, limit);
    if (over) throw tooLarge(limit);
    return bytes;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // The body stream fails only when the connection does: the client closed it, or the server
    // did after answering a stalled request with 408.
    throw new ClientClosedError(`the client closed the connection before its body arrived (${String((err as Error)?.message ?? err).slice(0, 100)})`);
  }
}

/** `gzip`, `deflate` and the rest are refused rather than decoded: clients of this API send plain JSON. */
function checkContentEncoding(request: Request): void {
  const coding = request.headers.get('content-encoding');
  if (coding === null) return;
  const name = coding.trim().toLowerCase();
  if (name === '' || name === 'identity') return;
  throw apiError('unsupported_media_type', `Request bodies must not be encoded: Content-Encoding "${coding.slice(0, 100)}" is not supported (send the JSON as is).`);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as a JSON object: no body (or an empty one) is `{}`, as real clients create leads with
 * no body; a body that is not JSON by its Content-Type, names a charset other than UTF-8 or is
 * compressed is a 415; invalid UTF-8 and malformed JSON are a 400.
 */
export interface JsonBody {
  value: Record<string, unknown>;
  /** The JSON text it was parsed from (`{}` for no body): what the journal keeps. */
  text: string;
}

/** `node`: the Node request behind `request` when the adapter serves it (read-incoming.ts). */
export async function readJsonBody(request: Request, limit: number, node?: IncomingMessage): Promise<JsonBody> {
  const bytes = await readCapped(request, limit, node);
  if (bytes.byteLength === 0) return { value: {}, text: '{}' };
  checkContentEncoding(request);
  checkContentType(request.headers.get('content-type') ?? undefined);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw apiError('bad_request', 'The request body is not valid UTF-8.');
  }
  if (text.trim() === '') return { value: {}, text: '{}' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw apiError('bad_request', `The request body is not valid JSON: ${(err as Error).message.slice(0, 200)}`);
  }
  // PHP's client (Guzzle) sends `[]` with every DELETE: an empty list says as little as `{}`.
  if (Array.isArray(value) && value.length === 0 && request.method === 'DELETE') return { value: {}, text };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw apiError('bad_request', 'The request body must be a JSON object.');
  }
  if (bytes.byteLength >= YIELD_AFTER_PARSE_BYTES) await nextTurn();
  if (nestsDeeperThan(text, MAX_BODY_DEPTH)) throw apiError('bad_request', `The request body nests deeper than ${MAX_BODY_DEPTH} levels.`);
  return { value: value as Record<string, unknown>, text };
}
