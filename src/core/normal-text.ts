// The one normalisation of the texts the mock compares and indexes (emails and tag names), used by
// API writes, lookups, fixtures and the indexes alike, so two spellings that look the same on
// screen (NFC `café` and NFD `café`, ` a@x.io` and `a@x.io`) are one email or one tag. Each
// function is idempotent, which is what lets an exported state seed back unchanged.

/**
 * An email as stored and compared: surrounding whitespace trimmed, lower case, then NFC (lower-casing
 * can leave a string outside NFC). May be longer than what was sent: `İ` lower-cases to two code
 * points, so limits are checked on this form.
 */
export function normalEmail(raw: string): string {
  return raw.trim().toLowerCase().normalize('NFC');
}

/** A tag name as stored: surrounding whitespace trimmed, NFC; inner whitespace and case as sent. */
export function normalTagName(raw: string): string {
  return raw.trim().normalize('NFC');
}

/** What two tag names are compared by: names are case-insensitive. */
export function tagNameKey(name: string): string {
  return normalTagName(name).toLowerCase().normalize('NFC');
}

/**
 * Whether `s` has more than `max` characters as JSON Schema's maxLength counts them (code points, so
 * an emoji counts once); no text has more code points than UTF-16 units, so short text is not walked.
 */
export function longerThan(s: string, max: number): boolean {
  if (s.length <= max) return false;
  let n = 0;
  for (const _ of s) if (++n > max) return true;
  return false;
}
