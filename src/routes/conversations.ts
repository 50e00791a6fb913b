import { str } from '../schemas/json-schema.js';
import {
  addCustomerBodySchema,
  conversationListQuerySchema,
  conversationListSchema,
  conversationQuerySchema,
  conversationSchema,
  customersListSchema,
  replyBodySchema,
} from '../schemas/conversation.js';
import {
  addCustomer as add,
  displayAs,
  getConversation as get,
  listConversations as list,
  reply as append,
  type AddCustomerInput,
  type ReplyInput,
} from '../store/conversations.js';
import { conversationCustomersView, conversationListView, conversationView } from '../views/conversation.js';
import { appRoute } from './route.js';

const TAG = 'Conversations';
const id = { id: str({ description: 'The conversation id' }) };

export const getConversation = appRoute({
  method: 'GET',
  path: '/conversations/{id}',
  operationId: 'getConversation',
  summary: 'Fetch a conversation with its parts',
  description:
    'The conversation with its tags, customers and parts, oldest first; beyond 500 parts only the 500 most recent, total_count saying how many are returned. display_as=plaintext turns the subject and every body into plain text; a value other than plaintext or html answers 400 bad_request.',
  tag: TAG,
  params: id,
  query: conversationQuerySchema,
  response: { status: 200, description: 'The conversation', schema: conversationSchema },
  errors: ['not_found', 'bad_request'],
  handler: ({ app, params, query }) => {
    const mode = displayAs(query.display_as);
    return { body: conversationView(app, get(app, params.id ?? ''), mode) };
  },
});

export const listConversations = appRoute({
  method: 'GET',
  path: '/conversations',
  operationId: 'listConversations',
  summary: 'List conversations',
  description:
    'The conversations most recently updated first, without their parts (fetch one for those), paged by page and per_page (default 50, max 60) with an absolute next link. display_as as for a single conversation.',
  tag: TAG,
  query: conversationListQuerySchema,
  response: { status: 200, description: 'One page of conversations', schema: conversationListSchema },
  errors: ['parameter_invalid', 'bad_request'],
  handler: ({ app, query, origin, path }) => {
    const mode = displayAs(query.display_as);
    const { items, pages } = list(app, query, { origin, path, query });
    return { body: conversationListView(app, items, pages, mode) };
  },
});

export const addConversationCustomer = appRoute({
  method: 'POST',
  path: '/conversations/{id}/customers',
  operationId: 'addConversationCustomer',
  summary: 'Add a customer to a group conversation',
  description:
    'customer names the one to add by exactly one of intercom_user_id (or service_user_id), user_id or email; an unknown email creates a lead, someone already there changes nothing. ' +
    'The requester is admin_id (must exist) or a customer already in the conversation named by one top-level identifier (otherwise 403 action_forbidden). Answers with every customer of the conversation.',
  tag: TAG,
  params: id,
  body: addCustomerBodySchema,
  response: { status: 200, description: 'The customers of the conversation', schema: customersListSchema },
  errors: ['not_found', 'admin_not_found', 'action_forbidden', 'parameter_not_found', 'parameter_invalid', 'bad_request', 'conflict', 'unsupported_media_type', 'request_too_large'],
  handler: ({ store, app, params, body }) => ({ body: conversationCustomersView(app, add(store, app, params.id ?? '', body as AddCustomerInput)) }),
});

export const replyToConversation = appRoute({
  method: 'POST',
  path: '/conversations/{id}/reply',
  operationId: 'replyToConversation',
  summary: 'Reply to a conversation',
  description:
    'Appends a comment or note by an admin (admin_id), or a comment by a customer of the conversation (one of intercom_user_id, user_id, email), and returns the conversation. ' +
    'At most 60 parts a minute per conversation (a sliding 60-second window on the clock, counted from the parts\' created_at); beyond, 429 rate_limit_exceeded.',
  tag: TAG,
  params: id,
  body: replyBodySchema,
  response: { status: 200, description: 'The conversation with the new part', schema: conversationSchema },
  errors: ['not_found', 'admin_not_found', 'action_forbidden', 'parameter_not_found', 'parameter_invalid', 'bad_request', 'unsupported_media_type', 'request_too_large'],
  handler: ({ store, app, params, body }) => ({ body: conversationView(app, append(store, app, params.id ?? '', body as unknown as ReplyInput), 'html') }),
});

export const CONVERSATION_ROUTES = [listConversations, getConversation, addConversationCustomer, replyToConversation];
