// Admins, teams and the admins' activity log. Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { Admin, Team } from '../../engine/types.js';
import type { ActivityLog } from './activity-logs.js';

export const adminCollections = {
  admins: map<Admin>(),
  teams: map<Team>(),
  /** Admin activity logs by their place in the app's log (resources/admins/activity-logs.ts): the oldest go first past the cap. */
  activityLogs: map<ActivityLog>(),
};
