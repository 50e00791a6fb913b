// The console's conversations over the control plane: a page of summaries, most recently updated
// first, and one conversation as a thread (its parts in the order they were added, HTML and plain
// text, with who wrote them), a page of parts at a time.

import { notFound } from '../core/errors.js';
import { htmlToPlainText } from '../core/html-text.js';
import { listConversations } from '../resources/conversations/list.js';
import { lifecycleAt } from '../resources/conversations/state.js';
import { adminRoute } from '../http/route.js';
import { arr, bool, int, nullable, obj, oneOfStrings, str, type Schema } from '../schemas/json-schema.js';
import type { AppState } from '../state/app-state.js';
import type { Author, Conversation, ConversationPart } from '../engine/types.js';
import { CONTROL_TAG, requireApp } from '../admin/target.js';
import { pageOf, pageProps, pageRequest, pagedQuery } from './paging.js';
import { GROUP_CONVERSATION } from '../resources/demo-examples.js';

const authorSchema = obj(
  { type: oneOfStrings(['admin', 'team', 'user', 'lead', 'bot', 'nobody_admin']), id: str(), name: nullable(str({ description: 'The admin\'s or team\'s name, or the customer\'s name or email' })) },
  ['type', 'id', 'name'],
);

/** The lifecycle as the API reads it now (a snooze whose time has come is over), resources/conversations/state.ts. */
const lifecycleProps: Record<string, Schema> = {
  state: oneOfStrings(['open', 'closed', 'snoozed']),
  snoozed_until: nullable(int()),
  waiting_since: nullable(int({ description: 'Since when the customer has waited for an answer; null when an admin answered last' })),
};
const lifecycleKeys = Object.keys(lifecycleProps);

export const conversationSummarySchema = obj(
  { id: str(), subject: str({ description: 'As plain text' }), open: bool(), read: bool(), ...lifecycleProps, assignee: nullable(authorSchema), customers: int({ minimum: 0 }), parts: int({ minimum: 0 }), updated_at: int() },
  ['id', 'subject', 'open', 'read', ...lifecycleKeys, 'assignee', 'customers', 'parts', 'updated_at'],
);

export const conversationSummary = (app: AppState, now: number, c: Conversation) => ({
  id: c.id,
  subject: htmlToPlainText(c.subject),
  open: c.open,
  read: c.read,
  ...lifecycleAt(c, now),
  assignee: c.assignee ? author(app, c.assignee) : null,
  customers: c.customers.length,
  parts: c.parts.length,
  updated_at: c.updated_at,
});

function author(app: AppState, a: Author) {
  let name: string | null = null;
  if (a.type === 'admin') name = app.data.admins.get(a.id)?.name ?? null;
  else if (a.type === 'team') name = app.data.teams.get(a.id)?.name ?? null;
  else if (a.type === 'user' || a.type === 'lead') {
    const c = app.data.customers.get(a.id);
    name = c?.name ?? c?.email ?? c?.pseudonym ?? null;
  }
  return { type: a.type, id: a.id, name };
}

/** A thread's head as GET /__admin/conversations/{id} answers it (the console types its page from this). */
export function threadHead(app: AppState, now: number, c: Conversation) {
  return {
    id: c.id,
    subject: htmlToPlainText(c.subject),
    body: c.body,
    body_text: htmlToPlainText(c.body),
    open: c.open,
    read: c.read,
    ...lifecycleAt(c, now),
    created_at: c.created_at,
    updated_at: c.updated_at,
    author: author(app, c.author),
    assignee: c.assignee ? author(app, c.assignee) : null,
    customers: c.customers.map((id) => author(app, { type: app.data.customers.get(id)?.type === 'user' ? 'user' : 'lead', id })),
    tags: c.tags.flatMap((id) => {
      const t = app.data.tags.get(id);
      return t ? [{ id: t.id, name: t.name }] : [];
    }),
    attachments: c.attachments,
  };
}

/** One part of a thread, in HTML and plain text, with its author's name. */
export function threadPart(app: AppState, p: ConversationPart) {
  return {
    id: p.id,
    part_type: p.part_type,
    body: p.body,
    body_text: p.body === null ? null : htmlToPlainText(p.body),
    author: author(app, p.author),
    assigned_to: p.assigned_to ? author(app, p.assigned_to) : null,
    attachments: p.attachments,
    created_at: p.created_at,
  };
}

