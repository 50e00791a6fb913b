// POST /messages (surface M1, M2): an admin's in-app or email message to a user or lead, or a user's
// or lead's in-app message (a visitor sending one becomes a lead first). Each starts a conversation
// that later reads, lists and counts show; the answer is the message, whose id is not the
// conversation's (as the docs say: "you will not see the conversation ID").

import { apiError, invalid, missing } from '../../core/errors.js';
import type { AppState } from '../../state/app-state.js';
import { findCustomer, firstIdentifier, identifiersOf, lookup, type IdentityField } from '../conversations/rules.js';
import type { Store } from '../../state/store.js';
import type { Admin, Conversation, Customer } from '../../engine/types.js';
import { convertVisitor } from '../visitors/rules.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { messageBodySchema } from './shapes.js';
import { saveConversation } from '../conversations/indexes.js';
import { customerByUserId } from '../customers/indexes.js';

/** What POST /messages sends, as its schema declares it (shapes.ts). */
export type MessageInput = StaticOf<typeof messageBodySchema>;
type Party = NonNullable<MessageInput['from']>;

export type MessageResult =
  | { kind: 'admin'; id: string; created_at: number; message_type: 'inapp' | 'email'; subject: string; body: string; template: 'plain' | 'personal'; owner: Admin }
  | { kind: 'user'; id: string; created_at: number; body: string };

export function createMessage(store: Store, app: AppState, input: MessageInput): MessageResult {
  if (input.body === undefined || input.body === '') throw invalid('body', 'Body is required');
  if (input.from === undefined) throw missing('from', 'from is a required parameter: {"type":"admin","id":…} or the user or lead sending it.');
  return input.from.type === 'admin' ? fromAdmin(store, app, input, input.from) : fromCustomer(store, app, input, input.from);
}

function fromAdmin(store: Store, app: AppState, input: MessageInput, from: Party): MessageResult {
  const messageType = input.message_type ?? 'inapp';
  if (messageType === 'email' && (input.subject === undefined || input.subject === '')) throw apiError('subject_missing', 'No subject supplied for email message', 'subject');
  // .NET and Java fill template in for every message: an in-app one ignores it.
  if (messageType === 'inapp' && input.template !== undefined) app.warn('unused_field', 'template applies to email messages only: ignored.', 'template');
  if (from.id === undefined) throw missing('from.id', 'from.id (the admin\'s id) is a required parameter.');
  const admin = app.data.admins.get(String(from.id));
  if (!admin) throw apiError('not_found', 'Admin Not Found', 'from.id');
  if (input.to === undefined) throw missing('to', 'to is a required parameter for an admin message: {"type":"user"|"contact", id|user_id|email}.');
  const customer = recipient(app, input.to);
  if (messageType === 'email') {
    if (customer.email === null) throw invalid('to', 'This user has no email address to send an email message to.');
    if (customer.unsubscribed_from_emails) throw apiError('action_forbidden', 'This user is unsubscribed from emails', 'to');
  }
  const now = store.now();
  // An admin's one-off message is closed until the customer replies (a user reply reopens it), and already read: an admin wrote it.
  const conversation = start(app, customer, now, { type: 'admin', id: admin.id }, input.subject ?? '', input.body as string, { open: false, read: true, state: 'closed', waiting_since: null });
  const template = input.template ?? 'plain';
  return { kind: 'admin', id: messageId(app), created_at: conversation.created_at, message_type: messageType, subject: input.subject ?? '', body: input.body as string, template, owner: admin };
}

/** `to`: a user by id, user_id or email (type user), or a lead by id, user_id or email (type contact). */
function recipient(app: AppState, to: Party): Customer {
  return party(app, to, 'to');
}

