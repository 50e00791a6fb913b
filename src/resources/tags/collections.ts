// Tags, by id and by name. Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { Tag } from '../../engine/types.js';

export const tagCollections = {
  tags: map<Tag>(),
  /** tagNameKey(name) -> tag id */
  tagByName: map<string>(),
};
