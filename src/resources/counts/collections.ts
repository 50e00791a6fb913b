// Running counts. Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';

export const countCollections = {
  /** Running counts behind GET /counts and list totals (keys from tallyKeys), so none walks the app. */
  tallies: map<number>(),
};
