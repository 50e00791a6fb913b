// Archiving users (DELETE /users) and permanent deletion requests (POST /user_delete_requests).

import { idParams, serverId } from '../../schemas/fields.js';
import { int, obj, openObj, str } from '../../schemas/json-schema.js';
import { userSchema } from '../customers/shapes.js';
import { archiveUser } from './archive.js';
import { requestDeletion } from '../cross-resource/deletion.js';
import { customerView } from '../customers/view.js';
import { appRoute } from '../../http/route.js';
import { SECOND_LEAD } from '../demo-examples.js';

const ARCHIVE_RULES =
  'The user leaves every read (lists, lookups, its companies\' user lists and user_count, tag and segment counts, GET /counts) but is kept: POST /users with its id, user_id or email brings it back with the same id, companies, tags and conversations. Answers the full user as it was.';

export const archiveUserById = appRoute({
  method: 'DELETE',
  path: '/users/{id}',
  operationId: 'archiveUserById',
  summary: 'Archive a user by id',
  description: `${ARCHIVE_RULES} A lead or visitor id is not found here.`,
  tag: 'Users',
  params: idParams(),
  response: { status: 200, description: 'The archived user', schema: userSchema },
  errors: ['not_found'],
  examples: { params: { id: '5714dd359a3fd47136000003' } },
  handler: ({ app, params }) => ({ body: customerView(app, archiveUser(app, { id: params.id ?? '' })) }),
});

export const archiveUserByKeys = appRoute({
  method: 'DELETE',
  path: '/users',
  operationId: 'archiveUser',
  summary: 'Archive a user by id, user_id or email',
  description: `${ARCHIVE_RULES} The user is found by id, else user_id, else email (case-insensitive); an email several users share is a 409, no identifier a 400.`,
  tag: 'Users',
  query: openObj({ id: str(), user_id: str(), email: str() }),
  response: { status: 200, description: 'The archived user', schema: userSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'conflict'],
  examples: { query: { id: '', user_id: 'alan-3', email: '' } },
  handler: ({ app, query }) => ({ body: customerView(app, archiveUser(app, query)) }),
});

const deleteRequestSchema = obj({ id: int({ minimum: 1, description: 'The id of the deletion request: 1, 2, 3, ... per app.' }) }, ['id']);

export const requestUserDeletion = appRoute({
  method: 'POST',
  path: '/user_delete_requests',
  operationId: 'requestUserDeletion',
  summary: 'Permanently delete a user or lead',
  description:
    'The user or lead (an archived user too) whose id is intercom_user_id is deleted at once and for good: gone from every read, never restored (a later POST /users with its user_id makes a new user). Its conversations stay and still name its id. A missing intercom_user_id (the `{}` the Node client sends when its email lookup found a list) is a 400.',
  tag: 'Users',
  body: openObj({ intercom_user_id: serverId() }),
  response: { status: 200, description: 'The deletion request', schema: deleteRequestSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'not_found', 'unsupported_media_type', 'request_too_large'],
  examples: { body: { intercom_user_id: SECOND_LEAD } },
  handler: ({ app, body }) => ({ body: requestDeletion(app, body.intercom_user_id) }),
});

export const USER_LIFECYCLE_ROUTES = [archiveUserById, archiveUserByKeys, requestUserDeletion];