export const listConversationsForConsole = adminRoute({
  method: 'GET',
  path: '/__admin/conversations',
  operationId: 'adminListConversations',
  summary: 'An app\'s conversations, most recently updated first',
  description: 'One page of the app\'s conversations (subject, state open/closed/snoozed with the snooze\'s end and waiting_since as the API reads them now, the assignee (an admin or a team) named, how many customers and parts).',
  tag: CONTROL_TAG,
  query: pagedQuery(),
  response: {
    status: 200,
    description: 'One page of conversations',
    schema: obj({ conversations: arr(conversationSummarySchema), ...pageProps }, ['conversations', 'total', 'next_offset']),
  },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { query: { app: 'demo', offset: 0, limit: 50 } },
  handler: (input) => {
    const app = requireApp(input);
    const { offset, limit } = pageRequest(input.query);
    // The API's own list (its sorted index), read as one page that ends where ours does.
    const all = listConversations(app, { page: 1, per_page: offset + limit }, { origin: '', path: '', query: {} });
    const total = app.data.conversations.size;
    const items = all.items.slice(offset);
    const now = input.store.now();
    return { body: { conversations: items.map((c) => conversationSummary(app, now, c)), total, next_offset: offset + limit < total ? offset + limit : null } };
  },
});

const partSchema = obj(
  {
    id: str(),
    part_type: str(),
    body: nullable(str({ description: 'HTML, as stored' })),
    body_text: nullable(str({ description: 'The body as plain text' })),
    author: authorSchema,
    assigned_to: nullable(authorSchema),
    attachments: arr(obj({ name: str(), url: str() }, ['name', 'url'])),
    created_at: int(),
  },
  ['id', 'part_type', 'body', 'body_text', 'author', 'assigned_to', 'attachments', 'created_at'],
);

export const getThread = adminRoute({
  method: 'GET',
  path: '/__admin/conversations/{id}',
  operationId: 'adminGetConversation',
  summary: 'One conversation as a thread',
  description:
    'The conversation (subject, opening message in HTML and plain text, state open/closed/snoozed, snoozed_until, waiting_since, assignee, customers, tags) and one page (offset, limit) of its parts in the order they were added, each in HTML and plain text with its author\'s name. Attachment URLs are given as text.',
  tag: CONTROL_TAG,
  params: { id: str({ maxLength: 64 }) },
  query: pagedQuery(),
  response: {
    status: 200,
    description: 'The thread',
    schema: obj(
      {
        conversation: obj(
          {
            id: str(),
            subject: str(),
            body: str(),
            body_text: str(),
            open: bool(),
            read: bool(),
            ...lifecycleProps,
            created_at: int(),
            updated_at: int(),
            author: authorSchema,
            assignee: nullable(authorSchema),
            customers: arr(authorSchema),
            tags: arr(obj({ id: str(), name: str() }, ['id', 'name'])),
            attachments: arr(obj({ name: str(), url: str() }, ['name', 'url'])),
          },
          ['id', 'subject', 'body', 'body_text', 'open', 'read', ...lifecycleKeys, 'created_at', 'updated_at', 'author', 'assignee', 'customers', 'tags', 'attachments'],
        ),
        parts: obj({ parts: arr(partSchema), ...pageProps }, ['parts', 'total', 'next_offset']),
      },
      ['conversation', 'parts'],
    ),
  },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { params: { id: GROUP_CONVERSATION }, query: { app: 'demo', offset: 0, limit: 50 } },
  handler: (input) => {
    const app = requireApp(input);
    const c = app.data.conversations.get(input.params.id ?? '');
    if (!c) throw notFound(`No conversation ${String(input.params.id).slice(0, 64)} in app ${app.id}`);
    const page = pageOf({ total: c.parts.length, slice: (s, e) => c.parts.slice(s, e) }, pageRequest(input.query));
    return {
      body: {
        conversation: threadHead(app, input.store.now(), c),
        parts: {
          parts: page.items.map((p) => threadPart(app, p)),
          total: page.total,
          next_offset: page.next_offset,
        },
      },
    };
  },
});

export const CONVERSATION_CONSOLE_ROUTES = [listConversationsForConsole, getThread];
