// POST /messages (surface M1, M2): the request and the two message shapes it answers with.

import { bodyText, shortText } from '../../schemas/fields.js';
import { anyOf, constant, int, obj, oneOfStrings, openObj, str, strOrInt } from '../../schemas/json-schema.js';

const party = (description: string) =>
  openObj(
    {
      type: str({ description: 'admin, user or contact' }),
      id: strOrInt({ description: 'the admin\'s id, or the user\'s or lead\'s id' }),
      user_id: shortText(),
      email: shortText(),
    },
    [],
    { description },
  );

export const messageBodySchema = openObj(
  {
    message_type: oneOfStrings(['inapp', 'email'], { description: 'admin messages: inapp (default) or email; a user or lead sends inapp only' }),
    subject: shortText({ description: 'required for email messages' }),
    body: bodyText({ description: 'required; HTML or plain text' }),
    template: oneOfStrings(['plain', 'personal'], { description: 'email messages only (default plain)' }),
    from: party('{"type":"admin","id"} for an admin message; {"type":"user"|"contact", id|user_id|email} for a customer\'s (a visitor named as a contact becomes a lead)'),
    to: party('admin messages: {"type":"user"|"contact", id|user_id|email}'),
  },
  [],
);

const adminMessage = obj(
  {
    type: constant('admin_message'),
    id: str(),
    created_at: int(),
    message_type: oneOfStrings(['inapp', 'email']),
    subject: str(),
    body: str(),
    template: oneOfStrings(['plain', 'personal']),
    owner: obj({ type: constant('admin'), id: str(), name: str(), email: str() }, ['type', 'id', 'name', 'email']),
  },
  ['type', 'id', 'created_at', 'message_type', 'subject', 'body', 'template', 'owner'],
);

const userMessage = obj(
  { type: constant('user_message'), id: str(), created_at: int(), body: str(), message_type: constant('inapp') },
  ['type', 'id', 'created_at', 'body', 'message_type'],
);

export const messageResponseSchema = anyOf(adminMessage, userMessage);
