// Who holds each tag, segment, company name and assignee (memberships.ts). Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { JoinLog } from '../../engine/join-log.js';

export const holderCollections = {
  /** `<kind>:<t|s|n>:<id>` -> the records holding that tag, segment or company name (memberships.ts) */
  holders: map<JoinLog>(),
  /** holder key NUL record id -> its place in holders' log */
  holderSeqs: map<number>(),
};
