// Tags: create-or-find by name (case-insensitive), rename by id, and tag or untag users, leads and
// companies in the same request. Every target is resolved before anything is written, so a request
// that names one unknown record changes nothing.

import { apiError, invalid, missing } from '../../core/errors.js';
import { longerThan, normalTagName } from '../../core/normal-text.js';
import { MAX_SHORT_TEXT } from '../../schemas/fields.js';
import type { AppState } from '../../state/app-state.js';
import type { Store } from '../../state/store.js';
import type { Company, Customer, Tag } from '../../engine/types.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { saveTagBodySchema } from './shapes.js';
import { storeTag, tagByName } from './indexes.js';
import { customerByUserId, customersByEmail, saveCustomer } from '../customers/indexes.js';
import { companyByCompanyId, saveCompany } from '../companies/indexes.js';

/** What POST /tags sends, as its schema declares it (shapes.ts). */
export type SaveTagInput = StaticOf<typeof saveTagBodySchema>;
type CustomerTarget = NonNullable<SaveTagInput['users']>[number];
type CompanyTarget = NonNullable<SaveTagInput['companies']>[number];

/** A new tag: refused when every app together already holds limits.allTags (each app's own cap is limits.tags). */
export function checkStoreRoomForTag(store: Store): void {
  let total = 0;
  for (const id of store.appIds()) total += store.app(id)?.data.tags.size ?? 0;
  const max = store.limits.allTags;
  if (total >= max) throw apiError('resource_limit_exceeded', `The mock's apps together already hold the most tags it allows (${max}); reset apps or delete tags.`);
}

export function listTags(app: AppState): Tag[] {
  return [...app.data.tags.values()];
}

/** POST /tags: the tag created, found or renamed, with the requested tagging applied. */
export function saveTag(store: Store, app: AppState, input: SaveTagInput): Tag {
  // Stored trimmed and in NFC (core/normal-text.ts), so a name of blanks names nothing.
  const name = typeof input.name === 'string' ? normalTagName(input.name) : '';
  if (name === '') throw missing('name', 'Name is a required parameter.');
  if (longerThan(name, MAX_SHORT_TEXT)) throw invalid('name', `name is longer than ${MAX_SHORT_TEXT} characters once trimmed and normalised (NFC).`);
  const renamed = input.id === undefined ? undefined : renameTarget(app, String(input.id), name);
  // One change per record: a record named twice is tagged or untagged as its last entry says, so
  // the request costs one pass over its entries and over each record's tags, however it repeats.
  const customers = new Map<string, { record: Customer; untag: boolean }>();
  (input.users ?? []).forEach((t, i) => {
    const record = resolveCustomer(app, t, `users[${i}]`);
    customers.set(record.id, { record, untag: t.untag === true });
  });
  const companies = new Map<string, { record: Company; untag: boolean }>();
  (input.companies ?? []).forEach((t, i) => {
    const record = resolveCompany(app, t, `companies[${i}]`);
    companies.set(record.id, { record, untag: t.untag === true });
  });

  const tag = renamed ?? tagByName(app, name) ?? { id: app.newNumericId((x) => app.data.tags.has(x)), name };
  if (!app.data.tags.has(tag.id)) checkStoreRoomForTag(store);
  if (renamed || !app.data.tags.has(tag.id)) storeTag(app, tag);

  const now = store.now();
  for (const { record, untag } of customers.values()) {
    const tags = withTag(record.tags, tag.id, untag);
    if (tags) saveCustomer(app, { ...record, tags, updated_at: now });
  }
  for (const { record, untag } of companies.values()) {
    const tags = withTag(record.tags, tag.id, untag);
    if (tags) saveCompany(app, { ...record, tags, updated_at: now });
  }
  return tag;
}

function renameTarget(app: AppState, id: string, name: string): Tag {
  const tag = app.data.tags.get(id);
  if (!tag) throw apiError('tag_not_found', `Tag ${id} not found`, 'id');
  const holder = tagByName(app, name);
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
  else if (t.user_id !== undefined) found = customerByUserId(app, String(t.user_id));
  else if (t.email !== undefined) {
    const matches = customersByEmail(app, t.email).filter((c) => c.type !== 'visitor');
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
  else if (t.company_id !== undefined) found = companyByCompanyId(app, String(t.company_id));
  else throw missing(field, `${field} needs one of id or company_id.`);
  if (!found) throw apiError('company_not_found', `Company Not Found (${field})`, field);
  return found;
}
