// Customer rules shared by users, leads and visitors: one write path (validate everything, then
// store), the POST /users lookup order of spec 4.5, and the read-back lists.

import { ApiError, apiError, missing, notFound, type ErrorItem } from '../../core/errors.js';
import { listingOf, type Listing } from '../../core/pagination.js';
import { hashSeed } from '../../core/random.js';
import type { AppState } from '../../state/app-state.js';
import { planCompanies, type CompanyPlan } from '../companies/rules.js';
import { mergeCustomAttributes, registerCustomerAttributes } from './custom-attributes.js';
import { holderKey, holderMaps, holders } from '../cross-resource/memberships.js';
import { archivedMatch, restoreArchived } from '../users/archive.js';
import { enqueueEnrichment } from '../../engine/job-queue.js';
import { copyCustomer, emptyCustomer } from '../../fixtures/normalize.js';
import { pseudonym } from './pseudonym.js';
import { emailOf, text } from './identity-text.js';
import { normalEmail } from '../../core/normal-text.js';
import type { Store } from '../../state/store.js';
import type { Customer, CustomerType } from '../../engine/types.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { userBodySchema } from './shapes.js';
import { tally, tallyKey } from '../counts/tallies.js';
import { customerByUserId, customersByEmail, saveCustomer } from './indexes.js';
import { saveCompany } from '../companies/indexes.js';

/** A new lead or visitor: server-assigned id and UUID user_id, a generated pseudonym, no sessions. */
export function newAnonymous(store: Store, app: AppState, type: Exclude<CustomerType, 'user'>): Customer {
  const now = store.now();
  const id = app.newObjectId(now, (x) => app.data.customers.has(x));
  let userId = app.random.uuid();
  while (app.data.byUserId.has(userId) || app.data.archivedByUserId.has(userId)) userId = app.random.uuid();
  store.faker.seed(hashSeed(store.seed, app.id, 'pseudonym', app.random.nextUint32()));
  return { ...emptyCustomer(type, id, now), user_id: userId, pseudonym: pseudonym(store.faker, app.random) };
}

/** The writable attributes of a user, lead or visitor: POST /users' body (the lead and visitor bodies are subsets of it). */
export type CustomerInput = StaticOf<typeof userBodySchema>;

/** Identity changes a write makes besides the attributes (who the record is, not what it holds). */
export type Identity = Partial<Pick<Customer, 'type' | 'anonymous' | 'user_id' | 'email'>>;

/** An existing record, or how to make a new one (called only once the write is known to be valid). */
export type Target = Customer | (() => Customer);

/**
 * A customer's companies once `plans` apply in order (a company removed and named again joins last),
 * through one ordered Set: linear in the list and the plans, where a scan per item was quadratic.
 * The same array when nothing changes, so the membership index is not touched.
 */
function joinedCompanies(current: string[], plans: readonly CompanyPlan[]): string[] {
  if (plans.length === 0) return current;
  const order = new Set(current);
  // A new array with the same ids (the next mark, and the `has` check below forced true) costs a
  // membership diff that moves nothing: syncHolder compares ids, so no list,
  // count or order can differ.
  // Stryker disable next-line BooleanLiteral: equivalent, as said above
  let changed = false;
  for (const { company, remove } of plans) {
    if (remove) changed = order.delete(company.id) || changed;
    else if (!order.has(company.id)) {
      order.add(company.id);
      changed = true;
    }
  }
  return changed ? [...order.keys()] : current;
}

/**
 * The one write path: every rule checked first (custom attributes, companies), then companies and
 * the customer stored, new custom attributes registered, and enrichment queued when the IP or the
 * email was sent (location, avatar and social profiles appear only once that job has run).
 */
