// Every reply variant of POST /conversations/{id}/reply (surface K3–K8): admin comments and notes,
// assignment, open, close, snooze (and unsnooze, which is an open), user comments, the reply to a
// customer's last conversation; mark as read (K2) and running the assignment rules (K9). Each moves
// the conversation's lifecycle (state.ts) and adds its part, within the 60 new parts a
// minute of a conversation and the app's parts limit.

import { apiError, invalid, missing } from '../../core/errors.js';
import { MAX_TIME } from '../../schemas/fields.js';
import type { AppState } from '../../state/app-state.js';
import { customerScope } from './order.js';
import { lifecycleAt, type Lifecycle } from './state.js';
import {
  firstIdentifier,
  attachmentOf,
  authorTypeOf,
  findCustomer,
  getConversation,
  identifiersOf,
  inConversation,
  lookup,
  newPartId,
  PARTS_PER_MINUTE,
} from './rules.js';
import { joined } from '../../engine/join-log.js';
import type { Store } from '../../state/store.js';
import type { Author, Conversation, ConversationPart, PartType } from '../../engine/types.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { replyBodySchema } from './shapes.js';
import { conversationMaps, saveConversation } from './indexes.js';

const PART_WINDOW_SECONDS = 60;

export type ReplyType = 'comment' | 'note' | 'assignment' | 'open' | 'close' | 'snoozed';

/** What the request sends, as its schema declares it. */
export type ReplyInput = StaticOf<typeof replyBodySchema>;

/** Members only some message types take: sent with another, they are refused rather than ignored. */
const ONLY_WITH: Record<'assignee_id' | 'snoozed_until' | 'attachment_urls', readonly ReplyType[]> = {
  assignee_id: ['assignment'],
  snoozed_until: ['snoozed'],
  attachment_urls: ['comment', 'note'],
};

/** POST /conversations/{id}/reply: the conversation with its new part. */
export function reply(store: Store, app: AppState, id: string, input: ReplyInput): Conversation {
  const conversation = getConversation(app, id);
  // Java sends snoozed_until 0 with every admin reply: a member another message_type uses is ignored.
  for (const [member, types] of Object.entries(ONLY_WITH)) {
    if (input[member as keyof typeof ONLY_WITH] !== undefined && !types.includes(input.message_type)) {
      app.warn('unused_field', `${member} goes with message_type ${types.join(' or ')}, not ${input.message_type}: ignored.`, member);
    }
  }
  if (input.message_type === 'comment' || input.message_type === 'note') {
    if (input.body === undefined) throw missing('body', `body is a required parameter for a ${input.message_type}.`);
    if (input.body === '') throw invalid('body', `body must not be empty for a ${input.message_type}.`);
  }
  const now = store.now();
  const isAdmin = replierType(app, input) === 'admin';
  const author = isAdmin ? adminAuthor(app, input) : userAuthor(app, conversation, input);
  const was = lifecycleAt(conversation, now);
  const change = isAdmin ? adminChange(app, input, was, now) : userChange(was, now);
  const part: ConversationPart = {
    id: newPartId(conversation),
    part_type: input.message_type as PartType,
    // An empty body (.NET's default on assignment, open and close) is no body.
    body: input.message_type === 'snoozed' || input.body === '' ? null : (input.body ?? null),
    created_at: now,
    updated_at: now,
    notified_at: now,
    assigned_to: change.assigned_to ?? null,
    author,
    attachments: ONLY_WITH.attachment_urls.includes(input.message_type) ? (input.attachment_urls ?? []).map(attachmentOf) : [],
  };
  return appendPart(app, { ...conversation, ...change.fields, updated_at: now }, conversation, part, now);
}

/** `type` may be left out when admin_id is sent (the unsnooze example of the 1.2 docs sends none). */
function replierType(app: AppState, input: ReplyInput): 'admin' | 'user' {
  // Java types its replies admin_reply and user_reply.
  if (input.type === 'admin_reply' || input.type === 'user_reply') {
    const type = input.type === 'admin_reply' ? 'admin' : 'user';
    app.warn('coerced_value', `type must be admin or user: ${JSON.stringify(input.type)} was read as ${JSON.stringify(type)}.`, 'type');
    return type;
  }
  if (input.type !== undefined) return input.type;
  if (input.admin_id !== undefined) return 'admin';
  throw missing('type', 'type is a required parameter (admin or user); it may be left out only when admin_id names the admin.');
}

function adminAuthor(app: AppState, input: ReplyInput): Author {
  if (input.admin_id === undefined) throw missing('admin_id', 'admin_id is a required parameter for an admin reply.');
  if (!app.data.admins.has(String(input.admin_id))) throw apiError('admin_not_found', 'Admin Not Found', 'admin_id');
  return { type: 'admin', id: String(input.admin_id) };
}

function userAuthor(app: AppState, conversation: Conversation, input: ReplyInput): Author {
  // Go's README and unit test send a user's open ("User reply that opens") [I]; nothing else but a comment.
  if (input.message_type !== 'comment' && input.message_type !== 'open') throw invalid('message_type', 'A user can only reply with message_type comment or open.');
  const ids = identifiersOf(input);
  if (ids.length === 0) throw missing('intercom_user_id', 'A user reply needs one of intercom_user_id, user_id or email.');
  const { field, value } = firstIdentifier(app, ids);
  const found = lookup(app, field, value);
  if (found.length === 0) throw apiError('not_found', 'User Not Found', field);
  const member = found.find(inConversation(conversation));
  if (!member) throw apiError('action_forbidden', 'Only a customer in the conversation can reply to it as a user', field);
  return { type: authorTypeOf(member), id: member.id };
}

interface Change {
  fields: Partial<Conversation> & Lifecycle;
  assigned_to?: Author | null;
}

