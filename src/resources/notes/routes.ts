import { pageRequestOf } from '../../core/pagination.js';
import { str } from '../../schemas/json-schema.js';
import { noteBodySchema, noteListQuerySchema, noteListSchema, noteSchema } from './shapes.js';
import { createNote as create, getNote as get, listNotes as list } from './rules.js';
import { noteListView, noteView } from './view.js';
import { appRoute } from '../../http/route.js';
import { ADA, ADMIN } from '../demo-examples.js';

const TAG = 'Notes';

export const createNote = appRoute({
  method: 'POST',
  path: '/notes',
  operationId: 'createNote',
  summary: 'Leave a note on a user or lead',
  description:
    'The person is named in user by id, user_id or email (read in that order; an email names its user, else its lead; several: 409 conflict), or, in the Ruby client\'s form, by top-level user_id or email (not both forms: 400). ' +
    'A body with no HTML tag is stored wrapped in <p>; HTML is kept as sent. The author is admin_id, else the admin the token belongs to (GET /me). ' +
    'No body (or a blank one): 400 parameter_not_found; no person: 400 parameter_not_found; an unknown person, a visitor or an archived user: 404 not_found "User Not Found"; an unknown admin_id: 404 admin_not_found. ' +
    'At most 100,000 notes per app (limits.notes): past it 403 resource_limit_exceeded, nothing dropped.',
  tag: TAG,
  body: noteBodySchema,
  response: { status: 200, description: 'The note', schema: noteSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'admin_not_found', 'conflict', 'resource_limit_exceeded', 'unsupported_media_type', 'request_too_large'],
  examples: { body: { admin_id: ADMIN, body: 'Called about the renewal; sending the quote today.', user: { id: ADA } } },
  handler: ({ store, app, body, token }) => ({ body: noteView(app, create(store, app, body, token)) }),
});

export const listNotes = appRoute({
  method: 'GET',
  path: '/notes',
  operationId: 'listNotes',
  summary: 'List a user\'s or lead\'s notes',
  description:
    'The person\'s notes, most recently created first, paged (per_page default 50, max 60) with total_count and an absolute next link. The person is named by id (or intercom_user_id, the same), else user_id, else email, as for POST /notes; none of them: 400 parameter_not_found; nobody: 404 not_found.',
  tag: TAG,
  query: noteListQuerySchema,
  response: { status: 200, description: 'One page of the person\'s notes', schema: noteListSchema },
  errors: ['parameter_not_found', 'not_found', 'conflict'],
  examples: { query: { id: ADA, intercom_user_id: '', user_id: '', email: '', page: 1, per_page: 50 } },
  handler: ({ app, query, origin, path }) => {
    const { total, items, pages } = list(app, query, pageRequestOf(query), { origin, path, query });
    return { body: noteListView(app, total, items, pages) };
  },
});

export const getNote = appRoute({
  method: 'GET',
  path: '/notes/{id}',
  operationId: 'getNote',
  summary: 'Fetch a note',
  description: 'The note (an archived user\'s notes included). Unknown: 404 not_found "Resource Not Found".',
  tag: TAG,
  params: { id: str({ description: 'The note id' }) },
  response: { status: 200, description: 'The note', schema: noteSchema },
  errors: ['not_found'],
  examples: { params: { id: '1001' } },
  handler: ({ app, params }) => ({ body: noteView(app, get(app, params.id ?? '')) }),
});

export const NOTE_ROUTES = [createNote, listNotes, getNote];
