// The company object and the POST /companies body.

import { customAttributesSchema, tagListSchema } from '../../schemas/common.js';
import { companyFields } from '../customers/shapes.js';
import { arr, constant, int, nullable, obj, openObj, str, strOrInt } from '../../schemas/json-schema.js';

const nullableStr = nullable(str());
const nullableTime = nullable(int());

export const companySchema = obj(
  {
    type: constant('company'),
    id: str(),
    company_id: str(),
    name: str(),
    remote_created_at: nullableTime,
    created_at: int(),
    updated_at: int(),
    last_request_at: nullableTime,
    monthly_spend: nullable(int()),
    session_count: int({ minimum: 0 }),
    user_count: int({ minimum: 0, description: 'Users and leads in the company, live.' }),
    size: nullable(int()),
    website: nullableStr,
    industry: nullableStr,
    plan: nullable(obj({ type: constant('plan'), id: str({ description: 'a numeric string, the same for every company with that plan' }), name: str() }, ['type', 'id', 'name'])),
    tags: tagListSchema,
    segments: obj(
      { type: constant('segment.list'), segments: arr(obj({ type: constant('segment'), id: str(), name: str() }, ['type', 'id', 'name'])) },
      ['type', 'segments'],
    ),
    custom_attributes: customAttributesSchema,
  },
  [
    'type', 'id', 'company_id', 'name', 'remote_created_at', 'created_at', 'updated_at', 'last_request_at', 'monthly_spend',
    'session_count', 'user_count', 'size', 'website', 'industry', 'plan', 'tags', 'segments', 'custom_attributes',
  ],
);

export const companyBodySchema = openObj(
  {
    company_id: strOrInt({ maxLength: 255, description: 'The client-assigned id: the company is created when new, updated otherwise.' }),
    id: strOrInt({ maxLength: 255, description: 'Without company_id: the Intercom id of the company to update (PHP\'s README); one that names no company is read as its company_id, with a warning.' }),
    ...companyFields,
  },
  [],
  { description: 'Server-computed members (id, user_count, session_count, tags, segments, ...) are ignored.' },
);
