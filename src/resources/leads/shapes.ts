// POST /contacts/convert: the lead and the user it becomes or joins. The lead's other bodies are
// the customer bodies (customers/shapes.ts).

import { MAX_SHORT_TEXT } from '../../schemas/fields.js';
import { openObj, str, type Schema } from '../../schemas/json-schema.js';

const keys = <P extends Record<string, Schema>>(properties: P, description: string) => openObj(properties, [], { description });
const short = str({ maxLength: MAX_SHORT_TEXT });

export const convertLeadBodySchema = openObj({
  contact: keys({ id: str(), user_id: short }, 'The lead, by id or user_id.'),
  user: keys({ id: str(), user_id: short, email: short }, 'The user, by id, user_id or email.'),
});
