// The company object and the POST /companies body.

import { customAttributesSchema, tagListSchema } from './common.js';
import { companyFields } from './customer.js';
import { arr, constant, int, nullable, num, obj, openObj, str, type Schema } from './json-schema.js';

const nullableStr = nullable(str());
const nullableTime = nullable(int());

export const companySchema: Schema = obj(
  {
    type: constant('company'),
    id: str(),
    company_id: str(),
    name: str(),
    remote_created_at: nullableTime,
    created_at: int(),
    updated_at: int(),
    last_request_at: nullableTime,
    monthly_spend: nullable(num()),
    session_count: int({ minimum: 0 }),
    user_count: int({ minimum: 0, description: 'Users and leads in the company, live.' }),
    size: nullable(int()),
    website: nullableStr,
    industry: nullableStr,
    plan: nullable(obj({ type: constant('plan'), name: str() }, ['type', 'name'])),
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

export const companyBodySchema: Schema = openObj(
  {
    company_id: { type: ['string', 'integer'], maxLength: 255, description: 'The client-assigned id: the company is created when new, updated otherwise.' },
    ...companyFields,
  },
  ['company_id'],
  { description: 'Server-computed members (id, user_count, session_count, tags, segments, ...) are ignored.' },
);
