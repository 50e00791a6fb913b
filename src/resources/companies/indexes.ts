// What a company write keeps true beside the record: its company_id, tallies, holders, attribute
// registry, store order and sorted lists; and a customer's memberships, which move companies' counts.

import type { AppState } from '../../state/app-state.js';
import type { JoinMaps } from '../../engine/join-log.js';
import { charge } from '../../engine/byte-budget.js';
import { companyShare } from '../../engine/record-bytes.js';
import { checkRoom } from '../../state/limits.js';
import { adjustTallies, companyTallyKeys } from '../counts/tallies.js';
import { companyKeys, companyKeysChanged, holderMaps, labelGroups, syncHolder } from '../cross-resource/memberships.js';
import { registerCompanyAttributes } from '../data-attributes/rules.js';
import type { Company } from '../../engine/types.js';
import { COMPANY_LIST } from './collections.js';

export function saveCompany(app: AppState, next: Company): void {
  const prev = app.data.companies.get(next.id);
  if (!prev) checkRoom(app, 'companies', app.data.companies.size + 1, 'companies');
  charge(app, 'companies', companyShare(app, next) - (prev ? companyShare(app, prev) : 0));
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, no write changes a company's company_id (the key every write finds it by)
  if (prev && prev.company_id !== next.company_id) app.data.byCompanyId.delete(prev.company_id);
  app.data.byCompanyId.set(next.company_id, next.id);
  adjustTallies(app.data.tallies, prev ? companyTallyKeys(prev) : [], companyTallyKeys(next));
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: equivalent, syncHolder moves only the keys that differ, and leaving a key no record holds does nothing
  if (companyKeysChanged(prev, next)) syncHolder(holderMaps(app), next.id, prev ? companyKeys(prev) : [], companyKeys(next));
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, registering names already registered does nothing
  if (prev?.custom_attributes !== next.custom_attributes) registerCompanyAttributes(app.data.companyAttributes, next.custom_attributes, next.updated_at);
  const version = app.data.companies.version;
  app.data.companies.set(next.id, next);
  app.companyOrder.saved(app.data.companies, next.id, !prev, version);
  sortCompany(app, next.id, prev, next);
}

export function companyByCompanyId(app: AppState, companyId: string): Company | undefined {
  const id = app.data.byCompanyId.get(companyId);
  // Stryker disable next-line ConditionalExpression: equivalent when forced false, no company has the id undefined
  return id === undefined ? undefined : app.data.companies.get(id);
}

export const memberMaps = (app: AppState): JoinMaps => ({ logs: app.data.members, seqs: app.data.memberSeqs });

/** Tells the sorted indexes a company changed: the whole company list, and the lists of its tags and segments. */
export function sortCompany(app: AppState, id: string, prev: Company | undefined, next: Company | undefined): void {
  app.sorted.update(COMPANY_LIST, id, next);
  // Stryker disable next-line ConditionalExpression: equivalent when forced false, a group with no index is not told anything
  if (!app.sorted.hasLabelled) return;
  for (const group of labelGroups(prev, next, () => 'company')) app.sorted.update(group, id, next);
}

/** Company membership, after the tallies: a company's place in the sorted lists depends on its user count. */
export function syncCompanies(app: AppState, customerId: string, before: readonly string[], after: readonly string[]): void {
  // Stryker disable next-line ArrayDeclaration: equivalent, a company id no company has is in no sorted list
  const changed: string[] = [];
  syncHolder(memberMaps(app), customerId, before, after, changed);
  for (const companyId of changed) sortCompany(app, companyId, undefined, app.data.companies.get(companyId));
}
