// Customers of every type (users, leads, visitors) and the indexes that find one by identity. Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { JoinLog } from '../../engine/join-log.js';
import type { Customer } from '../../engine/types.js';

export const customerCollections = {
  customers: map<Customer>(),
  /** user_id -> customer id */
  byUserId: map<string>(),
  /** email as stored (core/normal-text.ts) -> customer ids (an email may be shared: lookup case 4 of POST /users) */
  byEmail: map<JoinLog>(),
  /** email NUL customer id -> its place in byEmail's log (join-log.ts) */
  emailSeqs: map<number>(),
  /** phone as stored -> customer ids (GET /contacts?phone=) */
  byPhone: map<JoinLog>(),
  /** phone NUL customer id -> its place in byPhone's log */
  phoneSeqs: map<number>(),
};
