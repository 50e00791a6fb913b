// Notes an admin leaves on a user or lead (surface N1–N3). Kept per app under `limits.notes`
// (past it a create is refused, never an old note dropped), read per person through an index
// (indexes.ts), so listing one person's notes costs its page, never a walk of the app's notes.
//
// A person's notes follow the person: archived users keep theirs (back with them on restore); a
// lead that becomes a user keeps its id and so its notes; a lead merged into an existing user
// hands them to that user; a permanent deletion (POST /user_delete_requests, DELETE /contacts)
// deletes them with the person.

import { apiError, invalid, missing, notFound } from '../../core/errors.js';
import type { PageLink, PageRequest, Pages } from '../../core/pagination.js';
import { paginate } from '../../core/pagination.js';
import type { AppState } from '../../state/app-state.js';
import { tokenOwner } from '../admins/rules.js';
import { emailOf, text } from '../customers/identity-text.js';
import { noteBytes, personNotes, storeNote } from './indexes.js';
import type { Store } from '../../state/store.js';
import type { Customer, Note } from '../../engine/types.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { noteBodySchema, noteListQuerySchema, personKeysSchema } from './shapes.js';
import { customerByUserId, customersByEmail } from '../customers/indexes.js';


export type PersonKeys = StaticOf<typeof personKeysSchema>;

const conflict = (email: string) =>
  apiError('conflict', `Multiple existing users match this email address ${email} - must be more specific using user_id`, 'email');

/**
 * The live user or lead the keys name, read in the order id → user_id → email (the first one sent
 * decides). An email names its user; with no user, its lead; several of either: 409 conflict.
 */
export function findPerson(app: AppState, keys: PersonKeys, field: string): Customer {
  const id = text(keys.id);
  const userId = text(keys.user_id);
  let found: Customer | undefined;
  if (id !== undefined) found = app.data.customers.get(id);
  else if (userId !== undefined) found = customerByUserId(app, userId);
  else {
    const email = emailOf(keys.email, `${field}email`);
    if (email === undefined) throw missing(`${field}id`, `One of ${field}id, ${field}user_id or ${field}email is required.`);
    const people = customersByEmail(app, email);
    for (const type of ['user', 'contact'] as const) {
      const ofType = people.filter((c) => c.type === type);
      if (ofType.length > 1) throw conflict(email);
      if (ofType.length === 1) return ofType[0] as Customer;
    }
  }
  if (found === undefined || found.type === 'visitor') throw notFound('User Not Found');
  return found;
}

/** A body with no HTML tag is plain text, stored wrapped in <p> (the docs: "may be enclosed with html p elements"). */
const HTML_TAG = /<\/?[A-Za-z][^<>]*>/;
export const storedBody = (body: string): string => (HTML_TAG.test(body) ? body : `<p>${body}</p>`);

/** What the request sends, as its schema declares it. */
export type NoteInput = StaticOf<typeof noteBodySchema>;

function personOf(app: AppState, input: NoteInput): Customer {
  const topLevel = text(input.user_id) !== undefined || text(input.email) !== undefined;
  if (input.user !== undefined && input.user !== null) {
    if (topLevel) throw invalid('user', 'Name the person once: in user, or as top-level user_id or email, not both.');
    return findPerson(app, input.user, 'user.');
  }
  if (!topLevel) throw missing('user', 'user (with one of id, user_id or email) is a required parameter.');
  return findPerson(app, { user_id: input.user_id, email: input.email }, '');
}

function authorOf(app: AppState, input: NoteInput, token: string): string {
  if (input.admin_id !== undefined && input.admin_id !== null && input.admin_id !== '') {
    const id = String(input.admin_id);
    if (!app.data.admins.has(id)) throw apiError('admin_not_found', 'Admin not found', 'admin_id');
    return id;
  }
  const owner = tokenOwner(app, token);
  if (!owner) throw missing('admin_id', 'admin_id is a required parameter: this app has no admin its token belongs to.');
  return owner.id;
}


/** POST /notes. */
export function createNote(store: Store, app: AppState, input: NoteInput, token: string): Note {
  const body = input.body;
  if (typeof body !== 'string' || body.trim() === '') throw missing('body', 'body is a required parameter.');
  const person = personOf(app, input);
  const adminId = authorOf(app, input, token);
  const { notes } = app.data;
  if (notes.size >= app.limits.notes) {
    throw apiError('resource_limit_exceeded', `This app already holds the most notes the mock allows (${app.limits.notes}); reset it, or delete people (their notes go with them).`);
  }
  const note: Note = { id: app.newNumericId((x) => notes.has(x)), customer: person.id, admin_id: adminId, body: storedBody(body), created_at: store.now() };
  if (!store.budgets.fits(app, 'notes', noteBytes(note))) {
    throw apiError(
      'resource_limit_exceeded',
      `The notes of every app already hold close to ${store.budgets.limits.notes} bytes, the most the mock keeps; reset apps, delete people (their notes go with them), or write shorter notes.`,
    );
  }
  storeNote(app, note);
  return note;
}

export function getNote(app: AppState, id: string): Note {
  const note = app.data.notes.get(id);
  if (!note) throw notFound('Resource Not Found');
  return note;
}

export type NoteListQuery = StaticOf<typeof noteListQuerySchema>;

/** GET /notes: one page of a person's notes, newest (most recently created) first. */
export function listNotes(app: AppState, query: NoteListQuery, paging: PageRequest, link: PageLink): { person: Customer; total: number; items: Note[]; pages: Pages } {
  const id = text(query.id) ?? text(query.intercom_user_id);
  if (id === undefined && text(query.user_id) === undefined && text(query.email) === undefined) {
    throw missing('id', 'One of id, intercom_user_id, user_id or email is required.');
  }
  const person = findPerson(app, { id, user_id: query.user_id, email: query.email }, '');
  const listing = personNotes(app, person.id);
  const { items, pages } = paginate(listing, paging, link);
  return { person, total: listing.total, items, pages };
}




