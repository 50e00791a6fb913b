// Segments (S1, S2) and the company list (C1, C2).

import { pagesSchema } from '../../schemas/common.js';
import { companySchema } from '../companies/shapes.js';
import { arr, constant, int, obj, oneOfStrings, str, type Schema } from '../../schemas/json-schema.js';

export const segmentSchema = obj(
  {
    type: constant('segment'),
    id: str(),
    name: str(),
    created_at: int(),
    updated_at: int(),
    person_type: oneOfStrings(['user', 'company'], { description: 'user: users and leads; company: companies' }),
    count: int({ minimum: 0, description: 'Live members (users and leads, or companies); only with include_count=true.' }),
  },
  ['type', 'id', 'name', 'created_at', 'updated_at', 'person_type'],
);

export const segmentListSchema = obj({ type: constant('segment.list'), segments: arr(segmentSchema) }, ['type', 'segments']);

export const includeCountQuery: Record<string, Schema> = {
  include_count: oneOfStrings(['true', 'false'], { default: 'false', description: 'true adds count, the live members' }),
};

export const companyListSchema = obj(
  { type: constant('company.list'), total_count: int({ minimum: 0 }), companies: arr(companySchema), pages: pagesSchema },
  ['type', 'total_count', 'companies', 'pages'],
);
