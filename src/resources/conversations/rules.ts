// Conversations: read, identify their customers, add a customer (spec 4.11), and the two part
// limits of spec 8 (at most 500 parts shown; at most 60 created a minute per conversation, kept by
// replies.ts).

import { apiError, invalid, missing } from '../../core/errors.js';
import { MAX_CONVERSATION_CUSTOMERS } from '../../schemas/fields.js';
import type { AppState } from '../../state/app-state.js';
import { newAnonymous } from '../customers/rules.js';
import { emailOf } from '../customers/identity-text.js';
import type { Store } from '../../state/store.js';
import type { Attachment, Conversation, ConversationPart, Customer } from '../../engine/types.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { addCustomerBodySchema } from './shapes.js';
import { saveConversation } from './indexes.js';
import { customerByUserId, customersByEmail, saveCustomer } from '../customers/indexes.js';

export const MAX_PARTS_SHOWN = 500;
export const PARTS_PER_MINUTE = 60;

export type DisplayAs = 'html' | 'plaintext';

export function displayAs(value: unknown): DisplayAs {
  if (value === undefined || value === 'html') return 'html';
  if (value === 'plaintext') return 'plaintext';
  throw apiError('bad_request', "bad 'display_as' parameter: use plaintext or html", 'display_as');
}

export function getConversation(app: AppState, id: string): Conversation {
  const conversation = app.data.conversations.get(id);
  if (!conversation) throw apiError('not_found', 'Conversation not found');
  return conversation;
}

/** Oldest first (stable on equal times, as seeded parts may share one); only the 500 most recent. */
export function visibleParts(conversation: Conversation): ConversationPart[] {
  const sorted = conversation.parts
    .map((part, i) => ({ part, i }))
    .sort((a, b) => a.part.created_at - b.part.created_at || a.i - b.i)
    .map((x) => x.part);
  return sorted.length > MAX_PARTS_SHOWN ? sorted.slice(-MAX_PARTS_SHOWN) : sorted;
}

// --- identifying customers -----------------------------------------------------------------------

/**
 * A customer named by one of these; intercom_user_id and service_user_id both mean its id. Clients
 * send ids as numbers as often as text (read as text).
 */
export interface CustomerIdentity {
  intercom_user_id?: string | number;
  service_user_id?: string | number;
  user_id?: string | number;
  email?: string;
}

const IDENTITY_FIELDS = ['intercom_user_id', 'service_user_id', 'user_id', 'email'] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];

export function identifiersOf(ref: CustomerIdentity): { field: IdentityField; value: string }[] {
  return IDENTITY_FIELDS.filter((f) => ref[f] !== undefined).map((field) => ({ field, value: String(ref[field]) }));
}

/**
 * The identifier that names the person when a client sent several (Go sends every identifier a
 * fetched user holds): the first in the lookup order decides, as the real API's lookup did; one
 * that names someone else is reported, never refused (strict mode refuses it). `at` prefixes the
 * member named in the warning (`to.` for a message's recipient).
 */
export function firstIdentifier(app: AppState, ids: readonly { field: IdentityField; value: string }[], at = ''): { field: IdentityField; value: string } {
  const first = ids[0] as { field: IdentityField; value: string };
  if (ids.length < 2) return first;
  const named = new Set(lookup(app, first.field, first.value).map((c) => c.id));
  for (const other of ids.slice(1)) {
    if (named.size > 0 && lookup(app, other.field, other.value).some((c) => named.has(c.id))) continue;
    const member = `${at}${other.field === 'intercom_user_id' && at ? 'id' : other.field}`;
    app.warn('identifier_overridden', `${first.field} ${JSON.stringify(first.value.slice(0, 100))} names the person; ${member} ${JSON.stringify(other.value.slice(0, 100))} ${named.size === 0 ? 'was not used' : 'names someone else and was not used'}.`, member);
  }
  return first;
}

/** Users and leads the identifier names (several only for a shared email); visitors are not in conversations. */
export function lookup(app: AppState, field: IdentityField, value: string): Customer[] {
  let found: Customer[];
  if (field === 'email') found = customersByEmail(app, value);
  else {
    const c = field === 'user_id' ? customerByUserId(app, value) : app.data.customers.get(value);
    found = c ? [c] : [];
  }
  return found.filter((c) => c.type !== 'visitor');
}

