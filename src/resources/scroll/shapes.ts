// GET /users/scroll, /contacts/scroll, /companies/scroll: the query and the three page shapes
// (no pages, no total_count: surface U4).

import { companySchema } from '../companies/shapes.js';
import { leadSchema, userSchema } from '../customers/shapes.js';
import { arr, constant, obj, str, type Schema } from '../../schemas/json-schema.js';

export const scrollQuerySchema = obj({
  scroll_param: str({ description: 'The scroll_param of the previous page; absent (or empty) opens the app\'s one scroll.' }),
});

const scrollParam = str({ description: 'Send it back for the next page; the same value for the whole scroll.' });

const page = (type: string, key: string, item: Schema) =>
  obj({ type: constant(type), [key]: arr(item), scroll_param: scrollParam }, ['type', key, 'scroll_param']);

export const userScrollSchema = page('user.list', 'users', userSchema);
export const leadScrollSchema = page('contact.list', 'contacts', leadSchema);
export const companyScrollSchema = page('company.list', 'companies', companySchema);
