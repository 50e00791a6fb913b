// Segments (seeded only). Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { Segment } from '../../engine/types.js';

export const segmentCollections = {
  segments: map<Segment>(),
};
