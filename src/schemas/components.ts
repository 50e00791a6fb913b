// Named schemas: the OpenAPI document lists these under components.schemas and refers to them by
// $ref wherever a route uses the same schema object. Order here is the document's order.

import { adminListSchema } from './admin.js';
import { customAttributesSchema, errorListSchema, pagesSchema, tagListSchema, tagSchema } from './common.js';
import { customerSchema, locationDataSchema } from './customer.js';
import type { Schema } from './json-schema.js';

export const COMPONENTS: ReadonlyArray<readonly [string, Schema]> = [
  ['Error', errorListSchema],
  ['Pages', pagesSchema],
  ['Tag', tagSchema],
  ['TagList', tagListSchema],
  ['CustomAttributes', customAttributesSchema],
  ['LocationData', locationDataSchema],
  ['Customer', customerSchema],
  ['AdminList', adminListSchema],
];
