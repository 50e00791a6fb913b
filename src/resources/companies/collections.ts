// Companies, by id and by company_id, with their people in the order they joined. Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { JoinLog } from '../../engine/join-log.js';
import type { Company } from '../../engine/types.js';

/** The sorted indexes' group of the whole company list (list.ts reads it, indexes.ts keeps it). */
export const COMPANY_LIST = 'company';

export const companyCollections = {
  companies: map<Company>(),
  /** company_id -> company id */
  byCompanyId: map<string>(),
  /** company id -> customer ids, in the order they joined (join-log.ts) */
  members: map<JoinLog>(),
  /** company id NUL customer id -> its place in members' log */
  memberSeqs: map<number>(),
};
