// The registries of custom attribute names. Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { DataAttribute } from '../../engine/types.js';

export const dataAttributeCollections = {
  dataAttributes: map<DataAttribute>(),
  /** Custom company attributes by name (GET /data_attributes/company), registered on first write. */
  companyAttributes: map<DataAttribute>(),
};
