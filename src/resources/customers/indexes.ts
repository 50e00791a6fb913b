// What a customer write keeps true beside the record: the customers limit and bytes, the indexes by
// user_id, email and phone, holders, tallies, the attribute registry, company memberships, the list
// order and the sorted lists. Most writes change attributes only, so each index is touched only where
// what it reads changed.

import type { AppState } from '../../state/app-state.js';
import { join, joined, leave, type JoinMaps } from '../../engine/join-log.js';
import { charge } from '../../engine/byte-budget.js';
import { customerShare } from '../../engine/record-bytes.js';
import { normalEmail } from '../../core/normal-text.js';
import { checkRoom } from '../../state/limits.js';
import { adjustTallies, customerTallyKeys, sameTallies, tally, tallyKey } from '../counts/tallies.js';
import { customerKeys, customerKeysChanged, holderMaps, labelGroups, syncHolder } from '../cross-resource/memberships.js';
import { sortCompany, syncCompanies } from '../companies/indexes.js';
import { customAttribute } from '../data-attributes/rules.js';
import type { CustomAttributes, CustomAttributeValue, Customer } from '../../engine/types.js';

export function saveCustomer(app: AppState, next: Customer): void {
  const { customers, byUserId } = app.data;
  const prev = customers.get(next.id);
  // Archived users are kept too, so they count towards the limit.
  if (!prev) checkRoom(app, 'customers', customers.size + app.data.archived.size + 1, 'customers (users, leads, visitors and archived users)');
  // Before anything moves: a refusal leaves the indexes as they were even outside a transaction.
  charge(app, 'customers', customerShare(app, next) - (prev ? customerShare(app, prev) : 0));
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, the same user_id is deleted and set again
  if (prev?.user_id !== next.user_id) {
    // Stryker disable next-line ConditionalExpression: equivalent when the lookup is forced true, a user_id names one customer at most
    if (prev?.user_id && byUserId.get(prev.user_id) === next.id) byUserId.delete(prev.user_id);
    if (next.user_id) byUserId.set(next.user_id, next.id);
  }
  const prevEmail = prev?.email ?? null;
  const nextEmail = next.email ?? null;
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, leaving and joining the same email moves only its place in the log, which no reader keeps (they order by creation or count)
  if (prevEmail !== nextEmail) {
    // Stryker disable next-line ConditionalExpression: equivalent when forced true, no email's log has an empty key
    if (prevEmail) leave(emailMaps(app), prevEmail, next.id);
    if (nextEmail) join(emailMaps(app), nextEmail, next.id);
  }
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: equivalent, syncHolder moves only the keys that differ, and leaving a key no record holds does nothing
  if (customerKeysChanged(prev, next)) syncHolder(holderMaps(app), next.id, prev ? customerKeys(prev) : [], customerKeys(next));
  const prevPhone = prev?.phone ?? null;
  const nextPhone = next.phone ?? null;
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, as the email's above
  if (prevPhone !== nextPhone) {
    // Stryker disable next-line ConditionalExpression: equivalent when forced true, no phone's log has an empty key
    if (prevPhone) leave(phoneMaps(app), prevPhone, next.id);
    if (nextPhone) join(phoneMaps(app), nextPhone, next.id);
  }
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, the same keys make a zero change and the same attributes are registered already
  if (!prev || !sameTallies(prev, next)) {
    adjustTallies(app.data.tallies, prev ? customerTallyKeys(prev) : [], customerTallyKeys(next));
    // Stryker disable next-line ConditionalExpression: equivalent when forced true, the same attributes are registered already
    if (prev?.custom_attributes !== next.custom_attributes) syncAttributeNames(app, prev?.custom_attributes ?? {}, next.custom_attributes, next.updated_at);
  }
  // Stryker disable next-line ArrayDeclaration: equivalent, leaving a company no one is in does nothing
  if (prev?.companies !== next.companies) syncCompanies(app, next.id, prev?.companies ?? [], next.companies);
  // A visitor is none of its companies' people: becoming (or ceasing to be) one moves the user
  // count of each company kept too, which syncCompanies (joins and leaves only) does not tell.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent when true for other writes, telling a company list of an unchanged company does nothing; and no one becomes a visitor, so only the visitor side is read
  if (prev !== undefined && (prev.type === 'visitor') !== (next.type === 'visitor')) {
    for (const companyId of next.companies) sortCompany(app, companyId, undefined, app.data.companies.get(companyId));
  }
  const version = customers.version;
  customers.set(next.id, next);
  app.order.saved(customers, prev, next, version);
  sortCustomer(app, next.id, prev, next);
}

