// Accept and Content-Type rules of the contract notes.

import { apiError } from '../core/errors.js';

const isJsonType = (type: string): boolean => type === 'application/json' || /^application\/[^/]+\+json$/.test(type);

/** How closely a media range names JSON (0: not at all, 1: `*\/*`, 2: `application/*`, 3: a JSON type). */
function specificity(type: string): number {
  if (isJsonType(type)) return 3;
  if (type === 'application/*') return 2;
  return type === '*/*' ? 1 : 0;
}

/** The q of a range's parameters: 1 when absent or unreadable, as clients that send one mean it. */
function qOf(params: readonly string[]): number {
  for (const p of params) {
    const m = /^q\s*=\s*([01](?:\.\d{0,3})?)$/.exec(p);
    if (m) return Math.min(1, Number(m[1]));
  }
  return 1;
}

/**
 * A missing Accept is fine; otherwise JSON takes the q of the most specific range that names it
 * (RFC 9110 §12.5.1), so `application/json;q=0, *\/*` excludes it, and a q of 0 is a 406.
 */
export function checkAccept(accept: string | undefined): void {
  if (accept === undefined || accept === 'application/json' || accept === '*/*' || accept.trim() === '') return;
  let best = 0;
  let q = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    const level = specificity(type);
    if (level === 0 || level < best) continue;
    const rangeQ = qOf(params);
    q = level > best ? rangeQ : Math.max(q, rangeQ);
    best = level;
  }
  if (q > 0) return;
  throw apiError('not_acceptable', `This API only answers with application/json; the Accept header "${accept.slice(0, 200)}" allows none of it.`);
}

/** A body's Content-Type: none, or JSON (any `+json` type) with no charset but UTF-8; else a 415. */
export function checkContentType(contentType: string | undefined): void {
  if (contentType === undefined || contentType === 'application/json' || contentType.trim() === '') return;
  const [type = '', ...params] = contentType.split(';');
  if (!isJsonType(type.trim().toLowerCase())) {
    throw apiError('unsupported_media_type', `Request bodies must be JSON (Content-Type: application/json), not "${contentType.slice(0, 100)}".`);
  }
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      throw apiError('unsupported_media_type', `Request bodies must be UTF-8, not charset "${charset.slice(0, 100)}".`);
    }
  }
}
