// Conversation requests and responses (spec 2.7, 2.8, 4.10, 4.11 and the contract notes).

import { pagesSchema } from '../../schemas/common.js';
import { bodyText, MAX_ATTACHMENTS, MAX_CONVERSATION_CUSTOMERS, shortText, urlText } from '../../schemas/fields.js';
import { arr, bool, constant, idRef, int, nullable, obj, oneOfStrings, openObj, str, strOrInt, type Schema } from '../../schemas/json-schema.js';

const authorSchema = obj(
  { type: oneOfStrings(['admin', 'user', 'lead', 'bot', 'nobody_admin', 'team']), id: str() },
  ['type', 'id'],
);
const customerRef = obj({ type: oneOfStrings(['user', 'lead']), id: str() }, ['type', 'id']);
const attachment = obj({ name: str(), url: str() }, ['name', 'url']);

/** The conversation list's page size when none is asked for: 20, the real API's [C] (the other lists page 50). */
export const CONVERSATIONS_PER_PAGE = 20;

export const partSchema = obj(
  {
    type: constant('conversation_part'),
    id: str(),
    part_type: oneOfStrings(['comment', 'note', 'open', 'close', 'snoozed', 'assignment']),
    body: nullable(str()),
    created_at: int(),
    updated_at: int(),
    notified_at: int(),
    assigned_to: nullable(authorSchema),
    author: authorSchema,
    attachments: arr(attachment),
  },
  ['type', 'id', 'part_type', 'body', 'created_at', 'updated_at', 'notified_at', 'assigned_to', 'author', 'attachments'],
);

const summaryProps: Record<string, Schema> = {
  type: constant('conversation'),
  id: str(),
  created_at: int(),
  updated_at: int(),
  sent_at: int({ description: 'API version 1.1 on: when the opening message was sent (its created_at)' }),
  conversation_message: obj(
    {
      type: oneOfStrings(['conversation', 'conversation_message'], { description: 'API version 1.1 on: the channel, conversation (the mock\'s messages are in-app); 1.0: conversation_message' }),
      delivered_as: oneOfStrings(['admin_initiated', 'customer_initiated', 'automated'], {
        description: 'API version 1.1 on: how it began: its author an admin or team (admin_initiated), a user or lead (customer_initiated), a bot (automated)',
      }),
      subject: str(),
      body: str(),
      author: authorSchema,
      attachments: arr(attachment),
    },
    ['type', 'subject', 'body', 'author', 'attachments'],
  ),
  customer_first_reply: nullable(
    obj({ created_at: int(), type: constant('conversation'), url: { type: 'null' } }, ['created_at', 'type', 'url'], {
      description: 'API version 1.1 on: the customer\'s first message: the opening one when a customer began, else the earliest customer comment; null while none',
    }),
  ),
  user: customerRef,
  customers: arr(customerRef, { maxItems: MAX_CONVERSATION_CUSTOMERS, description: `every customer of the conversation (at most ${MAX_CONVERSATION_CUSTOMERS}); the first is \`user\`` }),
  assignee: obj(
    { type: oneOfStrings(['admin', 'team', 'nobody_admin', 'bot', 'user', 'lead']), id: nullable(str()) },
    ['type', 'id'],
    { description: 'type nobody_admin with id null when unassigned' },
  ),
  open: bool({ description: 'true while open or snoozed' }),
  state: oneOfStrings(['open', 'closed', 'snoozed'], { description: 'a snooze whose snoozed_until the clock has reached reads as open' }),
  read: bool(),
  snoozed_until: nullable(int({ description: 'unix seconds; null unless snoozed' })),
  waiting_since: nullable(int({ description: 'since when the customer has been waiting for an answer; null once an admin replied or the conversation closed' })),
  tags: obj(
    {
      type: constant('tag.list'),
      tags: arr(
        obj(
          {
            type: constant('tag'),
            id: str(),
            name: str(),
            applied_at: int({ description: 'API version 1.1 on: the conversation\'s created_at (no time is kept per conversation tag)' }),
            applied_by: { type: 'null', description: 'API version 1.1 on: null (the mock records no tagging admin)' },
          },
          ['type', 'id', 'name'],
        ),
      ),
    },
    ['type', 'tags'],
  ),
};
const summaryRequired = ['type', 'id', 'created_at', 'updated_at', 'conversation_message', 'user', 'customers', 'assignee', 'open', 'state', 'read', 'snoozed_until', 'waiting_since', 'tags'];