/**
 * `prev`: the record as stored. `bytesStay`: the record moves to the archive, where its bytes stay
 * counted, so its share is neither measured nor given back (two look-ups in the seeded base and
 * four measurings saved).
 */
export function removeCustomer(app: AppState, prev: Customer, bytesStay = false): void {
  const id = prev.id;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, a user_id names one customer at most, and deleting a key no one holds does nothing
  if (prev.user_id && app.data.byUserId.get(prev.user_id) === id) app.data.byUserId.delete(prev.user_id);
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, no email's log has no key
  if (prev.email) leave(emailMaps(app), prev.email, id);
  syncHolder(holderMaps(app), id, customerKeys(prev), []);
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, as above
  if (prev.phone) leave(phoneMaps(app), prev.phone, id);
  adjustTallies(app.data.tallies, customerTallyKeys(prev), []);
  syncAttributeNames(app, prev.custom_attributes, {}, 0);
  if (!bytesStay) charge(app, 'customers', -customerShare(app, prev));
  syncCompanies(app, id, prev.companies, []);
  const version = app.data.customers.version;
  app.data.customers.delete(id);
  app.order.removed(app.data.customers, prev, version);
  sortCustomer(app, id, prev, undefined);
}

export function customerByUserId(app: AppState, userId: string): Customer | undefined {
  const id = app.data.byUserId.get(userId);
  // Stryker disable next-line ConditionalExpression: equivalent when forced false, no customer has the id undefined
  return id === undefined ? undefined : app.data.customers.get(id);
}

export function customersByEmail(app: AppState, email: string): Customer[] {
  const key = normalEmail(email);
  const customers = app.data.customers;
  return joined(emailMaps(app), key, (id) => {
    const c = customers.get(id);
    // A customer that left the email is only marked dead in the log: this read skips it.
    return c?.email === key ? c : undefined;
  });
}

export const emailMaps = (app: AppState): JoinMaps => ({ logs: app.data.byEmail, seqs: app.data.emailSeqs });

export const phoneMaps = (app: AppState): JoinMaps => ({ logs: app.data.byPhone, seqs: app.data.phoneSeqs });

/**
 * The registry follows the records: a name a customer now holds that it lacks is registered
 * (a user back from the archive brings its names back), and a name no customer holds any more
 * goes unless the fixture declared it. So the registry, and its unpaged list, is bounded by the
 * customers' own data, which the byte budget bounds.
 */
function syncAttributeNames(app: AppState, before: CustomAttributes, after: CustomAttributes, at: number): void {
  const registry = app.data.dataAttributes;
  for (const name of Object.keys(after)) {
    if (!registry.has(name)) registry.set(name, customAttribute(name, after[name] as CustomAttributeValue, at));
  }
  for (const name of Object.keys(before)) {
    if (Object.hasOwn(after, name) || app.base.declaredAttributes.has(name)) continue;
    if (tally(app, tallyKey.attribute(name)) === 0) registry.delete(name);
  }
}

/**
 * Tells the sorted indexes a customer changed: its type's whole list and the lists of each tag
 * and segment it held or holds (only while some tag's or segment's list has an index).
 */
function sortCustomer(app: AppState, id: string, prev: Customer | undefined, next: Customer | undefined): void {
  const type = (next ?? prev)?.type as Customer['type'];
  app.sorted.update(`customer:${type}`, id, next);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent, no list is sorted by type but the users', and no one stops being a user; tag and segment lists are told below
  if (prev !== undefined && next !== undefined && prev.type !== next.type) app.sorted.update(`customer:${prev.type}`, id, next);
  // Stryker disable next-line ConditionalExpression: equivalent when forced false, a group with no index is not told anything
  if (!app.sorted.hasLabelled) return;
  for (const group of labelGroups(prev, next, (c) => `customer:${c.type}`)) app.sorted.update(group, id, next);
}
