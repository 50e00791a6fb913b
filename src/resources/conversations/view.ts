// Wire shapes of a conversation (spec 2.7 and the contract notes), the conversation list and the
// customers list of spec 2.8. Plain text is rendered here, on the way out; storage keeps the HTML.

import { htmlToPlainText } from '../../core/html-text.js';
import type { Pages } from '../../core/pagination.js';
import type { AppState } from '../../state/app-state.js';
import { lifecycleAt } from './state.js';
import { authorTypeOf, visibleParts, type DisplayAs } from './rules.js';
import type { Author, Conversation, ConversationPart } from '../../engine/types.js';


type Text = (html: string) => string;
const textFor = (mode: DisplayAs): Text => (mode === 'plaintext' ? htmlToPlainText : (html) => html);

const authorView = (a: Author) => ({ type: a.type, id: a.id });

export function customerRefsView(app: AppState, ids: readonly string[]) {
  return ids.map((id) => ({ type: authorTypeOf(app.data.customers.get(id)), id }));
}

function partView(p: ConversationPart, text: Text) {
  return {
    type: 'conversation_part' as const,
    id: p.id,
    part_type: p.part_type,
    body: p.body === null ? null : text(p.body),
    created_at: p.created_at,
    updated_at: p.updated_at,
    notified_at: p.notified_at,
    assigned_to: p.assigned_to ? authorView(p.assigned_to) : null,
    author: authorView(p.author),
    attachments: p.attachments.map((a) => ({ name: a.name, url: a.url })),
  };
}

/**
 * How the conversation began (1.1 on): who wrote its opening message. The mock has no campaigns
 * or operator bots, so a bot-authored opening reads as automated.
 */
function deliveredAs(c: Conversation): 'admin_initiated' | 'customer_initiated' | 'automated' {
  if (c.author.type === 'user' || c.author.type === 'lead') return 'customer_initiated';
  return c.author.type === 'bot' ? 'automated' : 'admin_initiated';
}

interface PartTimes {
  first: number;
  last: number;
  customerComment: number;
}

/**
 * Stored conversations are replaced, never changed, on every write (a reply already copies its
 * parts), so one pass per stored version serves every later read: a list page costs its items, not
 * their parts.
 */
const partTimesOf = new WeakMap<Conversation, PartTimes>();

/** Parts read to derive those times (tests count it: test/hardening/conversation-walks.test.ts). */
export const partTimesWork = { parts: 0 };

function partTimes(c: Conversation): PartTimes {
  let t = partTimesOf.get(c);
  if (t) return t;
  t = { first: Infinity, last: -Infinity, customerComment: Infinity };
  partTimesWork.parts += c.parts.length;
  // Seeded parts need not be in time order, hence minimum and maximum.
  for (const p of c.parts) {
    if (p.created_at < t.first) t.first = p.created_at;
    if (p.created_at > t.last) t.last = p.created_at;
    if (p.part_type === 'comment' && (p.author.type === 'user' || p.author.type === 'lead') && p.created_at < t.customerComment) t.customerComment = p.created_at;
  }
  partTimesOf.set(c, t);
  return t;
}

/** The customer's first message (1.1 on): the opening one when a customer began, else the first customer comment; null while none. */
function customerFirstReply(c: Conversation) {
  const at = deliveredAs(c) === 'customer_initiated' ? Math.min(c.created_at, partTimes(c).customerComment) : partTimes(c).customerComment;
  return at === Infinity ? null : { created_at: at, type: 'conversation' as const, url: null };
}

/** The conversation's tags; 1.1 on, each with when and by whom it was applied (README "API versions"). */
function conversationTagsView(app: AppState, c: Conversation) {
  const tags = [];
  for (const id of c.tags) {
    const tag = app.data.tags.get(id);
    if (tag) tags.push({ type: 'tag' as const, id: tag.id, name: tag.name, applied_at: c.created_at, applied_by: null });
  }
  return { type: 'tag.list' as const, tags };
}

/** The earliest and latest part (1.1 list items): the first and last action taken after the opening message; null while it has no parts. */
function actionTimes(c: Conversation): { first_action_at: number | null; last_action_at: number | null } {
  if (c.parts.length === 0) return { first_action_at: null, last_action_at: null };
  const { first, last } = partTimes(c);
  return { first_action_at: first, last_action_at: last };
}

/** Without parts, as in the conversation list; `now` ends a snooze whose time has come. */
function summaryView(app: AppState, c: Conversation, text: Text, now: number) {
  const customers = customerRefsView(app, c.customers);
  const life = lifecycleAt(c, now);
  return {
    type: 'conversation' as const,
    id: c.id,
    created_at: c.created_at,
    updated_at: c.updated_at,
    sent_at: c.created_at,
    conversation_message: {
      // The channel (1.1 on); the mock's messages are all in-app conversations. 1.0 reads conversation_message.
      type: 'conversation' as const,
      delivered_as: deliveredAs(c),
      subject: text(c.subject),
      body: text(c.body),
      author: authorView(c.author),
      attachments: c.attachments.map((a) => ({ name: a.name, url: a.url })),
    },
    customer_first_reply: customerFirstReply(c),
    user: customers[0] ?? { type: 'user' as const, id: '' },
    customers,
    // Unassigned reads as the real API's nobody_admin.
    assignee: c.assignee ? authorView(c.assignee) : { type: 'nobody_admin' as const, id: null },
    open: c.open,
    state: life.state,
    read: c.read,
    snoozed_until: life.snoozed_until,
    waiting_since: life.waiting_since,
    tags: conversationTagsView(app, c),
  };
}

export function conversationView(app: AppState, c: Conversation, mode: DisplayAs, now: number) {
  const text = textFor(mode);
  const parts = visibleParts(c).map((p) => partView(p, text));
  return {
    ...summaryView(app, c, text, now),
    conversation_parts: { type: 'conversation_part.list' as const, conversation_parts: parts, total_count: parts.length },
  };
}

export function conversationListView(app: AppState, items: readonly Conversation[], pages: Pages, mode: DisplayAs, now: number) {
  const text = textFor(mode);
  const conversations = items.map((c) => ({ ...summaryView(app, c, text, now), ...actionTimes(c) }));
  return { type: 'conversation.list' as const, conversations, pages };
}

export const conversationCustomersView = (app: AppState, c: Conversation) => ({ customers: customerRefsView(app, c.customers) });
