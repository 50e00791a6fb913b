import { tagListSchema, tagSchema } from '../../schemas/common.js';
import { openObj, str } from '../../schemas/json-schema.js';
import { renameTagBodySchema, saveTagBodySchema } from './shapes.js';
import { deleteTag as remove } from './delete.js';
import { requireTag, requireTagByName } from './indexes.js';
import { listTags as allTags, saveTag as save } from './rules.js';
import { tagsView, tagView } from './view.js';
import { appRoute } from '../../http/route.js';
import { ADA } from '../demo-examples.js';

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
  examples: { body: { id: '17513', name: 'VIP', users: [{ id: ADA }], companies: [{ company_id: 'acme' }] } },
  handler: ({ store, app, body }) => ({ body: tagView(save(store, app, body)) }),
});

export const listTags = appRoute({
  method: 'GET',
  path: '/tags',
  operationId: 'listTags',
  summary: 'List the tags, or find one by name',
  description:
    'Every tag of the app, in creation order, unpaged. With name: the one tag of that name (compared like POST /tags: case-insensitive, trimmed, NFC), as python-intercom\'s tags.find(name=) expects; none: 404 not_found.',
  tag: 'Tags',
  query: openObj({ name: str({ description: 'answer the tag of this name instead of the list' }) }),
  response: { status: 200, description: 'The tag list, or the tag named', schema: { anyOf: [tagListSchema, tagSchema] } },
  errors: ['not_found'],
  examples: { query: { name: 'VIP' } },
  handler: ({ app, query }) => ({ body: typeof query.name === 'string' ? tagView(requireTagByName(app, query.name)) : tagsView(allTags(app)) }),
});

const tagId = { id: str({ description: 'The tag id' }) };

export const getTag = appRoute({
  method: 'GET',
  path: '/tags/{id}',
  operationId: 'getTag',
  summary: 'Fetch a tag',
  description: 'The tag (python-intercom\'s tags.find(id=)); unknown: 404 not_found.',
  tag: 'Tags',
  params: tagId,
  response: { status: 200, description: 'The tag', schema: tagSchema },
  errors: ['not_found'],
  examples: { params: { id: '17513' } },
  handler: ({ app, params }) => ({ body: tagView(requireTag(app, params.id ?? '')) }),
});

export const renameTag = appRoute({
  method: 'PUT',
  path: '/tags/{id}',
  operationId: 'renameTag',
  summary: 'Rename a tag (PUT form)',
  description: 'What Ruby\'s tags.save sends for a tag with an id: the rename of POST /tags {id, name}, with the same rules (unknown id 404 tag_not_found, a name another tag holds 409 conflict).',
  tag: 'Tags',
  params: tagId,
  body: renameTagBodySchema,
  response: { status: 200, description: 'The renamed tag', schema: tagSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'bad_request', 'tag_not_found', 'conflict', 'unsupported_media_type', 'request_too_large'],
  examples: { params: { id: '17514' }, body: { name: 'At risk' } },
  handler: ({ store, app, params, body }) => ({ body: tagView(save(store, app, { id: params.id ?? '', ...(typeof body.name === 'string' ? { name: body.name } : {}) })) }),
});

export const deleteTag = appRoute({
  method: 'DELETE',
  path: '/tags/{id}',
  operationId: 'deleteTag',
  summary: 'Delete a tag',
  description:
    'Removes the tag from every user, lead, company and conversation holding it (their updated_at unchanged), then the tag; answers the deleted tag. A tag a segment\'s rule uses: 400 tag_has_dependent_objects naming the segments, and nothing changes. Unknown: 404 not_found.',
  tag: 'Tags',
  params: tagId,
  response: { status: 200, description: 'The deleted tag', schema: tagSchema },
  errors: ['not_found', 'tag_has_dependent_objects'],
  examples: { params: { id: '17515' } },
  handler: ({ app, params }) => ({ body: tagView(remove(app, params.id ?? '')) }),
});

export const TAG_ROUTES = [saveTag, listTags, getTag, renameTag, deleteTag];
