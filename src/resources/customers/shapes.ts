// The user / lead / visitor object of spec 2.5 and the contract notes (resources/customers/view.ts).

import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../../core/pagination.js';
import { customAttributesSchema, pagesSchema, tagListSchema } from '../../schemas/common.js';
import { ipText, MAX_COMPANIES_PER_WRITE, MAX_CUSTOM_ATTRIBUTES, shortText, unixTime, urlText, userAgentText } from '../../schemas/fields.js';
import { anyOf, arr, freeObject, bool, constant, int, nullable, num, obj, oneOfStrings, openObj, str, strOrInt, type Schema } from '../../schemas/json-schema.js';

const nullableStr = nullable(str());
const nullableTime = nullable(int());

export const locationDataSchema = obj(
  {
    type: constant('location_data'),
    city_name: str(),
    continent_code: str(),
    country_name: str(),
    latitude: num({ description: 'API versions 1.0–1.1 only.' }),
    longitude: num({ description: 'API versions 1.0–1.1 only.' }),
    postal_code: str(),
    region_name: str(),
    timezone: str(),
    country_code: str(),
  },
  ['type'],
  { description: 'Computed by the server from last_seen_ip, asynchronously; only `type` until then.' },
);

export const customerSchema = obj(
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
    last_seen_ip: { ...nullableStr, description: 'API versions 1.0–1.1 only.' },
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
    user_agent_data: { ...nullableStr, description: 'API versions 1.0–1.1 only.' },
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
    owner_id: nullable(int({ description: 'API version 1.4 only: the admin who owns the person.' })),
  },
  [
    'type', 'id', 'user_id', 'anonymous', 'email', 'phone', 'name', 'pseudonym', 'avatar', 'app_id', 'companies', 'location_data',
    'last_request_at', 'created_at', 'remote_created_at', 'signed_up_at', 'updated_at', 'session_count',
    'social_profiles', 'unsubscribed_from_emails', 'marked_email_as_spam', 'has_hard_bounced', 'referrer',
    'utm_campaign', 'utm_content', 'utm_medium', 'utm_source', 'utm_term', 'tags', 'segments', 'custom_attributes',
  ],
);

const ofType = (type: string, description: string): Schema => ({ allOf: [customerSchema, { properties: { type: constant(type) } }], description });

export const userSchema: Schema = ofType('user', 'A user: client-chosen user_id, signed_up_at and sessions.');
export const leadSchema: Schema = ofType('contact', 'A lead: anonymous, server-assigned UUID user_id, a pseudonym, no signed_up_at, no sessions.');
export const visitorSchema: Schema = ofType('visitor', 'A visitor: anonymous, server-assigned UUID user_id; an email makes it a lead.');
export const userOrLeadSchema = anyOf(userSchema, leadSchema);

export const userListSchema = obj(
  { type: constant('user.list'), total_count: int({ minimum: 0 }), users: arr(userOrLeadSchema), pages: pagesSchema },
  ['type', 'total_count', 'users', 'pages'],
);

export const contactListSchema = obj(
  { type: constant('contact.list'), total_count: int({ minimum: 0 }), contacts: arr(leadSchema), pages: pagesSchema },
  ['type', 'total_count', 'contacts', 'pages'],
);

/** Paging members of a list query; other parameters are tolerated and carried into `next`. */
export const pagingQuery: Record<string, Schema> = {
  page: int({ minimum: 1, default: 1, description: 'Page number, from 1. A page past the last is empty.' }),
  per_page: int({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE, description: `Page size, 1 to ${MAX_PER_PAGE}.` }),
};

// --- request bodies -----------------------------------------------------------------------------

/** Checked member by member in the store, so each problem names `custom_attributes.<name>`. */
export const customAttributesInput = freeObject({
  maxProperties: MAX_CUSTOM_ATTRIBUTES,
  description: `Names without "." or "$", at most 190 characters; values string (≤255 characters), number, boolean or null; at most ${MAX_CUSTOM_ATTRIBUTES} fields; a name ending in _at is a date (Unix seconds, a safe integer).`,
});

/** The writable members of a company, in a customer's `companies` and in POST /companies. */
export const companyFields = {
  name: shortText(),
  monthly_spend: nullable(int()),
  plan: nullable(shortText()),
  size: nullable(int({ minimum: 0 })),
  website: nullable(urlText()),
  industry: nullable(shortText()),
  remote_created_at: nullable(unixTime()),
  custom_attributes: customAttributesInput,
};

export const companyItem = openObj(
  {
    company_id: strOrInt({ maxLength: 255, description: 'The client-assigned company id; the company is created when new.' }),
    id: strOrInt({ maxLength: 255, description: 'Without company_id: the company\'s Intercom id (.NET, Ruby); one that names no company is read as its company_id (Python), with a warning.' }),
    ...companyFields,
    remove: bool({ description: 'true detaches the customer from the company.' }),
  },
  [],
);

const time = (description: string) => nullable(unixTime({ description }));

const attributeFields = {
  email: nullable(shortText({ description: 'Stored trimmed, in lower case and NFC; at most 255 characters in that form.' })),
  phone: nullable(shortText()),
  name: nullable(shortText()),
  signed_up_at: time('Unix seconds (users only).'),
  last_request_at: time('Unix seconds.'),
  remote_created_at: time('Unix seconds.'),
  last_seen_ip: nullable(ipText({ description: 'location_data is computed from it, asynchronously.' })),
  last_seen_user_agent: nullable(userAgentText({ description: 'Shown as user_agent_data.' })),
  unsubscribed_from_emails: bool(),
  update_last_request_at: bool({ description: 'true sets last_request_at to the server time.' }),
  new_session: bool({ description: 'true counts a session (users only).' }),
  custom_attributes: customAttributesInput,
  companies: arr(companyItem, { maxItems: MAX_COMPANIES_PER_WRITE, description: `At most ${MAX_COMPANIES_PER_WRITE} items; several naming one company_id apply in order.` }),
};

const IGNORED = 'Server-computed members (location_data, avatar, social_profiles, segments, tags, created_at, ...) are ignored.';

export const userBodySchema = openObj(
  {
    id: str({ description: 'Finds the user to update; never written.' }),
    user_id: nullable(shortText({ description: 'Client-chosen unique id.' })),
    ...attributeFields,
  },
  [],
  { description: `Needs id, user_id or email. ${IGNORED}` },
);

export const leadBodySchema = openObj(
  {
    id: str({ description: 'Updates this lead instead of creating one.' }),
    user_id: nullable(shortText({ description: 'Server-assigned: finds the lead to update, never written.' })),
    ...attributeFields,
  },
  [],
  { description: `Every member is optional. ${IGNORED}` },
);

export const visitorBodySchema = openObj(
  {
    id: str({ description: 'Identifies the visitor.' }),
    user_id: nullable(shortText({ description: 'Identifies the visitor.' })),
    ...attributeFields,
  },
  [],
  { description: `Needs user_id or id. An email converts the visitor into a lead. ${IGNORED}` },
);

const keys = (description: string) => openObj({ id: str(), user_id: shortText(), email: shortText() }, [], { description });

export const convertBodySchema = obj(
  {
    type: str({ description: 'lead or user' }),
    visitor: keys('The visitor, by user_id or id.'),
    user: keys('type user only: the user to merge into, by id, user_id or email; when none matches, the visitor becomes this user.'),
  },
  ['type', 'visitor'],
);