export function write(store: Store, app: AppState, target: Target, input: CustomerInput, identity: Identity = {}, problems: ErrorItem[] = []): Customer {
  // `input` is the request body itself, extra members and all: it is read member by member, never
  // copied (a rest copy of a body with 50k ignored members cost tens of ms), and its id and user_id
  // are never written from here (identity says who the record is).
  const existing = typeof target === 'function' ? undefined : target;
  const attributes = mergeCustomAttributes(existing?.custom_attributes ?? {}, input.custom_attributes);
  const plans = planCompanies(store, app, input.companies ?? [], (i) => `companies[${i}]`, [...problems, ...attributes.problems]);

  const now = store.now();
  const base = existing ?? (target as () => Customer)();
  const companies = joinedCompanies(base.companies, plans);
  const next = copyCustomer(base);
  next.session_count += input.new_session === true ? 1 : 0;
  next.custom_attributes = attributes.value;
  next.companies = companies;
  next.updated_at = now;
  if (input.phone !== undefined) next.phone = input.phone;
  if (input.name !== undefined) next.name = input.name;
  if (input.signed_up_at !== undefined) next.signed_up_at = input.signed_up_at;
  if (input.last_request_at !== undefined) next.last_request_at = input.last_request_at;
  if (input.remote_created_at !== undefined) next.remote_created_at = input.remote_created_at;
  if (input.last_seen_ip !== undefined) next.last_seen_ip = input.last_seen_ip;
  if (input.unsubscribed_from_emails !== undefined) next.unsubscribed_from_emails = input.unsubscribed_from_emails;
  if (input.email !== undefined) next.email = emailOf(input.email) ?? null;
  if (input.last_seen_user_agent !== undefined) next.user_agent_data = input.last_seen_user_agent;
  if (input.update_last_request_at === true) next.last_request_at = now;
  if (identity.type !== undefined) next.type = identity.type;
  if (identity.anonymous !== undefined) next.anonymous = identity.anonymous;
  if (identity.user_id !== undefined) next.user_id = identity.user_id;
  if (identity.email !== undefined) next.email = identity.email;
  for (const { company, remove } of plans) if (!remove) saveCompany(app, company);
  saveCustomer(app, next);
  registerCustomerAttributes(app, input.custom_attributes, now);
  if (input.last_seen_ip || next.email !== base.email) {
    enqueueEnrichment(app, next.id, now + store.jobDelaySeconds);
  }
  return next;
}

function conflictOnEmail(email: string): ApiError {
  return apiError('conflict', `Multiple existing users match this email address ${email} - must be more specific using user_id`);
}

/**
 * A user_id may name one customer only (an archived user keeps holding its own): setting one that
 * another record holds is the real API's 400 "User already exists.".
 */
export function claimUserId(app: AppState, userId: string, ownerId: string | undefined, field: string): void {
  const holder = app.data.byUserId.get(userId) ?? app.data.archivedByUserId.get(userId);
  if (holder !== undefined && holder !== ownerId) throw apiError('unique_user_constraint', 'User already exists.', field);
}

export interface UserMatch {
  target: Target;
  identity: Identity;
}

/** The lookup order of spec 4.5: id, then user_id, then email (cases 1 to 5). */
export function matchUser(store: Store, app: AppState, keys: { id?: string; user_id?: string | null; email?: string | null }, emailField = 'email', userIdField = 'user_id'): UserMatch {
  const userId = text(keys.user_id);
  const email = emailOf(keys.email, emailField);
  // An archived user the keys name comes back (resources/users/archive.ts) once no live record matched.
  const restore = (found: Customer | undefined) => (found ? restoreArchived(app, found) : undefined);
  if (keys.id !== undefined) {
    const found = app.data.customers.get(keys.id) ?? restore(archivedMatch(app, { id: keys.id }));
    if (!found || found.type !== 'user') throw notFound('User Not Found');
    if (userId !== undefined) claimUserId(app, userId, found.id, userIdField);
    return { target: found, identity: userId === undefined ? {} : { user_id: userId } };
  }
  if (userId !== undefined) {
    const found = customerByUserId(app, userId) ?? restore(archivedMatch(app, { userId }));
    if (found?.type === 'user') return { target: found, identity: {} };
    // With nothing found no live or archived record holds userId, so the claim passes: only a lead's or a visitor's user_id refuses it.
    claimUserId(app, userId, undefined, userIdField);
  }
  if (email !== undefined) {
    const users = customersByEmail(app, email).filter((c) => c.type === 'user');
    if (userId === undefined) {
      if (users.length > 1) throw conflictOnEmail(email);
      const found = users[0] ?? restore(archivedMatch(app, { email }));
      if (found) return { target: found, identity: {} };
    } else {
      const withoutUserId = users.filter((c) => !c.user_id);
      if (withoutUserId.length > 1) throw conflictOnEmail(email);
      if (withoutUserId[0]) return { target: withoutUserId[0], identity: { user_id: userId } };
      // Case 4: every user with this email already has another user_id, so this is someone new.
    }
  }
  if (userId === undefined && email === undefined) {
    throw missing('user_id', 'User email, user_id or anonymous_id must be supplied');
  }
  const now = store.now();
  const create = () => emptyCustomer('user', app.newObjectId(now, (x) => app.data.customers.has(x)), now);
  return { target: create, identity: { user_id: userId ?? null, email: email ?? null } };
}

/** POST /users: create or update by the lookup order of spec 4.5. */
export function upsertUser(store: Store, app: AppState, input: CustomerInput): Customer {
  const { target, identity } = matchUser(store, app, input);
  return write(store, app, target, input, identity);
}

