// The identifying texts a request sends as customers keep them: empty means not sent, and an email
// in its one normal form. Apart from the customer rules so archived users' lookups share them.

import { invalid } from '../../core/errors.js';
import { longerThan, normalEmail } from '../../core/normal-text.js';
import { MAX_SHORT_TEXT } from '../../schemas/fields.js';

/** Empty text counts as not sent: it can neither identify a customer nor be an email. */
export function text(value: string | null | undefined): string | undefined {
  const sent = value ?? '';
  return sent === '' ? undefined : sent;
}

/**
 * An email as stored (core/normal-text.ts), or undefined when none was sent (empty once trimmed).
 * Its length is checked on that stored form, which may be longer than what was sent (`İ`).
 */
export function emailOf(value: string | null | undefined, field = 'email'): string | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  const email = normalEmail(raw);
  if (email === '') return undefined;
  if (longerThan(email, MAX_SHORT_TEXT)) {
    throw invalid(field, `${field} is longer than ${MAX_SHORT_TEXT} characters once trimmed, lower-cased and normalised (NFC).`);
  }
  return email;
}

