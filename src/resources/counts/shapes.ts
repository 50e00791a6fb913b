// GET /counts: query and the three response shapes (count.hash, company count, user count).

import { pagesSchema } from '../../schemas/common.js';
import { conversationAdminCountSchema, conversationCountSchema } from './conversation-shapes.js';
import { anyOf, arr, constant, int, obj, openObj, str, type Schema } from '../../schemas/json-schema.js';

export const countQuerySchema = openObj({
  type: str({ description: 'company, user or conversation; with count absent too, the app totals are returned' }),
  count: str({ description: 'segment, tag or user for type=company; segment or tag for type=user; admin (or none) for type=conversation' }),
  per_page: int({ minimum: 1, maximum: 60, default: 50, description: 'tag counts only' }),
  page: int({ minimum: 1, default: 1, description: 'tag counts only' }),
});

const total = obj({ count: int({ minimum: 0 }) }, ['count']);
const totals = obj(
  { type: constant('count.hash'), company: total, segment: total, tag: total, user: total, lead: total },
  ['type', 'company', 'segment', 'tag', 'user', 'lead'],
);

/** `{"<name>": n}`: one key, whatever the name. */
const named: Schema = { type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: int({ minimum: 0 }) };
/** `{"<company name>": n, "remote_company_id": "<company_id>"}`. */
const companyUsers: Schema = {
  type: 'object',
  properties: { remote_company_id: str() },
  required: ['remote_company_id'],
  minProperties: 2,
  maxProperties: 2,
  additionalProperties: int({ minimum: 0 }),
};

const only = (key: string, items: Schema) => obj({ [key]: arr(items) }, [key]);

export const companyCount = obj(
  {
    type: constant('count'),
    company: { anyOf: [only('segment', named), only('tag', named), only('user', companyUsers)] },
    pages: {
      anyOf: [
        obj({}, [], { description: 'segment and user counts: no more pages' }),
        obj({ pages: pagesSchema }, ['pages'], { description: 'tag counts: the pages object, nested' }),
      ],
    },
  },
  ['type', 'company', 'pages'],
);

export const userCount = obj({ type: constant('count'), user: { anyOf: [only('segment', named), only('tag', named)] } }, ['type', 'user']);

export const countResponseSchema = anyOf(totals, companyCount, userCount, conversationCountSchema, conversationAdminCountSchema);
