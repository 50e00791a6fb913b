// Both Authorization forms real clients send name the same token: `Bearer <token>` (the spec) and
// `Basic base64("<token>:")` (every official v1-era client library).

import { apiError, type ApiError } from '../core/errors.js';

export const tokenNotFound = (): ApiError => apiError('token_not_found', 'Unauthorized');
export const tokenInvalid = (): ApiError => apiError('unauthorized', 'Access Token Invalid');

/** The token in the header; throws 401 token_not_found when there is none. */
export function tokenFrom(header: string | undefined): string {
  const value = header?.trim() ?? '';
  if (value === '') throw tokenNotFound();
  const space = value.indexOf(' ');
  const scheme = (space < 0 ? value : value.slice(0, space)).toLowerCase();
  const rest = space < 0 ? '' : value.slice(space + 1).trim();
  if (scheme === 'bearer') {
    if (rest === '') throw tokenNotFound();
    return rest;
  }
  if (scheme === 'basic') {
    if (rest === '') throw tokenNotFound();
    const decoded = Buffer.from(rest, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // The token is the user name; the password is ignored (clients send it empty).
    const token = colon < 0 ? decoded : decoded.slice(0, colon);
    if (token === '') throw tokenNotFound();
    return token;
  }
  throw tokenInvalid();
}