function party(app: AppState, p: Party, at: string): Customer {
  const type = p.type ?? 'user';
  if (type !== 'user' && type !== 'contact') throw apiError('bad_request', `bad '${at}.type' parameter: use user or contact`, `${at}.type`);
  // identifiersOf skips the members left undefined.
  const ids = identifiersOf({ intercom_user_id: p.id, user_id: p.user_id, email: p.email });
  if (ids.length === 0) throw missing(`${at}.id`, `${at} needs one of id, user_id or email.`);
  const { field, value } = firstIdentifier(app, ids, `${at}.`);
  const member = `${at}.${field === 'intercom_user_id' ? 'id' : field}`;
  const customer = type === 'user' ? findCustomer(app, field, value, member) : lookupLead(app, field, value, member);
  const wanted = type === 'user' ? 'user' : 'contact';
  if (customer.type !== wanted) throw apiError('not_found', type === 'user' ? 'User Not Found' : 'Lead Not Found', member);
  return customer;
}

function lookupLead(app: AppState, field: IdentityField, value: string, member: string): Customer {
  const found = lookup(app, field, value).filter((c) => c.type === 'contact');
  if (found.length === 0) throw apiError('not_found', 'Lead Not Found', member);
  if (found.length > 1) throw apiError('conflict', `Multiple existing leads match this email address ${value} - use id or user_id`, member);
  return found[0] as Customer;
}

function fromCustomer(store: Store, app: AppState, input: MessageInput, from: Party): MessageResult {
  if (from.type !== 'user' && from.type !== 'contact') throw apiError('bad_request', "bad 'from.type' parameter: use admin, user or contact", 'from.type');
  // "Plaintext only": a customer's message is in-app, with no subject, template or recipient.
  if (input.message_type !== undefined && input.message_type !== 'inapp') throw invalid('message_type', 'A user or lead sends in-app messages only.');
  // Go always sends "to": {} (a struct omitempty cannot drop); .NET an empty subject.
  for (const member of ['subject', 'template', 'to'] as const) {
    if (input[member] !== undefined) app.warn('unused_field', `${member} is for admin messages; a user or lead message has none: ignored.`, member);
  }
  // A visitor writing as a contact "is automatically converted to a lead" first.
  const named = from.id !== undefined ? app.data.customers.get(String(from.id)) : from.user_id !== undefined ? customerByUserId(app, String(from.user_id)) : undefined;
  if (from.type === 'contact' && named?.type === 'visitor') convertVisitor(store, app, { type: 'lead', visitor: { id: named.id } });
  const customer = party(app, from, 'from');
  const now = store.now();
  const author = { type: customer.type === 'user' ? ('user' as const) : ('lead' as const), id: customer.id };
  const conversation = start(app, customer, now, author, '', input.body as string, { open: true, read: false, state: 'open', waiting_since: now });
  return { kind: 'user', id: messageId(app), created_at: conversation.created_at, body: input.body as string };
}

function start(app: AppState, customer: Customer, now: number, author: Conversation['author'], subject: string, body: string, lifecycle: Pick<Conversation, 'open' | 'read' | 'state' | 'waiting_since'>): Conversation {
  // The conversation counts towards --max-parts with its parts (as generated ones do), so conversations are bounded too.
  if (app.data.conversations.size + app.partsTotal + 1 > app.limits.parts) {
    throw apiError('resource_limit_exceeded', `This app already holds the most conversations and parts the mock allows (${app.limits.parts}); reset it or raise --max-parts.`);
  }
  const id = app.newObjectId(now, (x) => app.data.conversations.has(x));
  // Members in the order a seeded record has them (normalize.ts), so an export seeds back byte for byte.
  const conversation: Conversation = {
    id,
    created_at: now,
    updated_at: now,
    subject,
    body,
    author,
    attachments: [],
    customers: [customer.id],
    assignee: null,
    open: lifecycle.open,
    read: lifecycle.read,
    tags: [],
    parts: [],
    state: lifecycle.state,
    snoozed_until: null,
    waiting_since: lifecycle.waiting_since,
  };
  saveConversation(app, conversation);
  return conversation;
}

/** Message ids are numeric strings, as in the docs ("2001"), from the app's numeric stream. */
function messageId(app: AppState): string {
  // Stryker disable next-line ArrowFunction: equivalent, () => undefined is as falsy as () => false: no id is ever taken
  return app.newNumericId(() => false);
}