/** The one user or lead the identifier names: 404 when none, 409 when an email names several. */
export function findCustomer(app: AppState, field: IdentityField, value: string, at: string = field): Customer {
  const found = lookup(app, field, value);
  if (found.length === 0) throw apiError('not_found', 'User Not Found', at);
  if (found.length > 1) throw apiError('conflict', `Multiple existing users match this email address ${value} - must be more specific using user_id`, at);
  return found[0] as Customer;
}

/** Whether a customer is in the conversation: one Set, however many customers an email names. */
export function inConversation(conversation: Conversation): (c: Customer) => boolean {
  const ids = new Set(conversation.customers);
  return (c) => ids.has(c.id);
}

export const authorTypeOf = (c: Customer | undefined): 'user' | 'lead' => (c === undefined || c.type === 'user' ? 'user' : 'lead');

// --- adding a customer ---------------------------------------------------------------------------

/** What the request sends, as its schema declares it. */
export type AddCustomerInput = StaticOf<typeof addCustomerBodySchema>;

/** Adds the customer (creating a lead for an unknown email) unless already there; returns the conversation. */
export function addCustomer(store: Store, app: AppState, id: string, input: AddCustomerInput): Conversation {
  const conversation = getConversation(app, id);
  checkRequester(app, conversation, input);
  const target = input.customer ?? {};
  const ids = identifiersOf(target);
  if (ids.length === 0) throw missing('customer', 'customer needs one of intercom_user_id, user_id or email.');
  if (ids.length > 1) throw invalid('customer', `customer must be identified by exactly one of intercom_user_id, user_id or email; got ${ids.map((x) => x.field).join(', ')}.`);
  const { field, value } = ids[0] as { field: IdentityField; value: string };
  const matches = lookup(app, field, value);
  if (matches.length > 1) {
    throw apiError('conflict', `Multiple existing users match this email address ${value} - must be more specific using user_id`, 'customer.email');
  }
  let customer = matches[0];
  if (!customer && field !== 'email') throw apiError('not_found', 'User Not Found', `customer.${field}`);
  // The real documentation: adding "via intercom_user_id or user_id which does not have an email" is an error.
  if (customer && field !== 'email' && customer.email === null) {
    throw invalid(`customer.${field}`, `The customer ${value} has no email: a customer added by intercom_user_id or user_id needs one (add it by email instead, or give it an email first).`);
  }
  if (customer && conversation.customers.includes(customer.id)) return conversation;
  if (conversation.customers.length >= MAX_CONVERSATION_CUSTOMERS) {
    throw invalid('customer', `A conversation holds at most ${MAX_CONVERSATION_CUSTOMERS} customers, and this one is full.`);
  }
  if (!customer) {
    const email = emailOf(value, 'customer.email');
    if (email === undefined || !/^[^\s@]+@[^\s@]+$/.test(email)) throw invalid('customer.email', `"${value}" is not an email address.`);
    customer = { ...newAnonymous(store, app, 'contact'), email };
    saveCustomer(app, customer);
  }
  const next: Conversation = { ...conversation, customers: [...conversation.customers, customer.id], updated_at: store.now() };
  saveConversation(app, next);
  return next;
}

/** An existing admin, or a customer already in the conversation. */
function checkRequester(app: AppState, conversation: Conversation, input: AddCustomerInput): void {
  const ids = identifiersOf(input);
  if (input.admin_id !== undefined) {
    if (ids.length > 0) throw invalid('admin_id', 'Send admin_id or one customer identifier as the requester, not both.');
    if (!app.data.admins.has(String(input.admin_id))) throw apiError('admin_not_found', 'Admin Not Found', 'admin_id');
    return;
  }
  if (ids.length === 0) {
    throw missing('admin_id', 'admin_id, or one of intercom_user_id, user_id or email of a customer in the conversation, is required.');
  }
  const { field, value } = firstIdentifier(app, ids);
  const found = lookup(app, field, value);
  if (found.length === 0) throw apiError('not_found', 'User Not Found', field);
  if (!found.some(inConversation(conversation))) {
    throw apiError('action_forbidden', 'Only an admin or a customer already in the conversation can add customers to it', field);
  }
}

export function newPartId(conversation: Conversation): string {
  const taken = new Set(conversation.parts.map((p) => p.id));
  let n = conversation.parts.length + 1;
  while (taken.has(String(n))) n++;
  return String(n);
}

export function attachmentOf(url: string): Attachment {
  const path = url.split(/[?#]/)[0] ?? url;
  return { name: decodeURIComponentSafe(path.slice(path.lastIndexOf('/') + 1)) || url, url };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
