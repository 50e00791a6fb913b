// Control plane: what the real app's inbox UI did and the v1 REST API cannot, so a webhook handler
// can be tested against the topic it fires. Tagging a conversation part (an agent tagging a message
// in the inbox) tags the conversation and fires conversation_part.tag.created.

import { apiError, missing, notFound } from '../core/errors.js';
import { normalTagName } from '../core/normal-text.js';
import { publisher } from '../resources/subscriptions/emit.js';
import { adminRoute } from '../http/route.js';
import { obj, openObj, str } from '../schemas/json-schema.js';
import { MAX_SHORT_TEXT } from '../schemas/fields.js';
import { appQuery, CONTROL_TAG, requireApp } from './target.js';
import { checkStoreRoomForTag } from '../resources/tags/rules.js';
import { GROUP_CONVERSATION } from '../resources/demo-examples.js';
import { saveConversation } from '../resources/conversations/indexes.js';
import { storeTag, tagByName } from '../resources/tags/indexes.js';

const tagRef = obj({ type: str({ enum: ['tag'] }), id: str(), name: str() }, ['type', 'id', 'name']);

export const tagConversationPart = adminRoute({
  method: 'POST',
  path: '/__admin/conversations/{id}/parts/{part_id}/tags',
  operationId: 'adminTagConversationPart',
  summary: 'Tag a conversation part, as an agent in the inbox would',
  description:
    'Tags the part with the tag named (made if the app has none of that name, case-insensitively): the conversation carries the tag, and subscriptions to conversation_part.tag.created get the conversation with tags_added. A tag the conversation already has changes nothing and fires nothing. One transaction: an unknown app, conversation or part (404 not_found) or a bad name (400) changes nothing. Answers the tag.',
  tag: CONTROL_TAG,
  params: { id: str({ maxLength: 64 }), part_id: str({ maxLength: 64 }) },
  query: appQuery,
  body: openObj({ name: str({ minLength: 1, maxLength: MAX_SHORT_TEXT, description: 'The tag name' }) }, ['name']),
  response: { status: 200, description: 'The tag', schema: tagRef },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized', 'bad_request', 'unsupported_media_type', 'request_too_large'],
  examples: { params: { id: GROUP_CONVERSATION, part_id: '1' }, query: { app: 'demo' }, body: { name: 'Refund' } },
  handler: ({ store, body, params, ...input }) => {
    const app = requireApp({ store, body, params, ...input });
    const now = store.now();
    const observe = app.data.subscriptions.size > 0 ? publisher(app, now, store.jobDelaySeconds) : undefined;
    const tag = app.transaction(() => {
      const c = app.data.conversations.get(params.id ?? '');
      if (!c) throw notFound(`No conversation ${String(params.id).slice(0, 64)} in app ${app.id}`);
      if (!c.parts.some((p) => p.id === params.part_id)) throw notFound(`No part ${String(params.part_id).slice(0, 64)} in conversation ${c.id}`);
      const name = typeof body.name === 'string' ? normalTagName(body.name) : '';
      if (name === '') throw missing('name', 'Name is a required parameter.');
      if (name.length > MAX_SHORT_TEXT) throw apiError('parameter_invalid', `name is longer than ${MAX_SHORT_TEXT} characters.`, 'name');
      const found = tagByName(app, name) ?? { id: app.newNumericId((x) => app.data.tags.has(x)), name };
      if (!app.data.tags.has(found.id)) {
        checkStoreRoomForTag(store);
        storeTag(app, found);
      }
      if (!c.tags.includes(found.id)) saveConversation(app, { ...c, tags: [...c.tags, found.id], updated_at: Math.max(c.updated_at, now) });
      return found;
    }, observe);
    return { body: { type: 'tag', id: tag.id, name: tag.name } };
  },
});
