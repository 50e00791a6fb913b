// Customer search (surface §16): POST /customers/search under Intercom-Version: Unstable. A query
// is a filter `{field, operator, value}` or a group `{operator: AND|OR, value: [queries]}`; the
// users and leads it matches are sorted and paged by an opaque cursor. Unlike the lists, a search
// reads every user and lead of the app (the real API had a search index; the mock has the app's
// record budget as its bound).

import { ApiError, invalid, type ErrorItem } from '../../core/errors.js';
import type { AppState } from '../../state/app-state.js';
import { byCreation, listCustomers } from './rules.js';
import type { Customer } from '../../engine/types.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { searchBodySchema } from './search-shapes.js';

type Scalar = string | number | boolean | null;

/** What a filter may name: the customer's own fields, `custom_attributes.<name>`, `location_data.<field>`. */
const FIELDS: Record<string, (c: Customer) => Scalar | readonly string[]> = {
  id: (c) => c.id,
  role: (c) => (c.type === 'contact' ? 'lead' : 'user'),
  type: (c) => c.type,
  user_id: (c) => c.user_id,
  email: (c) => c.email,
  phone: (c) => c.phone,
  name: (c) => c.name,
  pseudonym: (c) => c.pseudonym,
  created_at: (c) => c.created_at,
  updated_at: (c) => c.updated_at,
  signed_up_at: (c) => c.signed_up_at,
  remote_created_at: (c) => c.remote_created_at,
  last_request_at: (c) => c.last_request_at,
  session_count: (c) => c.session_count,
  unsubscribed_from_emails: (c) => c.unsubscribed_from_emails,
  marked_email_as_spam: (c) => c.marked_email_as_spam,
  has_hard_bounced: (c) => c.has_hard_bounced,
  owner_id: (c) => c.owner_id,
  referrer: (c) => c.referrer,
  utm_campaign: (c) => c.utm_campaign,
  utm_content: (c) => c.utm_content,
  utm_medium: (c) => c.utm_medium,
  utm_source: (c) => c.utm_source,
  utm_term: (c) => c.utm_term,
  tag_id: (c) => c.tags,
  segment_id: (c) => c.segments,
};

const LOCATION_FIELDS = ['city_name', 'continent_code', 'country_code', 'country_name', 'postal_code', 'region_name', 'timezone'] as const;

export const SEARCH_OPERATORS = ['=', '!=', 'IN', 'NIN', '<', '>', '~', '!~', '^', '$'] as const;
type Operator = (typeof SEARCH_OPERATORS)[number];

/** Groups nest at most this deep, and hold at most this many queries each [I]. */
export const MAX_GROUP_DEPTH = 2;
export const MAX_GROUP_SIZE = 15;
export const MAX_SEARCH_PER_PAGE = 150;
export const DEFAULT_SEARCH_PER_PAGE = 50;

type Match = (c: Customer) => boolean;
type Json = Record<string, unknown>;

/**
 * What a query with a problem matches, and what a field the customers do not have reads: never
 * asked of a customer, since the request is refused with every problem named.
 */
// Stryker disable next-line ArrowFunction,BooleanLiteral: equivalent, never called (above)
const NEVER: Match = () => false;
// Stryker disable next-line ArrowFunction: equivalent, never called (above)
const NO_FIELD = (): null => null;

const bad = (field: string, message: string): ErrorItem => ({ code: 'parameter_invalid', message, field });
const absent = (field: string): ErrorItem => ({ code: 'parameter_not_found', message: `${field} is a required parameter.`, field });

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function fieldReader(field: unknown, at: string, problems: ErrorItem[]): (c: Customer) => Scalar | readonly string[] {
  if (typeof field !== 'string') {
    problems.push(field === undefined ? absent(`${at}.field`) : bad(`${at}.field`, 'field must be a string.'));
    return NO_FIELD;
  }
  if (Object.hasOwn(FIELDS, field)) return FIELDS[field] as (c: Customer) => Scalar | readonly string[];
  const [head, ...rest] = field.split('.');
  const name = rest.join('.');
  if (head === 'custom_attributes' && name !== '') {
    return (c) => (Object.hasOwn(c.custom_attributes, name) ? (c.custom_attributes[name] as Scalar) : null);
  }
  if (head === 'location_data' && (LOCATION_FIELDS as readonly string[]).includes(name)) {
    return (c) => (c.location_data?.[name as (typeof LOCATION_FIELDS)[number]] ?? null) as Scalar;
  }
  problems.push(bad(`${at}.field`, `${JSON.stringify(field.slice(0, 100))} is not a field customers can be searched by.`));
  return NO_FIELD;
}

const same = (a: Scalar, b: unknown): boolean => (a === null || b === null ? a === b : String(a) === String(b));
const text = (v: Scalar): string | undefined => (typeof v === 'string' ? v.toLowerCase() : undefined);

/** Whether one stored value passes the filter; a list (tags, segments) passes when one of its values does. */
function compare(op: Operator, value: unknown): (v: Scalar) => boolean {
  switch (op) {
    case '=':
      return (v) => same(v, value);
    case 'IN':
      return (v) => (value as unknown[]).some((x) => same(v, x));
    case '<':
      return (v) => typeof v === 'number' && v < (value as number);
    case '>':
      return (v) => typeof v === 'number' && v > (value as number);
    case '~':
      return (v) => text(v)?.includes((value as string).toLowerCase()) ?? false;
    case '^':
      return (v) => text(v)?.startsWith((value as string).toLowerCase()) ?? false;
    default:
      return (v) => text(v)?.endsWith((value as string).toLowerCase()) ?? false;
  }
}

