// An event's metadata as the API kept it: the first ten members, each a text, a number, a rich
// link or a monetary amount.

import { ApiError, invalid } from '../../core/errors.js';
import { MAX_METADATA_SENT } from './shapes.js';
import type { AppState } from '../../state/app-state.js';
import { type EventMetadata, type EventMetadataValue, MAX_METADATA_KEPT, MAX_METADATA_TEXT } from './log.js';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

/**
 * The first ten members, each checked: text, a finite number (an integer Unix time for keys ending
 * `_date`), a rich link `{url, value}` or a monetary amount `{amount, currency}`; any other value
 * (booleans, null, arrays, other objects: the API keeps no nested JSON) is refused with the others.
 */
export function checkMetadata(value: unknown, app?: AppState): EventMetadata {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw invalid('metadata', 'metadata must be an object of at most 100 members.');
  const problems: { field: string; message: string }[] = [];
  const coerced: string[] = [];
  const out: EventMetadata = {};
  let n = 0;
  for (const key of Object.keys(value)) {
    if (++n > MAX_METADATA_SENT) {
      // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent, every caller (POST /events, bulk items) checks the body schema first, which refuses this (maxProperties)
      problems.push({ field: 'metadata', message: `metadata carries at most ${MAX_METADATA_SENT} members (the first ${MAX_METADATA_KEPT} are kept).` });
      break;
    }
    let checked = metadataValue(key, value[key]);
    if (checked instanceof CoercedBoolean) {
      // Strict mode refuses it in its place among the other members' problems.
      if (app?.requestWarnings?.refuses('coerced_value')) checked = problem(NOT_A_VALUE);
      else {
        coerced.push(key);
        checked = String(checked.value);
      }
    }
    if (key === '') problems.push({ field: 'metadata.', message: 'metadata names cannot be empty.' });
    else if (checked instanceof MetadataProblem) problems.push({ field: `metadata.${key}`, message: `metadata.${key} ${checked.text}` });
    else if (n > MAX_METADATA_KEPT) continue;
    // Defined, not assigned: a member named __proto__ is kept as data, not taken as the prototype.
    // Only that one: defining every member cost a descriptor object and the engine's slow path per event.
    else if (key === '__proto__') Object.defineProperty(out, key, { value: checked, enumerable: true, writable: true, configurable: true });
    else out[key] = checked;
  }
  if (problems.length > 0) throw new ApiError(problems.slice(0, 20).map((p) => ({ code: 'parameter_invalid' as const, ...p })));
  for (const key of coerced) {
    const text = String((value as Record<string, unknown>)[key]);
    app?.warn('coerced_value', `metadata.${key} ${NOT_A_VALUE.slice(0, -1)}: ${text} was read as "${text}".`, `metadata.${key}`, `metadata.${key} ${NOT_A_VALUE}`);
  }
  return out;
}

/** What is wrong with a metadata value; a class, so a kept value (text, number or plain object) is never mistaken for it. */
class MetadataProblem {
  constructor(readonly text: string) {}
}

/** A boolean read as its text. */
class CoercedBoolean {
  constructor(readonly value: boolean) {}
}

const problem = (text: string): MetadataProblem => new MetadataProblem(text);

/** Two members and no more: with the checks that both named ones are there, exactly those two (in either order). */
const twoMembers = (v: Record<string, unknown>): boolean => Object.keys(v).length === 2;

/** The value as kept, or what is wrong with it (no wrapper for a kept one: every member of every event passes here). */
function metadataValue(key: string, v: unknown): EventMetadataValue | MetadataProblem | CoercedBoolean {
  if (key.endsWith('_date')) {
    return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : problem('is a date: an integer Unix timestamp in seconds.');
  }
  if (typeof v === 'number') return Number.isFinite(v) ? v : problem('must be a finite number.');
  if (typeof v === 'string') return v.length <= MAX_METADATA_TEXT ? v : problem(`must be at most ${MAX_METADATA_TEXT} characters.`);
  if (isRecord(v)) {
    if (twoMembers(v) && isText(v.url, MAX_METADATA_TEXT) && typeof v.value === 'string' && v.value.length <= MAX_METADATA_TEXT) {
      return { url: v.url, value: v.value };
    }
    if (twoMembers(v) && typeof v.amount === 'number' && Number.isSafeInteger(v.amount) && isText(v.currency, 3)) {
      return { amount: v.amount, currency: v.currency };
    }
    return problem('must be a rich link {"url","value"} or a monetary amount {"amount" (integer cents), "currency"}; other nested objects are not kept.');
  }
  // Java's README sends a boolean (putMetadata("new_signup", true)): kept as its text, reported
  // once the other members are known to be good [I].
  if (typeof v === 'boolean') return new CoercedBoolean(v);
  return problem(NOT_A_VALUE);
}

const NOT_A_VALUE = 'must be text, a number, a rich link or a monetary amount.';
