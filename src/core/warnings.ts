// Contract warnings: input the real API accepted but that looks wrong (a parameter it ignored, a
// value it read as another type, a member the operation does not use). The mock answers such a
// request as the real API did and says what it noticed: in the X-Mock-Warning header, on the
// request's journal entry and in the contract report. Under strict mode each one is instead the
// error the mock gives without leniency. This catalogue is the one place the codes are named.

import { ApiError, type ErrorItem } from './errors.js';
import { booleanText } from './query-string.js';

export const WARNING_CODES = {
  unknown_parameter: 'A query parameter the operation does not read: ignored, as the real API ignored it.',
  version_parameter: 'A query parameter of a later API version than the request is served in: ignored.',
  unused_field: 'A body member or query parameter the operation does not use here (or a value it cannot use there): ignored.',
  coerced_value: 'A value of another type, read as the real API read it: a number as its text, a fraction as its whole part, a boolean spelled as text as that boolean.',
  identifier_overridden: 'Several identifiers name one person and they disagree: the first in the lookup order decides.',
  ambiguous_lookup: 'A lookup that answers one record matched several: the most recently created answers.',
  path_normalized: 'A path with repeated slashes, routed as if each run were one slash.',
  missing_identifier: 'A create-or-update without the identifier the real API looks records up by: the mock finds the record another way (a company by its name) and says how.',
  undeliverable_target: 'A webhook url on a host this mock does not deliver to (not loopback, unless it runs with --webhook-hosts any): the subscription is kept and each delivery fails with "Target refused".',
} as const;

export type WarningCode = keyof typeof WARNING_CODES;

export const isWarningCode = (value: unknown): value is WarningCode => typeof value === 'string' && Object.hasOwn(WARNING_CODES, value);

export interface Warning {
  code: WarningCode;
  message: string;
  /** The parameter or member it is about. */
  field?: string;
  /** What strict mode answers, when it is not the message itself (the error the mock gave without leniency). */
  error?: string;
}

/** Warnings kept on one request at the most (the header shows fewer, then "and N more"). */
export const MAX_WARNINGS = 20;

/** Characters of a warning's message and field at the most. */
const MAX_MESSAGE = 300;
const MAX_FIELD = 100;

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Warning lines in one response's header at the most. */
export const MAX_HEADER_WARNINGS = 10;

/** The error a warning is under strict mode: a path the router would not take is not found, a missing identifier is not found. */
export function strictError(w: Warning): ErrorItem {
  if (w.code === 'path_normalized') return { code: 'not_found', message: 'The requested resource does not exist; check your path and try again' };
  if (w.code === 'missing_identifier') return { code: 'parameter_not_found', message: w.error ?? w.message, ...(w.field === undefined ? {} : { field: w.field }) };
  // The warning says what leniency did ("…: ignored."); the error says only what was wrong.
  return { code: 'parameter_invalid', message: w.error ?? w.message.replace(/: ignored\.$/, '.'), ...(w.field === undefined ? {} : { field: w.field }) };
}

/**
 * What one request noticed. Before the handler runs, warnings are collected so that strict mode
 * refuses them together (`enforce`); once the handler runs, a warning under strict mode is thrown
 * at once, inside the write's transaction, so the refused request changes nothing.
 */
export class RequestWarnings {
  readonly list: Warning[] = [];
  /** Warnings beyond MAX_WARNINGS, counted only. */
  dropped = 0;
  private immediate = false;
  /** Strict mode refused them: the error names them, the header does not repeat them. */
  private refused = false;

  constructor(
    readonly strict: boolean,
    private readonly muted: ReadonlySet<string>,
  ) {}

  add(code: WarningCode, message: string, field?: string, error?: string): void {
    // A member's name is the client's: cut, so a long one cannot make a header or an entry long.
    const w: Warning = field === undefined ? { code, message: clip(message, MAX_MESSAGE) } : { code, message: clip(message, MAX_MESSAGE), field: clip(field, MAX_FIELD) };
    if (error !== undefined) w.error = error;
    if (this.strict && !this.muted.has(code) && this.immediate) {
      this.refused = true;
      throw new ApiError([strictError(w)]);
    }
    if (this.list.length < MAX_WARNINGS) this.list.push(w);
    else this.dropped++;
  }

  /** What strict mode refuses of the warnings so far (muted ones aside), as error items; none when lenient. */
  refusals(): ErrorItem[] {
    if (!this.strict) return [];
    const items = this.list.filter((w) => !this.muted.has(w.code)).map(strictError);
    if (items.length > 0) this.refused = true;
    const notFound = items.find((i) => i.code === 'not_found');
    return notFound ? [notFound] : items;
  }

  /** Under strict mode, the collected warnings (muted ones aside) as one error; from now on each is thrown when added. */
  enforce(): void {
    this.immediate = true;
    const items = this.refusals();
    if (items.length > 0) throw new ApiError(items);
  }

  /** Whether strict mode refuses this code (it is not muted). */
  refuses(code: WarningCode): boolean {
    return this.strict && !this.muted.has(code);
  }

  /** List parameters a lookup that answers one record does not read (`tag_id` beside `user_id`). */
  unread(query: Readonly<Record<string, unknown>>, names: readonly string[], lookup: string): void {
    for (const name of names) if (query[name] !== undefined) this.add('unused_field', `${name} does not filter ${lookup}: ignored.`, name);
  }

  isMuted(code: string): boolean {
    return this.muted.has(code);
  }

  /** The header's value: unmuted warnings, comma-separated `code "message"` elements, or undefined for none. */
  header(): string | undefined {
    if (this.refused) return undefined;
    const shown = this.list.filter((w) => !this.muted.has(w.code));
    // Those past the kept ones are not known to be muted or not: they count as more.
    const hidden = Math.max(0, shown.length - MAX_HEADER_WARNINGS) + this.dropped;
    const parts = shown.slice(0, MAX_HEADER_WARNINGS).map((w) => `${w.code} ${quoted(w.message)}`);
    if (hidden > 0) parts.push(`more ${quoted(`and ${hidden} more`)}`);
    return parts.length === 0 ? undefined : parts.join(', ');
  }
}

/** A quoted-string safe in a header: quotes and backslashes escaped, anything outside printable ASCII as \uXXXX. */
export function quoted(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** A strict-mode flag sent as text (a header): as a query flag reads, around blanks; anything else is undefined. */
export const readFlag = (text: string | null | undefined): boolean | undefined => (text === null || text === undefined ? undefined : booleanText(text.trim()));

