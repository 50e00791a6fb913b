// Schemas shared by many operations: the error envelope, pages, and the small list wrappers.

import type { TBoolean, TNull, TNumber, TRecord, TString, TUnion } from 'typebox';
import { arr, constant, int, nullable, obj, str, type Typed } from './json-schema.js';

export const errorListSchema = obj(
  {
    type: constant('error.list'),
    request_id: str({ pattern: '^[0-9a-z]{20}$' }),
    errors: arr(obj({ code: str(), message: str(), field: str() }, ['code', 'message']), { minItems: 1 }),
  },
  ['type', 'request_id', 'errors'],
);

export const pagesSchema = obj(
  {
    type: constant('pages'),
    next: nullable(str({ format: 'uri', description: 'null on the last page' })),
    page: int({ minimum: 1 }),
    per_page: int({ minimum: 1 }),
    total_pages: int({ minimum: 0 }),
  },
  [],
  { description: 'An empty object means there are no more pages.' },
);

/** Pages of a list whose real pages carried no `type` (notes): the clients that page by it read one page. */
export const untypedPagesSchema = obj(
  { page: int({ minimum: 1 }), per_page: int({ minimum: 1 }), total_pages: int({ minimum: 0 }), next: nullable(str({ format: 'uri', description: 'null on the last page' })) },
  ['page', 'per_page', 'total_pages', 'next'],
  { description: 'No `type`: the real note list had none, so clients that page by it read the first page only.' },
);

export const tagSchema = obj({ type: constant('tag'), id: str(), name: str() }, ['type', 'id', 'name']);
export const tagListSchema = obj({ type: constant('tag.list'), tags: arr(tagSchema) }, ['type', 'tags']);

export const customAttributesSchema = {
  type: 'object',
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
} as Typed<TRecord<'^.*$', TUnion<[TString, TNumber, TBoolean, TNull]>>>;
