// The API versions the mock serves, as data: which exist, which one an app gets when nothing names
// one, how a request picks one, and the table of what each version changed (surface §18). Routes
// carry a version range (http/route.ts), views a per-version reshaping (views/versions.ts); both
// read this module, so no handler tests a version.

import { ApiError, apiError } from './errors.js';

/** The numbered versions: an app's version and --api-version are one of these. */
export const API_VERSIONS = ['1.0', '1.1', '1.2', '1.3', '1.4'] as const;

/**
 * Every version a request may name: the numbered ones, then Unstable, the v1-era preview version
 * Ruby 3.8+ and PHP 4.x name for customer search. It ranks after 1.4: Unstable is 1.4 plus
 * `POST /customers/search` [I]. Only the request header names it.
 */
export const SERVED_VERSIONS = [...API_VERSIONS, 'Unstable'] as const;
export type ApiVersion = (typeof SERVED_VERSIONS)[number];
/** A version an app may have (fixture `app.api_version`, --api-version): a numbered one. */
export type AppApiVersion = (typeof API_VERSIONS)[number];

/**
 * The version of an app that names none: 1.0, as the real API's was ("the version set in your app
 * package, and 1.0 if none is set"); it also keeps the specification's `conversation_message`.
 */
export const DEFAULT_API_VERSION: AppApiVersion = '1.0';

/** The request header that overrides the app's version. */
export const VERSION_HEADER = 'intercom-version';

export const isApiVersion = (value: unknown): value is ApiVersion => (SERVED_VERSIONS as readonly unknown[]).includes(value);

/** Inclusive bounds; an absent bound is open. */
export interface VersionRange {
  since?: ApiVersion;
  until?: ApiVersion;
}

const rank = (v: ApiVersion): number => SERVED_VERSIONS.indexOf(v);

export function inRange(version: ApiVersion, range: VersionRange | undefined): boolean {
  if (!range) return true;
  // An absent since ranks -1 (indexOf), below every version.
  const fromSince = rank(version) >= SERVED_VERSIONS.indexOf(range.since as ApiVersion);
  return fromSince && (range.until === undefined || rank(version) <= rank(range.until));
}

/** The versions of a range, oldest first (the OpenAPI document's `x-api-versions`). */
export const versionsIn = (range: VersionRange | undefined): ApiVersion[] => SERVED_VERSIONS.filter((v) => inRange(v, range));

export const UNAVAILABLE_MESSAGE = 'Requested resource is not available in current API version';

export const versionUnavailable = (): ApiError => apiError('intercom_version_invalid', UNAVAILABLE_MESSAGE);

/** The header value cut short, so a long one cannot make the error long. */
export function invalidVersion(value: string): ApiError {
  const shown = value.length > 20 ? `${value.slice(0, 20)}…` : value;
  return apiError('intercom_version_invalid', `Intercom-Version ${JSON.stringify(shown)} is not a version this API serves: send one of ${SERVED_VERSIONS.join(', ')}.`);
}

/** Header first, then the app's own version. */
export function requestVersion(header: string | null, appVersion: ApiVersion | undefined): ApiVersion {
  if (header !== null) {
    // Stryker disable next-line MethodExpression: equivalent over HTTP, header values arrive without surrounding blanks (Headers); kept for callers that pass raw text
    const value = header.trim();
    if (!isApiVersion(value)) throw invalidVersion(value);
    return value;
  }
  return appVersion ?? DEFAULT_API_VERSION;
}

/**
 * What each version changed, for the README and the document's info table; the mechanisms are
 * the route ranges and views/versions.ts.
 */
export const VERSION_CHANGES: readonly { version: ApiVersion; changes: string }[] = [
  { version: '1.0', changes: '`GET /users?email=` answers the one user (several: 409 conflict, none: 404 not_found); conversations have none of the 1.1 fields, their message type is conversation_message.' },
  {
    version: '1.1',
    changes:
      '`GET /users?email=` answers a `user.list` of the users and leads with it (no match: empty list); conversations gain `conversation_message.delivered_as` and its channel `type`, `sent_at`, `customer_first_reply`, tag `applied_at`/`applied_by`; list items `first_action_at`/`last_action_at`.',
  },
  {
    version: '1.2',
    changes:
      'Users, leads and visitors no longer show `last_seen_ip`, `user_agent_data`, `location_data.latitude`/`longitude`; `GET /users?email=` lists users only; `GET /contacts?phone=` (earlier: 400 parameter_invalid); `GET /admins/activity_logs` (earlier: 400 intercom_version_invalid); `waiting_since` null after an admin reply in every version (decision).',
  },
  { version: '1.3', changes: 'No change to the operations served.' },
  {
    version: '1.4',
    changes:
      '`GET /data_attributes?model=customer|company` (items carry `model`); `/data_attributes/customer` and `/company` answer 400 intercom_version_invalid; `GET /admins` lists admins only; users, leads and visitors show `owner_id` and no archived custom attributes; a write that would create a custom attribute whose name has other than letters, digits, `_`, `-` and currency symbols is 400 parameter_invalid.',
  },
  {
    version: 'Unstable',
    changes:
      'Named only by the `Intercom-Version` header (not an app\'s version): 1.4, plus `POST /customers/search` (Ruby 3.8+ and PHP 4.x call it under Unstable); every other version answers that path 400 intercom_version_invalid.',
  },
];

