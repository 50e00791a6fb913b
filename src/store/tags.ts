// Tags: create-or-find by name (case-insensitive), rename by id, and tag or untag users, leads and
// companies in the same request. Every target is resolved before anything is written, so a request
// that names one unknown record changes nothing.

import { apiError, missing } from '../core/errors.js';
import type { AppState } from './app-state.js';
import type { Store } from './store.js';
import type { Company, Customer, Tag } from './types.js';

type Ref = string | number;

export interface CustomerTarget {
  id?: Ref;
  user_id?: Ref;
  email?: string;
  untag?: boolean;
}

export interface CompanyTarget {
  id?: Ref;
  company_id?: Ref;
  untag?: boolean;
}

export interface SaveTagInput {
  id?: Ref;
  name?: string;
  users?: CustomerTarget[];
  companies?: CompanyTarget[];
}

export function listTags(app: AppState): Tag[] {
  return [...app.data.tags.values()];
}

/** POST /tags: the tag created, found or renamed, with the requested tagging applied. */
export function saveTag(store: Store, app: AppState, input: SaveTagInput): Tag {
  const name = input.name;
  // A name of blanks names nothing; a name is otherwise kept exactly as sent.
  if (typeof name !== 'string' || name.trim() === '') throw missing('name', 'Name is a required parameter.');
  const renamed = input.id === undefined ? undefined : renameTarget(app, String(input.id), name);
  const customers = (input.users ?? []).map((t, i) => ({ record: resolveCustomer(app, t, `users[${i}]`), untag: t.untag === true }));
  const companies = (input.companies ?? []).map((t, i) => ({ record: resolveCompany(app, t, `companies[${i}]`), untag: t.untag === true }));

  const tag = renamed ?? app.tagByName(name) ?? { id: app.newNumericId((x) => app.data.tags.has(x)), name };
  if (renamed || !app.data.tags.has(tag.id)) app.saveTag(tag);

  const now = store.now();
  for (const { record, untag } of customers) {
    const current = app.data.customers.get(record.id) as Customer;
    const tags = withTag(current.tags, tag.id, untag);
    if (tags) app.saveCustomer({ ...current, tags, updated_at: now });
  }
  for (const { record, untag } of companies) {
    const current = app.data.companies.get(record.id) as Company;
    const tags = withTag(current.tags, tag.id, untag);
    if (tags) app.saveCompany({ ...current, tags, updated_at: now });
  }
  return tag;
}

function renameTarget(app: AppState, id: string, name: string): Tag {
  const tag = app.data.tags.get(id);
  if (!tag) throw apiError('tag_not_found', `Tag ${id} not found`, 'id');
  const holder = app.tagByName(name);
  if (holder && holder.id !== id) {
    throw apiError('conflict', `A tag named "${holder.name}" already exists (id ${holder.id}); tag names are case-insensitive`, 'name');
  }
  return { ...tag, name };
}

/** The new tag list, or null when it would not change. */
function withTag(tags: readonly string[], id: string, untag: boolean): string[] | null {
  const has = tags.includes(id);
  if (untag) return has ? tags.filter((t) => t !== id) : null;
  return has ? null : [...tags, id];
}

/** A user or lead by id, then user_id, then email (the lookup order of POST /users). */
function resolveCustomer(app: AppState, t: CustomerTarget, field: string): Customer {
  let found: Customer | undefined;
  if (t.id !== undefined) found = app.data.customers.get(String(t.id));
  else if (t.user_id !== undefined) found = app.customerByUserId(String(t.user_id));
  else if (t.email !== undefined) {
    const matches = app.customersByEmail(t.email).filter((c) => c.type !== 'visitor');
    if (matches.length > 1) {
      throw apiError('conflict', `Multiple existing users match this email address ${t.email} - must be more specific using user_id`, `${field}.email`);
    }
    found = matches[0];
  } else throw missing(field, `${field} needs one of id, user_id or email.`);
  if (!found || found.type === 'visitor') throw apiError('not_found', `User Not Found (${field})`, field);
  return found;
}

function resolveCompany(app: AppState, t: CompanyTarget, field: string): Company {
  let found: Company | undefined;
  if (t.id !== undefined) found = app.data.companies.get(String(t.id));
  else if (t.company_id !== undefined) found = app.companyByCompanyId(String(t.company_id));
  else throw missing(field, `${field} needs one of id or company_id.`);
  if (!found) throw apiError('company_not_found', `Company Not Found (${field})`, field);
  return found;
}
