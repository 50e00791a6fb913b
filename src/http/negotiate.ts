// Accept and Content-Type rules of the contract notes.

import { apiError } from '../core/errors.js';

function allowsJson(range: string): boolean {
  const [type = '', ...params] = range.split(';').map((s) => s.trim().toLowerCase());
  if (params.some((p) => /^q=0(\.0*)?$/.test(p))) return false;
  return type === '*/*' || type === 'application/*' || type === 'application/json' || /^application\/[^/]+\+json$/.test(type);
}

/** A missing Accept is fine; one that allows no JSON at all is a 406. */
export function checkAccept(accept: string | undefined): void {
  if (accept === undefined || accept === 'application/json' || accept === '*/*' || accept.trim() === '') return;
  if (accept.split(',').some(allowsJson)) return;
  throw apiError('not_acceptable', `This API only answers with application/json; the Accept header "${accept.slice(0, 200)}" allows none of it.`);
}

export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType.trim() === '') return true;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^application\/[^/]+\+json$/.test(type);
}
