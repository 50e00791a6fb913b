// Real deletes: a permanent-deletion request for a user or lead (POST /user_delete_requests), a
// lead (DELETE /contacts) and a visitor (DELETE /visitors). The record leaves through
// removeCustomer (customers/indexes.ts), so indexes and tallies stay true at a cost linear in the record's own
// lists. Conversations it was in are kept and still name its id (the real API kept them too);
// the export lists such ids as `former_customers` so the document seeds back.

import { missing, notFound } from '../../core/errors.js';
import type { AppState } from '../../state/app-state.js';
import { dropArchived } from '../users/archive.js';
import { findAnonymous } from '../customers/rules.js';
import { text } from '../customers/identity-text.js';
import { deleteNotesOf } from '../notes/indexes.js';
import type { Customer } from '../../engine/types.js';
import { tally } from '../counts/tallies.js';
import { removeCustomer } from '../customers/indexes.js';

/** The tally holding how many deletion requests the app has answered (the last id handed out). */
export const DELETE_REQUESTS_TALLY = 'user-delete-requests';

/**
 * POST /user_delete_requests: the user or lead (archived users too) is gone at once and for good:
 * no archive to restore from, so a later POST /users with its user_id makes a new record.
 */
export function requestDeletion(app: AppState, intercomUserId: unknown): { id: number } {
  const id = typeof intercomUserId === 'string' ? text(intercomUserId) : undefined;
  if (id === undefined) throw missing('intercom_user_id', 'intercom_user_id is a required parameter.');
  const live = app.data.customers.get(id);
  const archived = live ? undefined : app.data.archived.get(id);
  if (live && live.type !== 'visitor') removeCustomer(app, live);
  else if (archived) dropArchived(app, archived);
  else throw notFound('User Not Found');
  deleteNotesOf(app, id);
  const n = tally(app, DELETE_REQUESTS_TALLY) + 1;
  app.data.tallies.set(DELETE_REQUESTS_TALLY, n);
  return { id: n };
}

/** DELETE /contacts/{id}, DELETE /contacts?user_id=: the lead as it was, now gone from every read. */
export function deleteLead(app: AppState, keys: { id?: string; user_id?: string | null }): Customer {
  const lead = findAnonymous(app, 'contact', keys);
  if (!lead) throw missing('user_id', 'A lead id or user_id is required.');
  removeCustomer(app, lead);
  deleteNotesOf(app, lead.id);
  return lead;
}

/** DELETE /visitors/{id}: the visitor as it was, now gone (a later convert of it is a 404). */
export function deleteVisitor(app: AppState, id: string): Customer {
  const visitor = findAnonymous(app, 'visitor', { id });
  if (!visitor) throw notFound('Visitor Not Found');
  removeCustomer(app, visitor);
  return visitor;
}

/** Deleted customers that conversations still name (walks the conversations: for the export only). */
export function formerCustomers(app: AppState): string[] {
  const { customers, archived } = app.data;
  const out = new Set<string>();
  const note = (id: string) => {
    if (!customers.has(id) && !archived.has(id)) out.add(id);
  };
  const person = (a: { type: string; id: string }) => a.type === 'user' || a.type === 'lead';
  for (const c of app.data.conversations.values()) {
    c.customers.forEach(note);
    if (person(c.author)) note(c.author.id);
    for (const p of c.parts) if (person(p.author)) note(p.author.id);
  }
  return [...out].sort();
}