const closed: Lifecycle = { state: 'closed', snoozed_until: null, waiting_since: null };
const opened = (was: Lifecycle): Lifecycle => ({ state: 'open', snoozed_until: null, waiting_since: was.waiting_since });

function adminChange(app: AppState, input: ReplyInput, was: Lifecycle, now: number): Change {
  switch (input.message_type) {
    // An admin's answer stops the customer's wait (the 1.2 changelog: waiting_since is null when an admin replied last).
    case 'comment':
      return { fields: { ...was, waiting_since: null } };
    case 'note':
      return { fields: { ...was } };
    case 'assignment': {
      const assignee = assigneeOf(app, input.assignee_id);
      return { fields: { ...was, assignee }, assigned_to: assignee };
    }
    case 'open':
      return { fields: { ...opened(was), open: true } };
    case 'close':
      return { fields: { ...closed, open: false } };
    case 'snoozed':
      // A snoozed conversation is still open: the counts' open includes it.
      return { fields: { state: 'snoozed', snoozed_until: snoozeEnd(input.snoozed_until, now), waiting_since: was.waiting_since, open: true } };
  }
}

/** A customer's comment reopens a closed or snoozed conversation and leaves it unread, waiting since its first unanswered message. */
function userChange(was: Lifecycle, now: number): Change {
  return { fields: { state: 'open', snoozed_until: null, waiting_since: was.waiting_since ?? now, open: true, read: false } };
}

/** "0" unassigns; otherwise an admin or a team of the app. */
function assigneeOf(app: AppState, raw: string | number | undefined): Author | null {
  if (raw === undefined) throw missing('assignee_id', 'assignee_id is a required parameter for an assignment ("0" unassigns).');
  const id = String(raw);
  if (id === '0') return null;
  if (app.data.admins.has(id)) return { type: 'admin', id };
  if (app.data.teams.has(id)) return { type: 'team', id };
  throw apiError('admin_not_found', `No admin or team has the id ${id}.`, 'assignee_id');
}

/**
 * Unix seconds, in the future. The real API answers a value in milliseconds with a bare 500; here
 * anything past the largest timestamp the mock keeps (9999-12-31) is that mistake, named.
 */
function snoozeEnd(raw: string | number | undefined, now: number): number {
  if (raw === undefined) throw missing('snoozed_until', 'snoozed_until (unix seconds) is a required parameter for message_type snoozed.');
  const text = String(raw);
  if (!/^[0-9]{1,15}$/.test(text)) throw invalid('snoozed_until', `snoozed_until is a unix time in seconds; got ${JSON.stringify(raw)}.`);
  const at = Number(text);
  if (at > MAX_TIME) {
    throw invalid('snoozed_until', `snoozed_until ${text} is past 9999-12-31: it looks like milliseconds, and the API takes unix seconds (${Math.floor(at / 1000)}?).`);
  }
  if (at <= now) throw invalid('snoozed_until', `snoozed_until ${text} is not in the future (now is ${now}).`);
  return at;
}

/** Stores `next` with `part` appended: at most 60 new parts a minute per conversation (a sliding window). */
function appendPart(app: AppState, next: Conversation, current: Conversation, part: ConversationPart, now: number): Conversation {
  // Counted from the stored parts' created_at, so a reset or re-seed clears the window with the data.
  const recent = current.parts.filter((p) => p.created_at > now - PART_WINDOW_SECONDS).length;
  if (recent >= PARTS_PER_MINUTE) {
    throw apiError('rate_limit_exceeded', `Exceeded rate limit of ${PARTS_PER_MINUTE} conversation parts per minute for this conversation`);
  }
  const stored: Conversation = { ...next, parts: [...current.parts, part] };
  saveConversation(app, stored);
  return stored;
}

/** POST /conversations/last/reply: the reply goes to the named customer's most recently updated conversation. */
export function replyToLast(store: Store, app: AppState, input: ReplyInput): Conversation {
  const ids = identifiersOf(input);
  if (ids.length === 0) throw missing('intercom_user_id', 'Replying to the last conversation needs one of intercom_user_id, user_id or email of its customer.');
  const { field, value } = firstIdentifier(app, ids);
  const customer = findCustomer(app, field, value);
  const { conversations } = app.data;
  const index = app.conversationLists.get(customerScope(customer.id), 'any', 'updated_at', () =>
    joined(conversationMaps(app), customer.id, (id) => {
      const c = conversations.get(id);
      // Stryker disable next-line OptionalChaining: equivalent, conversations are never deleted, so every id a customer's join log holds names a stored one
      return c?.customers.includes(customer.id) ? c : undefined;
    }),
  );
  const last = index.slice(0, 1, false)[0];
  if (last === undefined) throw apiError('not_found', 'Resource Not Found: this customer has no conversation to reply to.');
  return reply(store, app, last, input);
}

/** PUT /conversations/{id} {"read": …}: only the read flag moves (not updated_at: reading is not an update). */
export function markRead(app: AppState, id: string, read: boolean): Conversation {
  const conversation = getConversation(app, id);
  if (conversation.read === read) return conversation;
  const next: Conversation = { ...conversation, read };
  saveConversation(app, next);
  return next;
}

/**
 * POST /conversations/{id}/run_assignment_rules. The mock has no rules to run: as the docs say the
 * endpoint does, it reopens a closed (or snoozed) conversation, and leaves the assignee as it is.
 */
export function runAssignmentRules(store: Store, app: AppState, id: string): Conversation {
  const conversation = getConversation(app, id);
  const now = store.now();
  const was = lifecycleAt(conversation, now);
  if (was.state === 'open' && conversation.open) return conversation;
  const next: Conversation = { ...conversation, ...opened(was), open: true, updated_at: now };
  saveConversation(app, next);
  return next;
}
