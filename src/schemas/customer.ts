// The user / lead / visitor object of spec 2.5 and the contract notes (views/customer.ts).

import { customAttributesSchema, tagListSchema } from './common.js';
import { arr, bool, constant, int, nullable, num, obj, oneOfStrings, str, type Schema } from './json-schema.js';

const nullableStr = nullable(str());
const nullableTime = nullable(int());

export const locationDataSchema: Schema = obj(
  {
    type: constant('location_data'),
    city_name: str(),
    continent_code: str(),
    country_name: str(),
    latitude: num(),
    longitude: num(),
    postal_code: str(),
    region_name: str(),
    timezone: str(),
    country_code: str(),
  },
  ['type'],
  { description: 'Computed by the server from last_seen_ip, asynchronously; only `type` until then.' },
);

export const customerSchema: Schema = obj(
  {
    type: oneOfStrings(['user', 'contact', 'visitor']),
    id: str(),
    user_id: nullableStr,
    anonymous: bool(),
    email: nullableStr,
    phone: nullableStr,
    name: nullableStr,
    pseudonym: nullableStr,
    avatar: obj({ type: constant('avatar'), image_url: nullableStr }, ['type', 'image_url']),
    app_id: str(),
    companies: obj(
      {
        type: constant('company.list'),
        companies: arr(obj({ type: constant('company'), company_id: str(), id: str(), name: str() }, ['type', 'company_id', 'id', 'name'])),
      },
      ['type', 'companies'],
    ),
    location_data: locationDataSchema,
    last_request_at: nullableTime,
    last_seen_ip: nullableStr,
    created_at: int(),
    remote_created_at: nullableTime,
    signed_up_at: nullableTime,
    updated_at: int(),
    session_count: int({ minimum: 0 }),
    social_profiles: obj(
      {
        type: constant('social_profile.list'),
        social_profiles: arr(
          obj({ type: constant('social_profile'), name: str(), id: nullableStr, username: str(), url: str() }, ['type', 'name', 'id', 'username', 'url']),
        ),
      },
      ['type', 'social_profiles'],
    ),
    unsubscribed_from_emails: bool(),
    marked_email_as_spam: bool(),
    has_hard_bounced: bool(),
    user_agent_data: nullableStr,
    referrer: nullableStr,
    utm_campaign: nullableStr,
    utm_content: nullableStr,
    utm_medium: nullableStr,
    utm_source: nullableStr,
    utm_term: nullableStr,
    tags: tagListSchema,
    segments: obj(
      { type: constant('segment.list'), segments: arr(obj({ type: constant('segment'), id: str(), name: str() }, ['type', 'id', 'name'])) },
      ['type', 'segments'],
    ),
    custom_attributes: customAttributesSchema,
  },
  [
    'type', 'id', 'user_id', 'anonymous', 'email', 'phone', 'name', 'pseudonym', 'avatar', 'app_id', 'companies', 'location_data',
    'last_request_at', 'last_seen_ip', 'created_at', 'remote_created_at', 'signed_up_at', 'updated_at', 'session_count',
    'social_profiles', 'unsubscribed_from_emails', 'marked_email_as_spam', 'has_hard_bounced', 'user_agent_data', 'referrer',
    'utm_campaign', 'utm_content', 'utm_medium', 'utm_source', 'utm_term', 'tags', 'segments', 'custom_attributes',
  ],
);