/** Leads and visitors have no sign-up and no sessions: say so rather than drop the value. */
export function anonymousProblems(input: CustomerInput, kind: string): ErrorItem[] {
  const out: ErrorItem[] = [];
  if (input.signed_up_at !== undefined && input.signed_up_at !== null) {
    out.push({ code: 'parameter_invalid', message: `signed_up_at is not available for ${kind}s; only users sign up.`, field: 'signed_up_at' });
  }
  if (input.new_session === true) {
    out.push({ code: 'parameter_invalid', message: `new_session is not available for ${kind}s; only users have sessions.`, field: 'new_session' });
  }
  return out;
}

export function findAnonymous(app: AppState, type: 'contact' | 'visitor', keys: { id?: string; user_id?: string | null }): Customer | undefined {
  const userId = text(keys.user_id);
  if (keys.id === undefined && userId === undefined) return undefined;
  const found = keys.id !== undefined ? app.data.customers.get(keys.id) : customerByUserId(app, userId as string);
  if (!found || found.type !== type) throw notFound(type === 'contact' ? 'Lead Not Found' : 'Visitor Not Found');
  return found;
}

/** POST /contacts: a new lead, or an update of the lead named by id or user_id (never written). */
export function upsertLead(store: Store, app: AppState, input: CustomerInput): Customer {
  const existing = findAnonymous(app, 'contact', input);
  return write(store, app, existing ?? (() => newAnonymous(store, app, 'contact')), input, {}, anonymousProblems(input, 'lead'));
}

// --- reads --------------------------------------------------------------------------------------

/** Oldest first, ties by id (ids are unique, so no two compare equal). */
export const byCreation = (a: Customer, b: Customer): number =>
  a.created_at - b.created_at ||
  // Stryker disable next-line EqualityOperator: equivalent, no two ids are equal
  (a.id < b.id
    ? -1
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, V8's sort reads only whether a comparison is negative (0 and 1 alike)
    : a.id > b.id ? 1 : 0);

export function requireCustomer(app: AppState, id: string, types: readonly CustomerType[], message: string): Customer {
  const found = app.data.customers.get(id);
  if (!found || !types.includes(found.type)) throw notFound(message);
  return found;
}

/** A list walk that finds its page within this many records is as cheap as the order index. */
export const LIST_WALK_BUDGET = 2000;

/**
 * Customers of one type, oldest first. A filter goes through an index. The whole list is in the
 * store's order (seeded records sorted by creation, then each new one as it is created), its
 * total from the running tallies; a page is read by a short walk from the start when that finds
 * it, and otherwise from the app's order index (resources/customers/order.ts), so no page costs more
 * than a bounded walk plus, at most once per change of order, one walk of the app.
 */
export function listCustomers(app: AppState, type: CustomerType, filter: { user_id?: string; email?: string } = {}): Listing<Customer> {
  if (filter.user_id === undefined && filter.email === undefined) {
    return {
      total: tally(app, tallyKey.type(type)),
      slice(start, end) {
        const customers = app.data.customers;
        let ids = app.order.known(customers, type, start, end);
        if (ids === undefined) {
          const out: Customer[] = [];
          let matched = 0;
          let walked = 0;
          for (const c of customers.values()) {
            if (++walked > LIST_WALK_BUDGET) break;
            if (c.type !== type) continue;
            if (matched++ >= start) out.push(c);
            if (matched >= end) return out;
          }
          if (walked <= LIST_WALK_BUDGET) return out;
          ids = app.order.ids(customers, type, start, end);
        }
        return ids.map((id) => customers.get(id) as Customer);
      },
    };
  }
  // The lookup order id -> user_id -> email: a user_id decides alone, whatever email comes with it.
  if (filter.user_id !== undefined) {
    const c = customerByUserId(app, filter.user_id);
    return listingOf(c?.type === type ? [c] : []);
  }
  // Neither lookup key missing (returned above) nor user_id sent: the email is.
  return customersWithEmail(app, [type], filter.email as string);
}

/** The customers of these types with this email (case-insensitive), oldest first: O(matches) through the email index. */
export function customersWithEmail(app: AppState, types: readonly CustomerType[], email: string): Listing<Customer> {
  const normal = normalEmail(email);
  // customersByEmail answers only records whose stored email is `normal`.
  return listingOf(customersByEmail(app, normal).filter((c) => types.includes(c.type)).sort(byCreation));
}

/**
 * Users and leads of a company, in the order they became its users or leads (visitors are not
 * listed): the count is a tally and a page reads the company's people index (memberships.ts) up to
 * its end, never the whole company nor its visitors.
 */
export function companyMembers(app: AppState, companyId: string): Listing<Customer> {
  const customers = app.data.customers;
  return holders(holderMaps(app), holderKey('people', 'c', companyId), (id) => customers.get(id) as Customer);
}

/** How many users and leads a company has. */
export function companyUserCount(app: AppState, companyId: string): number {
  return tally(app, tallyKey.people(companyId));
}
