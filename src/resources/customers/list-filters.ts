// Query members of the filtered lists (GET /users, GET /contacts, GET /companies): tag_id or
// segment_id, created_since, sort and order.

import { SORT_KEYS } from './filters.js';
import { int, oneOfStrings, str, type Schema } from '../../schemas/json-schema.js';

export const labelQuery: Record<string, Schema> = {
  tag_id: str({ description: 'Only the records holding this tag, in the order they got it; an unknown tag gives an empty list. Not with segment_id (400 bad_request).' }),
  segment_id: str({ description: 'Only the records in this segment, in the order they joined it; an unknown segment gives an empty list. Not with tag_id (400 bad_request).' }),
};

export const orderQuery: Record<string, Schema> = {
  order: oneOfStrings(['asc', 'desc'], { description: 'asc or desc; defaults to desc when sort is sent, otherwise the list keeps its own order (desc reverses it).' }),
};

export const customerListQuery: Record<string, Schema> = {
  ...labelQuery,
  created_since: int({ minimum: 0, description: 'Only customers created in the last this many days (on the mock clock); the list is then sorted by created_at unless sort says otherwise.' }),
  sort: oneOfStrings(SORT_KEYS, { description: 'Sort by this timestamp (nulls first ascending, ties by id).' }),
  ...orderQuery,
};
