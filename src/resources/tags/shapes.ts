// POST /tags request body (spec 4.3 plus the tagging members of the contract notes, section 5).

import { MAX_TAG_TARGETS, shortText } from '../../schemas/fields.js';
import { arr, bool, idRef, openObj } from '../../schemas/json-schema.js';

const untag = bool({ description: 'true removes the tag instead of adding it' });

const userTarget = openObj(
  {
    id: idRef('server-assigned id of a user or lead (checked first)'),
    user_id: idRef('client-assigned user_id (checked second)'),
    email: shortText({ description: 'email (checked last, trimmed and case-insensitive; several matches answer 409 conflict)' }),
    untag,
  },
  [],
);

const companyTarget = openObj(
  { id: idRef('server-assigned id of the company (checked first)'), company_id: idRef('client-assigned company_id'), untag },
  [],
);

export const saveTagBodySchema = openObj({
  id: idRef('id of the tag to rename; absent to create or find by name'),
  name: shortText({ description: 'the tag name, or the new name when id is sent; stored trimmed and in NFC (at most 255 characters in that form); case-insensitive; required' }),
  users: arr(userTarget, { maxItems: MAX_TAG_TARGETS, description: `users or leads to tag (or untag), at most ${MAX_TAG_TARGETS}; for a record named twice, the last entry wins` }),
  companies: arr(companyTarget, { maxItems: MAX_TAG_TARGETS, description: `companies to tag (or untag), at most ${MAX_TAG_TARGETS}; for a record named twice, the last entry wins` }),
});

/** PUT /tags/{id}: Ruby sends the whole tag back; only name is read. */
export const renameTagBodySchema = openObj(
  { name: shortText({ description: 'the new name (same rules as POST /tags); required' }) },
  [],
  { description: 'Other members (id, type, ...) are ignored.' },
);
