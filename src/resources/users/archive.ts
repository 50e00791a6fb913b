// Archiving a user (DELETE /users): a soft delete. The record leaves `customers` through
// removeCustomer (customers/indexes.ts), which keeps every index and tally true, so no read (lists, lookups,
// company members, counts) sees it without filtering anything; it waits in `archived`, findable by
// id, user_id and email, until POST /users names it again and it comes back with the same id,
// companies, tags and segments (conversations never stopped naming it).

import { apiError, missing, notFound } from '../../core/errors.js';
import type { AppState } from '../../state/app-state.js';
import { emailOf, text } from '../customers/identity-text.js';
import { addBytes } from '../../engine/byte-budget.js';
import { join, leave, type JoinMaps } from '../../engine/join-log.js';
import { customerShare } from '../../engine/record-bytes.js';
import type { Customer } from '../../engine/types.js';
import { customerByUserId, customersByEmail, removeCustomer, saveCustomer } from '../customers/indexes.js';

export interface UserKeys {
  id?: string;
  user_id?: string | null;
  email?: string | null;
}

const archivedEmailMaps = (app: AppState): JoinMaps => ({ logs: app.data.archivedEmails, seqs: app.data.archivedEmailSeqs });

/**
 * The live user to archive: by id, else user_id, else email (the lookup order of GET /users), an
 * email shared by several users being a 409 as it is for GET.
 */
export function userToArchive(app: AppState, keys: UserKeys): Customer {
  const userId = text(keys.user_id);
  const email = emailOf(keys.email);
  let found: Customer | undefined;
  if (keys.id !== undefined && keys.id !== '') found = app.data.customers.get(keys.id);
  else if (userId !== undefined) found = customerByUserId(app, userId);
  else if (email !== undefined) {
    const users = customersByEmail(app, email).filter((c) => c.type === 'user');
    if (users.length > 1) {
      throw apiError('conflict', `Multiple existing users match this email address ${email} - must be more specific using user_id`, 'email');
    }
    found = users[0];
  } else throw missing('user_id', 'An id, user_id or email is required to archive a user.');
  if (found?.type !== 'user') throw notFound('User Not Found');
  return found;
}

/** DELETE /users: the user leaves every read and waits in the archive; returns it as it was. */
export function archiveUser(app: AppState, keys: UserKeys): Customer {
  const user = userToArchive(app, keys);
  // The archive keeps the record, so its bytes stay counted until it is restored or deleted.
  removeCustomer(app, user, true);
  app.data.archived.set(user.id, user);
  if (user.user_id !== null) app.data.archivedByUserId.set(user.user_id, user.id);
  if (user.email !== null) join(archivedEmailMaps(app), user.email, user.id);
  return user;
}

/** Takes a record out of the archive (to restore it, or to delete it for good). */
export function dropArchived(app: AppState, user: Customer): void {
  app.data.archived.delete(user.id);
  addBytes(app.data.tallies, 'customers', -customerShare(app, user));
  // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: equivalent but for leaving the entry behind (which test/state/indexes-match-records.test.ts catches): no two archived users share a user_id, as a POST /users naming an archived one's restores it
  if (user.user_id !== null && app.data.archivedByUserId.get(user.user_id) === user.id) app.data.archivedByUserId.delete(user.user_id);
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, no email's log has the key null
  if (user.email !== null) leave(archivedEmailMaps(app), user.email, user.id);
}

/**
 * The archived user a POST /users names, if any: by id; else by user_id; else, when no user_id was
 * sent, by email (the most recently archived user with that email). Called only once the live
 * lookup found nobody, so a live user always wins over an archived one.
 */
export function archivedMatch(app: AppState, keys: { id?: string; userId?: string; email?: string }): Customer | undefined {
  const { archived } = app.data;
  if (keys.id !== undefined) return archived.get(keys.id);
  if (keys.userId !== undefined) {
    const id = app.data.archivedByUserId.get(keys.userId);
    // Stryker disable next-line ConditionalExpression: equivalent when forced false, no archived user has the id undefined
    return id === undefined ? undefined : archived.get(id);
  }
  // Stryker disable next-line ConditionalExpression: equivalent when forced false, no email's log has the key undefined
  if (keys.email === undefined) return undefined;
  const log = app.data.archivedEmails.get(keys.email);
  // From the newest entry back: entries that left are rare and compacted once they outnumber the rest.
  // Stryker disable next-line ArithmeticOperator: equivalent, the places past the log's end hold no one
  for (let i = (log?.length ?? 0) - 1; i >= 0; i--) {
    const c = archived.get(log?.ids[i] as string);
    if (c?.email === keys.email) return c;
  }
  return undefined;
}

/** Brings an archived user back as it was, minus references to companies, tags or segments deleted meanwhile. */
export function restoreArchived(app: AppState, user: Customer): Customer {
  dropArchived(app, user);
  const restored = withLiveReferences(app, user);
  saveCustomer(app, restored);
  return restored;
}

function withLiveReferences(app: AppState, c: Customer): Customer {
  const { companies, tags, segments } = app.data;
  const keep = (ids: string[], has: (id: string) => boolean) => (ids.every(has) ? ids : ids.filter(has));
  const next = { companies: keep(c.companies, (id) => companies.has(id)), tags: keep(c.tags, (id) => tags.has(id)), segments: keep(c.segments, (id) => segments.has(id)) };
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, a copy with the same lists is the same record to every reader
  return next.companies === c.companies && next.tags === c.tags && next.segments === c.segments ? c : { ...c, ...next };
}

/** The archive as the fixture document holds it (references to deleted records left out, as a restore would). */
export function exportArchived(app: AppState): Customer[] {
  return [...app.data.archived.values()].map((c) => withLiveReferences(app, c));
}
