// Archived users (archive.ts) and the indexes that bring one back. Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { JoinLog } from '../../engine/join-log.js';
import type { Customer } from '../../engine/types.js';

export const archiveCollections = {
  /** Archived users (resources/users/archive.ts): out of `customers`, so no read sees them, until POST /users brings them back. */
  archived: map<Customer>(),
  /** user_id -> archived user id */
  archivedByUserId: map<string>(),
  /** email -> archived user ids, in the order they were archived */
  archivedEmails: map<JoinLog>(),
  /** email NUL archived user id -> its place in archivedEmails' log */
  archivedEmailSeqs: map<number>(),
};