/**
 * Who `GET /users?email=` (without user_id) lists, per version: 1.1 listed users and leads with the
 * email, 1.2 "returns users only" (changelog 1.2); 1.0's find was of users only [I].
 */
const EMAIL_LIST_TYPES: readonly { versions: VersionRange; types: readonly ('user' | 'contact')[] }[] = [
  { versions: { until: '1.0' }, types: ['user'] },
  { versions: { since: '1.1', until: '1.1' }, types: ['user', 'contact'] },
  { versions: { since: '1.2' }, types: ['user'] },
];

export const emailListTypes = (version: ApiVersion): readonly ('user' | 'contact')[] =>
  // Stryker disable next-line OptionalChaining,ArrayDeclaration,StringLiteral: equivalent, the table covers every version, so the fallback never runs
  EMAIL_LIST_TYPES.find((row) => inRange(version, row.versions))?.types ?? ['user'];

/**
 * Query parameters an operation has only from some version on: sent to an earlier version, they
 * are refused (400 parameter_invalid), never ignored (views/versions.ts).
 */
export const VERSIONED_QUERY_PARAMETERS: readonly { operationId: string; parameter: string; since: ApiVersion }[] = [
  { operationId: 'listLeads', parameter: 'phone', since: '1.2' },
];

/**
 * Paths of later API versions (2.x) a 1.x request may try: the real API answers them
 * `400 intercom_version_invalid`, where a path no version has gets `404 not_found` (surface §18).
 */
export const LATER_VERSION_PATHS: readonly { method: string; pattern: RegExp }[] = [
  { method: 'POST', pattern: /^\/conversations\/?$/ },
  { method: 'POST', pattern: /^\/contacts\/search\/?$/ },
  { method: 'POST', pattern: /^\/contacts\/merge\/?$/ },
  { method: 'POST', pattern: /^\/data_attributes\/?$/ },
  { method: 'PUT', pattern: /^\/data_attributes\/[^/]+\/?$/ },
  { method: 'GET', pattern: /^\/companies\/[^/]+\/contacts\/?$/ },
  { method: 'GET', pattern: /^\/conversations\/[^/]+\/parts\/?$/ },
];

export const isLaterVersionPath = (method: string, pathname: string): boolean => LATER_VERSION_PATHS.some((p) => p.method === method && p.pattern.test(pathname));

/**
 * What a new custom attribute's name may hold, from the version that brought the rule: 1.4's
 * changelog, "Names can therefore only contain alphanumeric characters, currency symbols, and
 * hyphens"; the underscore counts as alphanumeric, as the docs' own names (`paid_subscriber`) use it [I].
 * Names the app already has stay writable whatever they hold.
 */
export const ATTRIBUTE_NAME_RULES: readonly { versions: VersionRange; pattern: RegExp; rule: string }[] = [
  { versions: { since: '1.4' }, pattern: /^[\p{L}\p{N}\p{Sc}_-]+$/u, rule: 'letters, digits, underscores, hyphens and currency symbols' },
];

export const attributeNameRule = (version: ApiVersion): { pattern: RegExp; rule: string } | undefined => ATTRIBUTE_NAME_RULES.find((r) => inRange(version, r.versions));

/**
 * The writes that may create custom attributes, and whose registry a body's `custom_attributes`
 * names go to (a body's `companies[].custom_attributes` go to the company one). Bulk items are not
 * checked: they run later, as jobs, under no request's version [I].
 */
export const ATTRIBUTE_WRITES: Readonly<Record<string, 'customer' | 'company'>> = {
  upsertUser: 'customer',
  upsertLead: 'customer',
  updateLeadById: 'customer',
  updateLead: 'customer',
  updateVisitor: 'customer',
  updateVisitorByPost: 'customer',
  updateVisitorById: 'customer',
  upsertCompany: 'company',
};

/** From 1.4, customer views leave out the custom attributes the app has archived (changelog 1.4). */
export const HIDES_ARCHIVED_ATTRIBUTES: VersionRange = { since: '1.4' };
