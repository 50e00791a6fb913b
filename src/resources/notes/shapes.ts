// Notes (surface N1–N3): the POST /notes body, the note and the note list.

import { untypedPagesSchema } from '../../schemas/common.js';
import { bodyText, shortText } from '../../schemas/fields.js';
import { arr, constant, idRef, int, obj, oneOfStrings, openObj, str } from '../../schemas/json-schema.js';

/** Longest body a request may send; a plain-text one is stored wrapped in <p></p>, so 7 more. */
export const MAX_NOTE_BODY = 65_535;
export const MAX_STORED_NOTE_BODY = MAX_NOTE_BODY + '<p></p>'.length;

/** The keys that name a user or lead, read in the order id, user_id, email. */
export const personKeysSchema = openObj(
  {
    id: str({ description: 'the user\'s or lead\'s id' }),
    user_id: str({ description: 'the user_id (a lead\'s is its server-assigned UUID)' }),
    email: shortText({ description: 'case-insensitive; users first, then leads' }),
  },
  [],
  { description: 'the user or lead, by one of id, user_id, email (read in that order)' },
);

export const noteBodySchema = openObj(
  {
    admin_id: idRef('the author; default: the admin the token belongs to (GET /me)'),
    body: bodyText({ description: 'HTML, or plain text (stored wrapped in <p>)' }),
    user: personKeysSchema,
    user_id: str({ description: 'the Ruby client\'s form of user.user_id, when user is absent' }),
    email: shortText({ description: 'the Ruby client\'s form of user.email, when user is absent' }),
  },
  ['body'],
);

export const noteListQuerySchema = openObj({
  id: str({ description: 'the user\'s or lead\'s id' }),
  intercom_user_id: str({ description: 'the same as id' }),
  user_id: str(),
  email: str({ description: 'case-insensitive; users first, then leads' }),
  page: int({ minimum: 1, default: 1 }),
  per_page: int({ minimum: 1, maximum: 60, default: 50 }),
});

export const noteSchema = obj(
  {
    type: constant('note'),
    id: str(),
    created_at: int(),
    body: str(),
    author: obj(
      { type: constant('admin'), id: str(), name: str(), email: str(), companies: arr(obj({}), { maxItems: 0 }) },
      ['type', 'id', 'name', 'email', 'companies'],
    ),
    user: obj({ type: oneOfStrings(['user', 'lead']), id: str() }, ['type', 'id']),
  },
  ['type', 'id', 'created_at', 'body', 'author', 'user'],
);

export const noteListSchema = obj(
  { type: constant('note.list'), notes: arr(noteSchema, { maxItems: 60 }), total_count: int({ minimum: 0 }), pages: untypedPagesSchema },
  ['type', 'notes', 'total_count', 'pages'],
);
