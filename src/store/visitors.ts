// Visitors: updated by user_id or id only, and converted into a lead (an email, or
// POST /visitors/convert with type lead) or into a user (merged into a matching user, or becoming
// that user). Conversions keep the record's id where the record survives.

import { ApiError, apiError, missing } from '../core/errors.js';
import type { AppState } from './app-state.js';
import { mergeCustomAttributes } from './custom-attributes.js';
import { anonymousProblems, emailOf, findAnonymous, matchUser, text, write, type CustomerInput, type Identity } from './customers.js';
import { enqueueEnrichment } from './jobs.js';
import type { Store } from './store.js';
import type { Customer } from './types.js';

function requireVisitor(app: AppState, keys: { id?: string; user_id?: string | null; email?: string | null }, field?: string): Customer {
  const found = findAnonymous(app, 'visitor', keys);
  if (found) return found;
  const at = (member: string) => (field ? `${field}.${member}` : member);
  const message = text(keys.email) ? 'An email cannot identify a visitor: send its user_id or id.' : 'Visitor user_id or id must be supplied.';
  throw missing(at('user_id'), message);
}

/** PUT/POST /visitors: update a visitor; an email makes it a lead (same id, type contact). */
export function updateVisitor(store: Store, app: AppState, input: CustomerInput): Customer {
  const visitor = requireVisitor(app, input);
  const identity: Identity = emailOf(input.email) !== undefined ? { type: 'contact' } : {};
  return write(store, app, visitor, input, identity, anonymousProblems(input, 'visitor'));
}

export interface ConvertInput {
  type: string;
  visitor: { id?: string; user_id?: string; email?: string };
  user?: { id?: string; user_id?: string; email?: string };
}

/**
 * POST /visitors/convert: to a lead (same record, type contact), or to a user: merged into the
 * user the `user` keys match (the visitor is removed), or the visitor itself becomes that user.
 */
export function convertVisitor(store: Store, app: AppState, input: ConvertInput): Customer {
  if (input.type !== 'lead' && input.type !== 'user') throw apiError('bad_request', "bad 'type' parameter", 'type');
  const visitor = requireVisitor(app, input.visitor, 'visitor');
  const now = store.now();
  if (input.type === 'lead') {
    const lead: Customer = { ...visitor, type: 'contact', updated_at: now };
    app.saveCustomer(lead);
    return lead;
  }
  if (!input.user) throw missing('user', 'user is a required parameter when type is user.');
  if (input.user.id === undefined && !text(input.user.user_id) && emailOf(input.user.email, 'user.email') === undefined) {
    throw missing('user.user_id', 'User email, user_id or id must be supplied');
  }
  const { target, identity } = matchUser(store, app, input.user, 'user.email');
  const user = typeof target === 'function' ? becomeUser(visitor, identity, now) : mergeInto({ ...target, ...identity }, visitor, now);
  // Stryker disable next-line ConditionalExpression: equivalent, removing a visitor and saving it back as the user leaves the same state (visitors come from seeds, whose records keep their place)
  if (user.id !== visitor.id) app.removeCustomer(visitor.id);
  app.saveCustomer(user);
  if (user.email !== visitor.email) enqueueEnrichment(app, user.id, now + store.jobDelaySeconds);
  return user;
}

function becomeUser(visitor: Customer, identity: Identity, now: number): Customer {
  return { ...visitor, type: 'user', anonymous: false, pseudonym: null, user_id: identity.user_id ?? null, email: identity.email ?? visitor.email, updated_at: now };
}

/** `a`, then what `b` adds; one Set, not a scan of `a` per item of `b`. */
function union(a: readonly string[], b: readonly string[]): string[] {
  const seen = new Set(a);
  return [...a, ...b.filter((x) => !seen.has(x))];
}

/** The user's own values win; the visitor fills what the user lacks (but users have no pseudonym). */
function mergeInto(user: Customer, visitor: Customer, now: number): Customer {
  const filled = Object.fromEntries(
    Object.entries(visitor).filter(([k, v]) => v !== null && (user as unknown as Record<string, unknown>)[k] === null),
  ) as Partial<Customer>;
  const merged = mergeCustomAttributes(visitor.custom_attributes, user.custom_attributes);
  if (merged.problems.length > 0) throw new ApiError(merged.problems);
  return {
    ...user,
    ...filled,
    type: 'user',
    anonymous: false,
    pseudonym: user.pseudonym,
    id: user.id,
    user_id: user.user_id,
    companies: union(user.companies, visitor.companies),
    tags: union(user.tags, visitor.tags),
    segments: union(user.segments, visitor.segments),
    session_count: user.session_count + visitor.session_count,
    custom_attributes: merged.value,
    updated_at: now,
  };
}