/** The negated operators are their positive form, negated over the whole value (a list passes `!=` when none of it is equal). */
const NEGATION: Partial<Record<Operator, Operator>> = { '!=': '=', NIN: 'IN', '!~': '~' };

function valueProblem(op: Operator, value: unknown): string | undefined {
  if (op === 'IN' || op === 'NIN') return Array.isArray(value) && value.every((x) => x === null || typeof x !== 'object') ? undefined : `${op} needs an array of values.`;
  if (op === '<' || op === '>') return typeof value === 'number' ? undefined : `${op} needs a number.`;
  if (op === '~' || op === '!~' || op === '^' || op === '$') return typeof value === 'string' ? undefined : `${op} needs a string.`;
  return value === null || (typeof value !== 'object' && value !== undefined) ? undefined : `${op} needs a string, number, boolean or null.`;
}

function filterOf(query: Json, at: string, problems: ErrorItem[]): Match {
  const read = fieldReader(query.field, at, problems);
  const op = query.operator as Operator;
  const problem = valueProblem(op, query.value);
  if (problem !== undefined) problems.push(query.value === undefined ? absent(`${at}.value`) : bad(`${at}.value`, problem));
  const positive = compare(NEGATION[op] ?? op, query.value);
  const any = (c: Customer): boolean => {
    const v = read(c);
    return Array.isArray(v) ? v.some((x) => positive(x)) : positive(v as Scalar);
  };
  return NEGATION[op] === undefined ? any : (c) => !any(c);
}

function queryOf(query: unknown, at: string, depth: number, problems: ErrorItem[]): Match {
  if (!isObject(query)) {
    problems.push(bad(at, `${at} must be an object: {field, operator, value} or {operator: AND|OR, value: [queries]}.`));
    return NEVER;
  }
  const op = query.operator;
  if (op === 'AND' || op === 'OR') {
    const items = query.value;
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_GROUP_SIZE) {
      problems.push(bad(`${at}.value`, `An ${op} group holds 1 to ${MAX_GROUP_SIZE} queries.`));
      return NEVER;
    }
    if (depth >= MAX_GROUP_DEPTH) {
      problems.push(bad(at, `Groups nest at most ${MAX_GROUP_DEPTH} deep.`));
      return NEVER;
    }
    const parts = items.map((q, i) => queryOf(q, `${at}.value[${i}]`, depth + 1, problems));
    return op === 'AND' ? (c) => parts.every((p) => p(c)) : (c) => parts.some((p) => p(c));
  }
  if (!(SEARCH_OPERATORS as readonly unknown[]).includes(op)) {
    problems.push(op === undefined ? absent(`${at}.operator`) : bad(`${at}.operator`, `operator must be one of AND, OR, ${SEARCH_OPERATORS.join(', ')}.`));
    return NEVER;
  }
  return filterOf(query, at, problems);
}

/** What the request sends, as its schema declares it. */
export type SearchInput = StaticOf<typeof searchBodySchema>;

export interface SearchPage {
  total: number;
  customers: Customer[];
  page: number;
  perPage: number;
  totalPages: number;
  /** The cursor of the next page; undefined on the last. */
  next: string | undefined;
}

/** A cursor is the offset it continues from, opaque to the client as the real one was. */
const cursorOf = (offset: number): string => Buffer.from(`offset:${offset}`).toString('base64url');

function offsetOf(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString();
  // Stryker disable next-line Regex: the variants that survive, either anchor dropped, are equivalent: the round trip below refuses any text around the offset
  const match = /^offset:(\d{1,9})$/.exec(text);
  if (match === null || cursorOf(Number(match[1])) !== cursor) throw invalid('pagination.starting_after', 'starting_after is not a cursor this search gave.');
  return Number(match[1]);
}

function sorter(sort: SearchInput['sort'], problems: ErrorItem[]): ((a: Customer, b: Customer) => number) | undefined {
  if (sort === undefined) return undefined;
  const read = fieldReader(sort.field, 'sort', problems);
  const descending = sort.order === 'descending';
  const key = (c: Customer): Scalar => {
    const v = read(c);
    return Array.isArray(v) ? (v[0] ?? null) : (v as Scalar);
  };
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    // Nulls last in either order.
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'en');
    return descending ? -order : order;
  };
}

/**
 * One page of the users and leads the query matches: oldest first unless `sort` names a field
 * (ties keep that order); every problem of the query is answered at once.
 */
export function searchCustomers(app: AppState, input: SearchInput): SearchPage {
  const problems: ErrorItem[] = [];
  const match = queryOf(input.query, 'query', 0, problems);
  const compareBy = sorter(input.sort, problems);
  if (problems.length > 0) throw new ApiError(problems);
  const perPage = input.pagination?.per_page ?? DEFAULT_SEARCH_PER_PAGE;
  const cursor = input.pagination?.starting_after;
  const offset = cursor === undefined || cursor === null ? 0 : offsetOf(cursor);
  const everyone = (['user', 'contact'] as const).flatMap((type) => {
    const listing = listCustomers(app, type);
    return listing.slice(0, listing.total);
  });
  const order = compareBy === undefined ? byCreation : (a: Customer, b: Customer) => compareBy(a, b) || byCreation(a, b);
  const found = everyone.filter(match).sort(order);
  const end = offset + perPage;
  return {
    total: found.length,
    customers: found.slice(offset, end),
    page: Math.floor(offset / perPage) + 1,
    perPage,
    totalPages: Math.ceil(found.length / perPage),
    next: end < found.length ? cursorOf(end) : undefined,
  };
}
