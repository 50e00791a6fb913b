// Reads a JSON request body with a size cap: a body past the cap is refused as soon as the cap is
// crossed (or at once from Content-Length), without reading the rest.

import { apiError } from '../core/errors.js';
import { isJsonContentType } from './negotiate.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * JSON.parse accepts nesting of any depth, but everything after it (validation, JSON.stringify in
 * the journal and the state export) recurses; no document of this API nests anywhere near this.
 */
export const MAX_BODY_DEPTH = 64;

function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [v, depth] = item;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

const tooLarge = (limit: number) => apiError('request_too_large', `The request body is larger than the limit of ${limit} bytes.`);

async function readCapped(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  // With a declared length the server reads no further than it, and text() takes the adapter's
  // direct path; streaming (several times slower per request) is kept for chunked bodies.
  if (declared !== null && /^\d+$/.test(declared)) return request.text();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The body as a JSON object: no body (or an empty one) is `{}`, as real clients create leads with
 * no body; a body that is not JSON by its Content-Type is a 415, malformed JSON a 400.
 */
export interface JsonBody {
  value: Record<string, unknown>;
  /** Length of the text it was parsed from, so nothing has to serialise it again to size it. */
  chars: number;
}

export async function readJsonBody(request: Request, limit: number): Promise<JsonBody> {
  const text = await readCapped(request, limit);
  if (text.trim() === '') return { value: {}, chars: 0 };
  const contentType = request.headers.get('content-type') ?? undefined;
  if (!isJsonContentType(contentType)) {
    throw apiError('unsupported_media_type', `Request bodies must be JSON (Content-Type: application/json), not "${contentType?.slice(0, 100)}".`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw apiError('bad_request', `The request body is not valid JSON: ${(err as Error).message.slice(0, 200)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw apiError('bad_request', 'The request body must be a JSON object.');
  }
  if (deeperThan(value, MAX_BODY_DEPTH)) throw apiError('bad_request', `The request body nests deeper than ${MAX_BODY_DEPTH} levels.`);
  return { value: value as Record<string, unknown>, chars: text.length };
}
