// What the real API accepted and the mock reads the same way, reported as a warning (contract
// notes §6): a member no schema lists is dropped, a value of another type is read as the API read
// it. Validation finds them (schemas/validate.ts `fix`); this module repairs them in place and
// says so; strict mode later refuses what was said (core/warnings.ts).

import type { ErrorItem } from '../core/errors.js';
import type { RequestWarnings } from '../core/warnings.js';
import type { Schema } from '../schemas/json-schema.js';
import { booleanText } from '../core/query-string.js';
import { MAX_PROBLEMS, validate, type Problem } from '../schemas/validate.js';

/** A plain decimal number as JSON would write it. */
const NUMBER_TEXT = /^-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,15})?$/;

const shown = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

/** The value a member of another type is read as, or undefined when the real API refused it too. */
function coerced(value: unknown, expected: string, where: 'query' | 'body'): unknown {
  const types = expected.split(',');
  // A query flag spelled neither true/false nor 1/0 is off, as the API read anything but true [I]:
  // one declared as the text true/false, or as a boolean.
  if (types.includes('flag')) return where === 'query' && typeof value === 'string' ? String(booleanText(value) ?? false) : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (types.includes('integer')) return Math.trunc(value);
    if (types.includes('string')) return String(value);
  }
  if (typeof value === 'string') {
    if (types.includes('boolean')) {
      return booleanText(value) ?? (where === 'query' ? false : undefined);
    }
    if ((types.includes('integer') || types.includes('number')) && where === 'body' && NUMBER_TEXT.test(value)) {
      const n = Number(value);
      return types.includes('integer') ? Math.trunc(n) : n;
    }
  }
  return undefined;
}

function parentOf(root: unknown, pointer: readonly string[]): Record<string, unknown> | undefined {
  let cur: unknown = root;
  for (let i = 0; i < pointer.length - 1; i++) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[pointer[i] as string];
  }
  return cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>) : undefined;
}

/** The type a member must have, its null alternative left out (a value was sent). */
const typeName = (expected: string): string =>
  expected
    .split(',')
    .filter((t) => t !== 'null')
    .join(' or ');

/** Repairs one problem in place and says what was done; false when it cannot be repaired. */
function repair(root: Record<string, unknown>, p: Problem, where: 'query' | 'body', prefix: string, warnings: RequestWarnings): boolean {
  const fix = p.fix;
  if (!fix) return false;
  const parent = parentOf(root, fix.pointer);
  const key = fix.pointer[fix.pointer.length - 1] as string;
  if (!parent || !Object.hasOwn(parent, key)) return false;
  const field = prefix && p.path ? `${prefix}.${p.path}` : p.path;
  if (fix.kind === 'unknown') {
    delete parent[key];
    if (where === 'query') warnings.add('unknown_parameter', `${field} is not a query parameter of this operation: ignored.`, field, p.message);
    else warnings.add('unused_field', `${field} is not a member this operation reads: ignored.`, field, p.message);
    return true;
  }
  const before = parent[key];
  // A number is never an email address: that stays the error it was.
  const after = key === 'email' && typeof before === 'number' ? undefined : coerced(before, fix.expected ?? '', where);
  if (after === undefined) return false;
  parent[key] = after;
  warnings.add('coerced_value', `${field} must be ${fix.expected === 'flag' ? 'true or false' : `of type ${typeName(fix.expected ?? '')}`}: ${shown(before)} was read as ${shown(after)}.`, field, p.message);
  return true;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Members an open object of the body's schema does not list (the schema tolerates them, as real
 * clients send extra members, and the operation ignores them): each reported, none removed. Free
 * maps (custom attributes: no listed members) are not looked into. Linear in the body.
 */
function reportUnlisted(schema: Schema, value: unknown, path: string, warnings: RequestWarnings): void {
  if (Array.isArray(value)) {
    const items = schema.items as Schema | undefined;
    if (items && typeof items === 'object') value.forEach((item, i) => reportUnlisted(items, item, `${path}[${i}]`, warnings));
    return;
  }
  if (!isRecord(value) || !schema.properties) return;
  const props = schema.properties as Record<string, Schema>;
  const open = schema.additionalProperties === undefined || schema.additionalProperties === true;
  for (const key in value) {
    const member = path ? `${path}.${key}` : key;
    const sub = props[key];
    if (sub) reportUnlisted(sub, value[key], member, warnings);
    else if (open) warnings.add('unused_field', `${member} is not a member this operation reads: ignored.`, member);
  }
}

/** Repair rounds at the most: a repair can reveal a problem inside what it repaired. */
const ROUNDS = 3;

/**
 * Validates one part of a request (query or body), repairing what the real API accepted, and
 * adds what remains to `problems` as the API's error items.
 */
export function checkLeniently(schema: Schema, value: Record<string, unknown>, where: 'query' | 'body', warnings: RequestWarnings, problems: ErrorItem[], prefix = ''): void {
  for (let round = 1; ; round++) {
    const fixes: Problem[] = [];
    const rest = validate(schema, value, where === 'query', round < ROUNDS ? fixes : undefined);
    let repaired = 0;
    const unrepaired: Problem[] = [];
    for (const p of fixes) {
      if (repair(value, p, where, prefix, warnings)) repaired++;
      else unrepaired.push(p);
    }
    if (repaired === 0 || round === ROUNDS) {
      if (where === 'body' && unrepaired.length === 0 && rest.length === 0) reportUnlisted(schema, value, prefix, warnings);
      for (const p of [...unrepaired, ...rest]) {
        if (problems.length >= MAX_PROBLEMS) return;
        const field = prefix && p.path ? `${prefix}.${p.path}` : p.path || prefix;
        problems.push({ code: p.kind === 'missing' ? 'parameter_not_found' : 'parameter_invalid', message: p.message, ...(field ? { field } : {}) });
      }
      return;
    }
  }
}
