// Custom attribute rules of spec 4.5, shared by users, leads, visitors and companies. Names come
// from request bodies, so objects are built from own entries only and read with Object.hasOwn:
// a name such as `__proto__` is stored as data and never reaches a prototype.

import type { ErrorItem } from '../../core/errors.js';
import { longerThan } from '../../core/normal-text.js';
import { MAX_CUSTOM_ATTRIBUTES } from '../../schemas/fields.js';
import type { AppState } from '../../state/app-state.js';
import { customAttribute } from '../data-attributes/rules.js';
import type { CustomAttributes, CustomAttributeValue } from '../../engine/types.js';

export const MAX_NAME_LENGTH = 190;
export const MAX_STRING_LENGTH = 255;
export const MAX_FIELDS = MAX_CUSTOM_ATTRIBUTES;

function problemOf(name: string, value: unknown): string | undefined {
  if (name === '') return 'Custom attribute names cannot be empty.';
  // Stryker disable next-line MethodExpression: error-message wording (how much of the name is quoted)
  if (name.includes('.') || name.includes('$')) return `Custom attribute name "${name.slice(0, 50)}" cannot contain "." or "$".`;
  if (longerThan(name, MAX_NAME_LENGTH)) return `Custom attribute names are limited to ${MAX_NAME_LENGTH} characters.`;
  if (value === null) return undefined;
  // Stryker disable next-line StringLiteral: error-message wording
  if (typeof value === 'object') return 'Custom attribute values must be a string, number, boolean or null; objects and arrays are rejected.';
  if (name.endsWith('_at')) {
    // A safe integer only: 2^64 would be stored rounded, a different date from the one sent.
    return Number.isSafeInteger(value)
      ? undefined
      : // Stryker disable next-line MethodExpression: error-message wording (how much of the name is quoted)
        `Custom attribute "${name.slice(0, 50)}" ends in _at, so it is a date: send Unix seconds as an integer between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.`;
  }
  if (typeof value === 'string') {
    return longerThan(value, MAX_STRING_LENGTH) ? `Custom attribute string values are limited to ${MAX_STRING_LENGTH} characters.` : undefined;
  }
  // JSON text such as 1e400 parses to Infinity, which JSON cannot write back (it would read as null).
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'Custom attribute numbers must be finite.';
  if (typeof value === 'boolean') return undefined;
  return 'Custom attribute values must be a string, number, boolean or null.';
}

/**
 * `incoming` laid over `current`, or the problems that reject it (each naming `<field>.<name>`).
 * A null value is stored (it clears the value) and still counts towards the field limit.
 */
export function mergeCustomAttributes(
  current: CustomAttributes,
  incoming: Record<string, unknown> | undefined,
  field = 'custom_attributes',
): { value: CustomAttributes; problems: ErrorItem[] } {
  if (incoming === undefined) return { value: current, problems: [] };
  const names = Object.keys(incoming);
  // More than a record may hold is refused as a whole, before any name is checked or copied.
  if (names.length > MAX_FIELDS) return { value: current, problems: [tooMany(field, names.length)] };
  const problems: ErrorItem[] = [];
  let added = 0;
  for (const name of names) {
    const message = problemOf(name, incoming[name]);
    if (message) problems.push({ code: 'parameter_invalid', message, field: `${field}.${name}` });
    if (!Object.hasOwn(current, name)) added++;
  }
  const held = Object.keys(current).length;
  // Spreading defines own properties, as JSON.parse made them: a `__proto__` name stays data. With
  // nothing held yet the sent object is kept as it is (records are never changed in place): copying
  // 250 members into a new object, for each of 100 companies, was most of a full write's cost.
  const value = (held === 0 ? incoming : { ...current, ...incoming }) as CustomAttributes;
  const count = held + added;
  if (count > MAX_FIELDS) problems.push(tooMany(field, count));
  return { value, problems };
}

const tooMany = (field: string, count: number): ErrorItem => ({
  code: 'parameter_invalid',
  message: `At most ${MAX_FIELDS} custom attributes are allowed; this request would make ${count}.`,
  field,
});

/** Registers each attribute name the app has not seen, typed from its first value. */
export function registerCustomerAttributes(app: AppState, attributes: Record<string, unknown> | undefined, now: number): void {
  if (!attributes) return;
  for (const name of Object.keys(attributes)) {
    if (!app.data.dataAttributes.has(name)) app.data.dataAttributes.set(name, customAttribute(name, attributes[name] as CustomAttributeValue, now));
  }
}
