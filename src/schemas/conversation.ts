// Conversation requests and responses (spec 2.7, 2.8, 4.10, 4.11 and the contract notes).

import { pagesSchema, tagListSchema } from './common.js';
import { bodyText, MAX_ATTACHMENTS, MAX_CONVERSATION_CUSTOMERS, shortText, urlText } from './fields.js';
import { arr, bool, constant, int, nullable, obj, oneOfStrings, openObj, str, type Schema } from './json-schema.js';

const ref = (description: string): Schema => ({ type: ['string', 'integer'], description });

const authorSchema: Schema = obj(
  { type: oneOfStrings(['admin', 'user', 'lead', 'bot', 'nobody_admin']), id: str() },
  ['type', 'id'],
);
const customerRef: Schema = obj({ type: oneOfStrings(['user', 'lead']), id: str() }, ['type', 'id']);
const attachment: Schema = obj({ name: str(), url: str() }, ['name', 'url']);

export const partSchema: Schema = obj(
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
  conversation_message: obj(
    { type: constant('conversation_message'), subject: str(), body: str(), author: authorSchema, attachments: arr(attachment) },
    ['type', 'subject', 'body', 'author', 'attachments'],
  ),
  user: customerRef,
  customers: arr(customerRef, { maxItems: MAX_CONVERSATION_CUSTOMERS, description: `every customer of the conversation (at most ${MAX_CONVERSATION_CUSTOMERS}); the first is \`user\`` }),
  assignee: obj(
    { type: oneOfStrings(['admin', 'team', 'nobody_admin', 'bot', 'user', 'lead']), id: nullable(str()) },
    ['type', 'id'],
    { description: 'type nobody_admin with id null when unassigned' },
  ),
  open: bool(),
  read: bool(),
  tags: tagListSchema,
};
const summaryRequired = ['type', 'id', 'created_at', 'updated_at', 'conversation_message', 'user', 'customers', 'assignee', 'open', 'read', 'tags'];

export const conversationSchema: Schema = obj(
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

export const conversationListSchema: Schema = obj(
  { type: constant('conversation.list'), conversations: arr(obj(summaryProps, summaryRequired)), pages: pagesSchema },
  ['type', 'conversations', 'pages'],
);

const displayAs = str({ description: 'plaintext renders subject and bodies as plain text; html (the default) returns them as stored' });

export const conversationQuerySchema: Schema = openObj({ display_as: displayAs });
export const conversationListQuerySchema: Schema = openObj({
  display_as: displayAs,
  page: int({ minimum: 1, default: 1 }),
  per_page: int({ minimum: 1, maximum: 60, default: 50 }),
});

const identity = {
  intercom_user_id: str({ description: 'the customer\'s id' }),
  service_user_id: str({ description: 'the spec\'s name for intercom_user_id' }),
  user_id: str({ description: 'the client-assigned user_id (server-assigned for leads)' }),
  email: shortText({ description: 'trimmed and case-insensitive; an unknown email creates a lead with it' }),
};

export const addCustomerBodySchema: Schema = openObj(
  {
    admin_id: ref('the requesting admin; otherwise one of the identifiers below names a requesting customer already in the conversation'),
    ...identity,
    customer: openObj(identity, [], { description: 'the customer to add, by exactly one identifier; an unknown email creates a lead' }),
  },
  ['customer'],
);

export const customersListSchema: Schema = obj({ customers: arr(customerRef, { maxItems: MAX_CONVERSATION_CUSTOMERS }) }, ['customers']);

export const replyBodySchema: Schema = openObj(
  {
    type: oneOfStrings(['admin', 'user']),
    admin_id: ref('for type admin'),
    ...identity,
    message_type: oneOfStrings(['comment', 'note'], { description: 'users can only comment' }),
    body: bodyText({ minLength: 1 }),
    attachment_urls: arr(urlText(), { maxItems: MAX_ATTACHMENTS }),
  },
  ['type', 'message_type', 'body'],
);
