// POST /tags request body (spec 4.3 plus the tagging members of the contract notes, section 5).

import { shortText } from './fields.js';
import { arr, bool, openObj, type Schema } from './json-schema.js';

// Clients send ids as numbers as often as strings; both name the same record.
const ref = (description: string): Schema => ({ type: ['string', 'integer'], description });
const untag = bool({ description: 'true removes the tag instead of adding it' });

const userTarget: Schema = openObj(
  {
    id: ref('server-assigned id of a user or lead (checked first)'),
    user_id: ref('client-assigned user_id (checked second)'),
    email: shortText({ description: 'email (checked last; several matches answer 409 conflict)' }),
    untag,
  },
  [],
);

const companyTarget: Schema = openObj(
  { id: ref('server-assigned id of the company (checked first)'), company_id: ref('client-assigned company_id'), untag },
  [],
);

export const saveTagBodySchema: Schema = openObj({
  id: ref('id of the tag to rename; absent to create or find by name'),
  name: shortText({ description: 'the tag name, or the new name when id is sent; case-insensitive; required' }),
  users: arr(userTarget, { description: 'users or leads to tag (or untag)' }),
  companies: arr(companyTarget, { description: 'companies to tag (or untag)' }),
});
