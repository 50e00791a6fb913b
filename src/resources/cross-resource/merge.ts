// What converting a visitor or a lead into a user does to the records (POST /visitors/convert,
// POST /contacts/convert): the anonymous record becomes the user, or is merged into an existing one.

import { ApiError, missing } from '../../core/errors.js';
import { mergeCustomAttributes } from '../customers/custom-attributes.js';
import { matchUser, type Identity } from '../customers/rules.js';
import { emailOf, text } from '../customers/identity-text.js';
import { enqueueEnrichment } from '../../engine/job-queue.js';
import type { Store } from '../../state/store.js';
import type { AppState } from '../../state/app-state.js';
import { joined } from '../../engine/join-log.js';
import { moveNotes } from '../notes/indexes.js';
import type { Author, Conversation, Customer } from '../../engine/types.js';
import { conversationMaps, saveConversation } from '../conversations/indexes.js';
import { removeCustomer, saveCustomer } from '../customers/indexes.js';

/** The anonymous record becomes the user: its id kept, its user_id replaced, its email kept unless one is given. */
export function becomeUser(visitor: Customer, identity: Identity, now: number): Customer {
  return { ...visitor, type: 'user', anonymous: false, pseudonym: null, user_id: identity.user_id ?? null, email: identity.email ?? visitor.email, updated_at: now };
}

/** `a`, then what `b` adds; one Set, not a scan of `a` per item of `b`. */
function union(a: readonly string[], b: readonly string[]): string[] {
  const seen = new Set(a);
  return [...a, ...b.filter((x) => !seen.has(x))];
}

/**
 * The user's own values win; the visitor or lead fills what the user lacks, but never its
 * identifiers (id, user_id, email) and never a pseudonym (users have none).
 */
export function mergeInto(user: Customer, visitor: Customer, now: number): Customer {
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
    email: user.email,
    companies: union(user.companies, visitor.companies),
    tags: union(user.tags, visitor.tags),
    segments: union(user.segments, visitor.segments),
    session_count: user.session_count + visitor.session_count,
    custom_attributes: merged.value,
    updated_at: now,
  };
}

/**
 * The conversations naming `fromId` (found through the app's customer -> conversation index, so
 * linear in those conversations, never a walk of the app) name `toId` instead: in `customers`
 * (once), and as the author of the conversation and of its parts.
 */
export function moveConversations(app: AppState, fromId: string, toId: string): void {
  const { conversations } = app.data;
  const ids = joined(conversationMaps(app), fromId, (id) => (conversations.get(id)?.customers.includes(fromId) ? id : undefined));
  const moved = (a: Author): Author => ((a.type === 'user' || a.type === 'lead') && a.id === fromId ? { type: 'user', id: toId } : a);
  for (const id of ids) {
    const c = conversations.get(id) as Conversation;
    const customers = c.customers.includes(toId) ? c.customers.filter((x) => x !== fromId) : c.customers.map((x) => (x === fromId ? toId : x));
    const parts = c.parts.some((p) => moved(p.author) !== p.author) ? c.parts.map((p) => (moved(p.author) === p.author ? p : { ...p, author: moved(p.author) })) : c.parts;
    saveConversation(app, { ...c, customers, author: moved(c.author), parts });
  }
}

/**
 * A lead or visitor converted into the user `keys` name (POST /contacts/convert, POST
 * /visitors/convert): merged into that user when one matches (the person's record goes, its
 * conversations follow), or becoming that user under its own id.
 */
export function convertIntoUser(store: Store, app: AppState, person: Customer, keys: { id?: string; user_id?: string | null; email?: string | null }, now: number): Customer {
  if (keys.id === undefined && text(keys.user_id) === undefined && emailOf(keys.email, 'user.email') === undefined) {
    throw missing('user.user_id', 'User email, user_id or id must be supplied');
  }
  const { target, identity } = matchUser(store, app, keys, 'user.email', 'user.user_id');
  const user = typeof target === 'function' ? becomeUser(person, identity, now) : mergeInto({ ...target, ...identity }, person, now);
  if (user.id !== person.id) {
    removeCustomer(app, person);
    moveConversations(app, person.id, user.id);
    moveNotes(app, person.id, user.id);
  }
  saveCustomer(app, user);
  if (user.email !== person.email) enqueueEnrichment(app, user.id, now + store.jobDelaySeconds);
  return user;
}
