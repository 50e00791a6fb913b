// Visitors: updated by user_id or id only, and converted into a lead (an email, or
// POST /visitors/convert with type lead) or into a user (merged into a matching user, or becoming
// that user). Conversions keep the record's id where the record survives.

import { badChoice, missing } from '../../core/errors.js';
import type { AppState } from '../../state/app-state.js';
import { anonymousProblems, findAnonymous, write, type CustomerInput, type Identity } from '../customers/rules.js';
import { emailOf, text } from '../customers/identity-text.js';
import { convertIntoUser } from '../cross-resource/merge.js';
import type { Store } from '../../state/store.js';
import type { Customer } from '../../engine/types.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { convertBodySchema } from '../customers/shapes.js';
import { saveCustomer } from '../customers/indexes.js';

function requireVisitor(app: AppState, keys: { id?: string; user_id?: string | null; email?: string | null }, field?: string): Customer {
  const found = findAnonymous(app, 'visitor', keys);
  if (found) return found;
  const at = (member: string) => (field ? `${field}.${member}` : member);
  const message = text(keys.email) ? 'An email cannot identify a visitor: send its user_id or id.' : 'Visitor user_id or id must be supplied.';
  throw missing(at('user_id'), message);
}

/** GET /visitors/{id} */
export function visitorById(app: AppState, id: string): Customer {
  return requireVisitor(app, { id });
}

/** GET /visitors?user_id= */
export function visitorByUserId(app: AppState, userId: unknown): Customer {
  return requireVisitor(app, { user_id: typeof userId === 'string' ? userId : null });
}

/** PUT/POST /visitors: update a visitor; an email makes it a lead (same id, type contact). */
export function updateVisitor(store: Store, app: AppState, input: CustomerInput, pathId?: string): Customer {
  // PUT /visitors/{id} names it in the path; an id or user_id echoed in the body is then ignored.
  const visitor = requireVisitor(app, pathId === undefined ? input : { id: pathId });
  const identity: Identity = emailOf(input.email) !== undefined ? { type: 'contact' } : {};
  return write(store, app, visitor, input, identity, anonymousProblems(input, 'visitor'));
}

/** What the request sends, as its schema declares it. */
export type ConvertInput = StaticOf<typeof convertBodySchema>;

/**
 * POST /visitors/convert: to a lead (same record, type contact), or to a user: merged into the
 * user the `user` keys match (the visitor is removed), or the visitor itself becomes that user.
 */
export function convertVisitor(store: Store, app: AppState, input: ConvertInput): Customer {
  if (input.type !== 'lead' && input.type !== 'user') throw badChoice('type', ['lead', 'user']);
  const visitor = requireVisitor(app, input.visitor, 'visitor');
  const now = store.now();
  if (input.type === 'lead') {
    const lead: Customer = { ...visitor, type: 'contact', updated_at: now };
    saveCustomer(app, lead);
    return lead;
  }
  if (!input.user) throw missing('user', 'user is a required parameter when type is user.');
  return convertIntoUser(store, app, visitor, input.user, now);
}
