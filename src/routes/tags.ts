import { tagListSchema, tagSchema } from '../schemas/common.js';
import { saveTagBodySchema } from '../schemas/tag.js';
import { listTags as allTags, saveTag as save, type SaveTagInput } from '../store/tags.js';
import { tagsView, tagView } from '../views/tag.js';
import { appRoute } from './route.js';

export const saveTag = appRoute({
  method: 'POST',
  path: '/tags',
  operationId: 'saveTag',
  summary: 'Create, rename, tag or untag',
  description:
    'With a name: finds the tag of that name (case-insensitive, first spelling kept) or creates it. With id and name: renames it (a name another tag holds answers 409 conflict). ' +
    'users ({id|user_id|email, untag}) and companies ({id|company_id, untag}) are tagged or untagged; one unknown entry answers 404 and nothing changes.',
  tag: 'Tags',
  body: saveTagBodySchema,
  response: { status: 200, description: 'The tag', schema: tagSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'tag_not_found', 'not_found', 'company_not_found', 'conflict', 'unsupported_media_type', 'request_too_large'],
  handler: ({ store, app, body }) => ({ body: tagView(save(store, app, body as SaveTagInput)) }),
});

export const listTags = appRoute({
  method: 'GET',
  path: '/tags',
  operationId: 'listTags',
  summary: 'List the tags',
  description: 'Every tag of the app, in creation order, unpaged.',
  tag: 'Tags',
  response: { status: 200, description: 'The tag list', schema: tagListSchema },
  errors: [],
  handler: ({ app }) => ({ body: tagsView(allTags(app)) }),
});

export const TAG_ROUTES = [saveTag, listTags];
