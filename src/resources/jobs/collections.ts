// Bulk jobs, in creation order. Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { BulkJob } from './rules.js';

export const jobCollections = {
  /** Bulk jobs by id (resources/jobs/rules.ts), their tasks inside. */
  bulkJobs: map<BulkJob>(),
  /** creation order -> job id, so the oldest job is found at once */
  bulkOrder: map<string>(),
};
