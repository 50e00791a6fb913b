// Wire shapes of a conversation (spec 2.7 and the contract notes), the conversation list and the
// customers list of spec 2.8. Plain text is rendered here, on the way out; storage keeps the HTML.

import { htmlToPlainText } from '../core/html-text.js';
import type { Pages } from '../core/pagination.js';
import type { AppState } from '../store/app-state.js';
import { lifecycleAt } from '../store/conversation-state.js';
import { authorTypeOf, visibleParts, type DisplayAs } from '../store/conversations.js';
import type { Author, Conversation, ConversationPart } from '../store/types.js';
import { tagListView } from './customer.js';

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

/** Without parts, as in the conversation list; `now` ends a snooze whose time has come. */
function summaryView(app: AppState, c: Conversation, text: Text, now: number) {
  const customers = customerRefsView(app, c.customers);
  const life = lifecycleAt(c, now);
  return {
    type: 'conversation' as const,
    id: c.id,
    created_at: c.created_at,
    updated_at: c.updated_at,
    conversation_message: {
      type: 'conversation_message' as const,
      subject: text(c.subject),
      body: text(c.body),
      author: authorView(c.author),
      attachments: c.attachments.map((a) => ({ name: a.name, url: a.url })),
    },
    user: customers[0] ?? { type: 'user' as const, id: '' },
    customers,
    // Unassigned reads as the real API's nobody_admin.
    assignee: c.assignee ? authorView(c.assignee) : { type: 'nobody_admin' as const, id: null },
    open: c.open,
    state: life.state,
    read: c.read,
    snoozed_until: life.snoozed_until,
    waiting_since: life.waiting_since,
    tags: tagListView(app, c.tags),
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
  return { type: 'conversation.list' as const, conversations: items.map((c) => summaryView(app, c, text, now)), pages };
}

export const conversationCustomersView = (app: AppState, c: Conversation) => ({ customers: customerRefsView(app, c.customers) });