export const conversationSchema = obj(
  {
    ...summaryProps,
    conversation_parts: obj(
      {
        type: constant('conversation_part.list'),
        conversation_parts: arr(partSchema, { maxItems: 500, description: 'oldest first; the 500 most recent' }),
        total_count: int({ minimum: 0, description: 'how many parts are returned' }),
      },
      ['type', 'conversation_parts', 'total_count'],
    ),
  },
  [...summaryRequired, 'conversation_parts'],
);

const actionAt = (which: string) => nullable(int({ description: `API version 1.1 on: the ${which} part's created_at; null while it has no parts` }));

export const conversationListSchema = obj(
  {
    type: constant('conversation.list'),
    conversations: arr(obj({ ...summaryProps, first_action_at: actionAt('earliest'), last_action_at: actionAt('latest') }, summaryRequired)),
    pages: pagesSchema,
  },
  ['type', 'conversations', 'pages'],
);

const displayAs = str({ description: 'plaintext renders subject and bodies as plain text; html (the default) returns them as stored' });

export const conversationQuerySchema = openObj({ display_as: displayAs });
export const conversationListQuerySchema = openObj({
  type: str({ description: 'admin (one assignee\'s conversations) or user (one customer\'s); absent: every conversation' }),
  admin_id: str({ description: 'type=admin: the assignee, an admin or team id, or nobody for the unassigned' }),
  id: str({ description: 'type=admin: a synonym of admin_id (the Ruby and PHP clients send it)' }),
  intercom_user_id: str({ description: 'type=user: the customer\'s id (users and leads)' }),
  user_id: str({ description: 'type=user: the customer\'s user_id' }),
  email: str({ description: 'type=user: the customer\'s email' }),
  open: str({ description: 'type=admin: true for open (snoozed included) only, false for closed only' }),
  unread: str({ description: 'type=user: true for unread only' }),
  order: str({ description: 'without type: the direction, asc or desc (default desc); with type: the field, created_at, updated_at (default) or waiting_since' }),
  sort: str({ description: 'without type: the field, created_at, updated_at (default) or waiting_since; with type: the direction, asc or desc (default desc)' }),
  display_as: displayAs,
  page: int({ minimum: 1, default: 1 }),
  per_page: int({ minimum: 1, maximum: 60, default: CONVERSATIONS_PER_PAGE }),
});

const identity = {
  intercom_user_id: str({ description: 'the customer\'s id' }),
  service_user_id: str({ description: 'the spec\'s name for intercom_user_id' }),
  user_id: str({ description: 'the client-assigned user_id (server-assigned for leads)' }),
  email: shortText({ description: 'trimmed and case-insensitive; an unknown email creates a lead with it' }),
};

export const addCustomerBodySchema = openObj(
  {
    admin_id: idRef('the requesting admin; otherwise one of the identifiers below names a requesting customer already in the conversation'),
    ...identity,
    customer: openObj(identity, [], { description: 'the customer to add, by exactly one identifier; an unknown email creates a lead' }),
  },
  ['customer'],
);

export const customersListSchema = obj({ customers: arr(customerRef, { maxItems: MAX_CONVERSATION_CUSTOMERS }) }, ['customers']);

export const replyBodySchema = openObj(
  {
    type: oneOfStrings(['admin', 'user', 'admin_reply', 'user_reply'], { description: 'may be left out when admin_id is sent (then admin); admin_reply and user_reply (Java\'s spelling) are read as admin and user, with a warning' }),
    admin_id: idRef('for type admin'),
    ...identity,
    message_type: oneOfStrings(['comment', 'note', 'assignment', 'open', 'close', 'snoozed'], { description: 'users can only comment or open; open also unsnoozes' }),
    body: bodyText({ description: 'required (not empty) for comment and note; optional otherwise, where an empty one is none' }),
    attachment_urls: arr(urlText(), { maxItems: MAX_ATTACHMENTS, description: `comment and note only, at most ${MAX_ATTACHMENTS}` }),
    assignee_id: idRef('message_type assignment: an admin or team id, "0" to unassign'),
    snoozed_until: strOrInt({ description: 'message_type snoozed: unix seconds in the future (a millisecond value is refused)' }),
  },
  ['message_type'],
);

export const markReadBodySchema = openObj({ read: bool({ description: 'true marks it read (false unread); other members (a whole conversation sent back) are ignored' }) }, ['read']);
