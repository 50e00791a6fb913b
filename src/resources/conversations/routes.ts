import { str } from '../../schemas/json-schema.js';
import {
  addCustomerBodySchema,
  conversationListQuerySchema,
  conversationListSchema,
  conversationQuerySchema,
  conversationSchema,
  customersListSchema,
  markReadBodySchema,
  replyBodySchema,
} from './shapes.js';
import { listConversations as list, type ConversationListQuery } from './list.js';
import { markRead, reply as append, replyToLast, runAssignmentRules as runRules } from './replies.js';
import { addCustomer as add, displayAs, getConversation as get } from './rules.js';
import { conversationCustomersView, conversationListView, conversationView } from './view.js';
import { appRoute, type AppInput } from '../../http/route.js';
import { ADA, ADMIN, GROUP_CONVERSATION } from '../demo-examples.js';

const TAG = 'Conversations';
const id = { id: str({ description: 'The conversation id' }) };
const WRITE_ERRORS = ['parameter_not_found', 'parameter_invalid', 'bad_request', 'unsupported_media_type', 'request_too_large'] as const;

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
  examples: { params: { id: GROUP_CONVERSATION }, query: { display_as: 'plaintext' } },
  handler: ({ store, app, params, query }) => {
    const mode = displayAs(query.display_as);
    return { body: conversationView(app, get(app, params.id ?? ''), mode, store.now()) };
  },
});

export const listConversations = appRoute({
  method: 'GET',
  path: '/conversations',
  operationId: 'listConversations',
  summary: 'List conversations, all or by assignee or customer',
  description:
    'Without type: every conversation, order the direction (asc|desc, default desc) and sort the field (created_at|updated_at|waiting_since, default updated_at). ' +
    'type=admin with admin_id (or its synonym id; nobody for the unassigned, a team id for a team\'s) and open=true|false; type=user with one of intercom_user_id, user_id or email and unread=true: then order is the field and sort the direction (the documented swap). ' +
    'Sorting by waiting_since lists only conversations with a customer waiting. Without parts; paged by page and per_page (default 20, as the real API; max 60) with an absolute next link. ' +
    'An unknown admin is 404 admin_not_found, an unknown customer 404 not_found, a filter without its type or a bad value 400 parameter_invalid, another type 400 bad_request.',
  tag: TAG,
  query: conversationListQuerySchema,
  response: { status: 200, description: 'One page of conversations', schema: conversationListSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'admin_not_found', 'conflict'],
  examples: {
    query: { type: 'admin', admin_id: ADMIN, id: '', intercom_user_id: '', user_id: '', email: '', open: 'true', unread: '', order: 'updated_at', sort: 'desc', display_as: 'plaintext', page: 1, per_page: 20 },
  },
  handler: ({ store, app, query, origin, path }) => {
    const mode = displayAs(query.display_as);
    const { items, pages } = list(app, query as ConversationListQuery, { origin, path, query });
    return { body: conversationListView(app, items, pages, mode, store.now()) };
  },
});

const markReadHandler = ({ store, app, params, body }: AppInput) => ({ body: conversationView(app, markRead(app, params.id ?? '', body.read as boolean), 'html', store.now()) });
const MARK_READ = {
  params: id,
  body: markReadBodySchema,
  response: { status: 200, description: 'The conversation', schema: conversationSchema },
  errors: ['not_found', ...WRITE_ERRORS],
  handler: markReadHandler,
  tag: TAG,
  examples: { params: { id: GROUP_CONVERSATION }, body: { read: true } },
} as const;

export const markConversationRead = appRoute({
  ...MARK_READ,
  method: 'PUT',
  path: '/conversations/{id}',
  operationId: 'markConversationRead',
  summary: 'Mark a conversation as read',
  description: 'read=true marks the conversation read (false, unread); nothing else changes, updated_at included. Other members (Ruby saves the whole conversation) are ignored.',
});

export const markConversationReadByPost = appRoute({
  ...MARK_READ,
  method: 'POST',
  path: '/conversations/{id}',
  operationId: 'markConversationReadByPost',
  summary: 'Mark a conversation as read (the Go client\'s form)',
  description: 'The Go client\'s MarkRead sends POST instead of PUT; served as PUT /conversations/{id}.',
});

export const markConversationReadByReplyPath = appRoute({
  ...MARK_READ,
  method: 'PUT',
  path: '/conversations/{id}/reply',
  operationId: 'markConversationReadByReplyPath',
  summary: 'Mark a conversation as read (the Python client\'s form)',
  description: 'python-intercom 3.1 mark_read sends PUT /conversations/{id}/reply with {"read": true}; served as PUT /conversations/{id}.',
});

