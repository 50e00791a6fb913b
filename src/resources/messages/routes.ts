import { messageBodySchema, messageResponseSchema } from './shapes.js';
import { createMessage } from './rules.js';
import { messageView } from './view.js';
import { appRoute } from '../../http/route.js';
import { ADA, ADMIN } from '../demo-examples.js';

export const createMessageRoute = appRoute({
  method: 'POST',
  path: '/messages',
  operationId: 'createMessage',
  summary: 'Send a message: an admin\'s in-app or email message, or a user\'s or lead\'s',
  description:
    'from.type admin: an in-app (default) or email message to "to" (a user by id, user_id or email; a lead, type contact, by id, user_id or email; an email several leads share: 409 conflict), answered as an admin_message; the conversation it starts is closed and read until the customer replies. ' +
    'from.type user or contact: the customer\'s in-app message (a visitor named as a contact becomes a lead first), answered as a user_message; its conversation is open, unassigned, unread and waiting. ' +
    'The message id is not the conversation\'s: list the customer\'s conversations (GET /conversations?type=user) to find it. ' +
    'No body: 400 parameter_invalid "Body is required"; an email without subject: 422 parameter_not_found; an email to an unsubscribed user: 403 action_forbidden; an unknown admin, user or lead: 404 not_found.',
  tag: 'Conversations',
  body: messageBodySchema,
  response: { status: 200, description: 'The message', schema: messageResponseSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'subject_missing', 'action_forbidden', 'not_found', 'conflict', 'bad_request', 'unsupported_media_type', 'request_too_large'],
  examples: {
    body: { message_type: 'email', subject: 'Your invoice', body: '<p>Your invoice is attached.</p>', template: 'plain', from: { type: 'admin', id: ADMIN }, to: { type: 'user', id: ADA } },
  },
  handler: ({ store, app, body }) => ({ body: messageView(createMessage(store, app, body)) }),
});

export const MESSAGE_ROUTES = [createMessageRoute];