export const addConversationCustomer = appRoute({
  method: 'POST',
  path: '/conversations/{id}/customers',
  operationId: 'addConversationCustomer',
  summary: 'Add a customer to a group conversation',
  description:
    'customer names the one to add by exactly one of intercom_user_id (or service_user_id), user_id or email; an unknown email creates a lead, someone already there changes nothing. ' +
    'A customer named by intercom_user_id or user_id who has no email is refused (400 parameter_invalid), as the real documentation says. ' +
    'The requester is admin_id (must exist) or a customer already in the conversation named by one top-level identifier (otherwise 403 action_forbidden). Answers with every customer of the conversation.',
  tag: TAG,
  params: id,
  body: addCustomerBodySchema,
  response: { status: 200, description: 'The customers of the conversation', schema: customersListSchema },
  errors: ['not_found', 'admin_not_found', 'action_forbidden', 'conflict', ...WRITE_ERRORS],
  examples: {
    params: { id: GROUP_CONVERSATION },
    body: { admin_id: ADMIN, customer: { intercom_user_id: '5714dd359a3fd47136000003' } },
  },
  handler: ({ store, app, params, body }) => ({ body: conversationCustomersView(app, add(store, app, params.id ?? '', body)) }),
});

const REPLY_RULES =
  'message_type comment or note (admin; body required, attachment_urls at most 5), assignment (assignee_id: an admin or team, "0" unassigns), open (also unsnoozes; type may be left out with admin_id), close, snoozed (snoozed_until: unix seconds in the future; a millisecond value is 400 parameter_invalid), or a customer\'s comment (type user with one of intercom_user_id, user_id, email; reopens a closed or snoozed conversation, leaves it unread and waiting). ' +
  'Each adds its part and moves open, state, read, assignee, snoozed_until and waiting_since. At most 60 parts a minute per conversation (a sliding 60-second window on the clock); beyond, 429 rate_limit_exceeded.';

export const replyToLastConversation = appRoute({
  method: 'POST',
  path: '/conversations/last/reply',
  operationId: 'replyToLastConversation',
  summary: 'Reply to a customer\'s last conversation',
  description: `The customer named by one of intercom_user_id, user_id or email: the reply goes to their most recently updated conversation (404 not_found when they have none). ${REPLY_RULES}`,
  tag: TAG,
  body: replyBodySchema,
  response: { status: 200, description: 'The conversation with the new part', schema: conversationSchema },
  errors: ['not_found', 'admin_not_found', 'action_forbidden', 'conflict', ...WRITE_ERRORS],
  examples: { body: { type: 'admin', admin_id: ADMIN, intercom_user_id: ADA, message_type: 'comment', body: '<p>Following up on your last question.</p>' } },
  handler: ({ store, app, body }) => ({ body: conversationView(app, replyToLast(store, app, body), 'html', store.now()) }),
});

export const replyToConversation = appRoute({
  method: 'POST',
  path: '/conversations/{id}/reply',
  operationId: 'replyToConversation',
  summary: 'Reply to, assign, open, close or snooze a conversation',
  description: `Returns the conversation. ${REPLY_RULES}`,
  tag: TAG,
  params: id,
  body: replyBodySchema,
  response: { status: 200, description: 'The conversation with the new part', schema: conversationSchema },
  errors: ['not_found', 'admin_not_found', 'action_forbidden', ...WRITE_ERRORS],
  examples: {
    params: { id: GROUP_CONVERSATION },
    body: { type: 'admin', admin_id: ADMIN, message_type: 'comment', body: '<p>Thanks, we are on it.</p>', attachment_urls: ['https://files.example.com/receipt.pdf'] },
  },
  handler: ({ store, app, params, body }) => ({ body: conversationView(app, append(store, app, params.id ?? '', body), 'html', store.now()) }),
});

export const runAssignmentRules = appRoute({
  method: 'POST',
  path: '/conversations/{id}/run_assignment_rules',
  operationId: 'runAssignmentRules',
  summary: 'Run the assignment rules on a conversation',
  description: 'The mock has no rules to run: as the real endpoint does, a closed or snoozed conversation is reopened; the assignee stays as it is and no part is added. Takes no body.',
  tag: TAG,
  params: id,
  response: { status: 200, description: 'The conversation', schema: conversationSchema },
  errors: ['not_found'],
  examples: { params: { id: '5714dd359a3fd47136000502' } },
  handler: ({ store, app, params }) => ({ body: conversationView(app, runRules(store, app, params.id ?? ''), 'html', store.now()) }),
});

export const CONVERSATION_ROUTES = [
  listConversations,
  getConversation,
  markConversationRead,
  markConversationReadByPost,
  addConversationCustomer,
  replyToLastConversation,
  replyToConversation,
  markConversationReadByReplyPath,
  runAssignmentRules,
];
