// What each API version reshapes in an answer, as a table applied to every response in one place
// (http/pipeline.ts). The handlers and views build the default version's answer (core/versions.ts);
// a request in another version gets it reshaped here. The answer is copied before it is changed
// (views may be cached and shared), so only requests in a reshaping version pay for it.

import { apiError, invalid } from '../core/errors.js';
import { ATTRIBUTE_WRITES, attributeNameRule, HIDES_ARCHIVED_ATTRIBUTES, inRange, VERSIONED_QUERY_PARAMETERS, type ApiVersion, type VersionRange } from '../core/versions.js';
import type { AppInput, RouteResult } from '../http/route.js';
import { jsonText } from './json-text.js';

type Json = Record<string, unknown>;

interface ViewChange {
  versions: VersionRange;
  /** The operations it reshapes; absent: every answer. */
  operations?: readonly string[];
  /** Reshapes a private copy of the body in place, or answers a new body; may throw an ApiError. */
  apply: (body: Json, input: AppInput) => Json | undefined;
}

const CUSTOMER_TYPES = new Set(['user', 'contact', 'visitor']);

/** Every full customer view in the body (references such as a conversation's `user` are not views). */
function eachCustomer(value: unknown, visit: (customer: Json) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) eachCustomer(item, visit);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const obj = value as Json;
  if (CUSTOMER_TYPES.has(obj.type as string) && 'custom_attributes' in obj) visit(obj);
  for (const key in obj) {
    const child = obj[key];
    if (typeof child === 'object' && child !== null) eachCustomer(child, visit);
  }
}

/** Every conversation in the body (a single one or list items). */
function eachConversation(value: unknown, visit: (conversation: Json) => void): void {
  if (typeof value !== 'object' || value === null) return;
  const obj = value as Json;
  if (obj.type === 'conversation' && 'conversation_message' in obj) visit(obj);
  else if (Array.isArray(obj.conversations)) for (const c of obj.conversations as unknown[]) eachConversation(c, visit);
}

/** 1.0: the conversation fields 1.1 added are gone, and the message is typed conversation_message (changelog 1.1). */
function conversationBefore11(body: Json): undefined {
  eachConversation(body, (c) => {
    for (const key of ['sent_at', 'customer_first_reply', 'first_action_at', 'last_action_at']) delete c[key];
    const message = c.conversation_message as Json;
    message.type = 'conversation_message';
    delete message.delivered_as;
    for (const tag of (c.tags as { tags: Json[] }).tags) {
      delete tag.applied_at;
      delete tag.applied_by;
    }
  });
  return undefined;
}

/** 1.0: `GET /users?email=` is a find: the one user, or 404 / 409 (surface §18, changelog 1.1). */
function findByEmail(body: Json, input: AppInput): Json | undefined {
  const { email, user_id } = input.query;
  if (email === undefined || user_id !== undefined) return undefined;
  const users = body.users as Json[];
  if (body.total_count === 0) throw apiError('not_found', 'User Not Found');
  if ((body.total_count as number) > 1) throw apiError('conflict', `Multiple existing users match this email address ${String(email)} - must be more specific using user_id`);
  return users[0];
}

/** The operations that answer a conversation or a conversation list. */
const CONVERSATION_ANSWERS = [
  'getConversation',
  'listConversations',
  'markConversationRead',
  'markConversationReadByPost',
  'markConversationReadByReplyPath',
  'replyToLastConversation',
  'replyToConversation',
  'runAssignmentRules',
];

/**
 * A query parameter sent to a version before the one that has it is ignored, as that version
 * ignored any parameter it did not know, and reported (strict mode refuses it). Checked before
 * any reshaping, so it copies nothing.
 */
function checkParameters(operationId: string, version: ApiVersion, input: AppInput): void {
  for (const { operationId: op, parameter, since } of VERSIONED_QUERY_PARAMETERS) {
    if (op !== operationId || inRange(version, { since }) || input.query[parameter] === undefined) continue;
    delete input.query[parameter];
    input.warnings.add('version_parameter', `${parameter} is not a filter of API version ${version}: it is one from version ${since} (send Intercom-Version: ${since} or later).`, parameter);
  }
}

/** The names of `attributes` the registry does not hold yet that break `rule`: the first one, as an error. */
function checkNewNames(attributes: unknown, registry: { has: (name: string) => boolean }, field: string, rule: { pattern: RegExp; rule: string }, version: ApiVersion): void {
  // Validated before: an object or absent (null is refused by the schema).
  for (const name of Object.keys((attributes ?? {}) as Json)) {
    if (registry.has(name) || rule.pattern.test(name)) continue;
    throw invalid(
      `${field}.${name}`,
      `Custom attribute name ${JSON.stringify(name.slice(0, 50))} is not allowed in API version ${version}: a new custom attribute's name may only contain ${rule.rule}.`,
    );
  }
}

/**
 * What a request must satisfy in its version before it runs, so a refused one changes nothing:
 * a write that would create a custom attribute follows the version's naming rule (core/versions.ts).
 */
export function checkVersionedRequest(operationId: string, version: ApiVersion, input: AppInput): void {
  checkParameters(operationId, version, input);
  const model = ATTRIBUTE_WRITES[operationId];
  const rule = model === undefined ? undefined : attributeNameRule(version);
  if (rule === undefined) return;
  const { dataAttributes, companyAttributes } = input.app.data;
  checkNewNames(input.body.custom_attributes, model === 'company' ? companyAttributes : dataAttributes, 'custom_attributes', rule, version);
  if (model !== 'customer' || !Array.isArray(input.body.companies)) return;
  (input.body.companies as unknown[]).forEach((company, i) => {
    // A removal creates nothing: its attributes are ignored by the write (resources/companies/rules.ts).
    if ((company as Json).remove === true) return;
    checkNewNames((company as Json).custom_attributes, companyAttributes, `companies[${i}].custom_attributes`, rule, version);
  });
}

export const VIEW_CHANGES: readonly ViewChange[] = [
  { versions: { until: '1.0' }, operations: ['listUsers'], apply: findByEmail },
  { versions: { until: '1.0' }, operations: CONVERSATION_ANSWERS, apply: conversationBefore11 },
  {
    versions: { since: '1.2' },
    apply: (body) => {
      eachCustomer(body, (c) => {
        delete c.last_seen_ip;
        delete c.user_agent_data;
        const location = c.location_data as Json | undefined;
        if (location) {
          delete location.latitude;
          delete location.longitude;
        }
      });
      return undefined;
    },
  },
  {
    versions: { since: '1.4' },
    apply: (body, input) => {
      eachCustomer(body, (c) => {
        c.owner_id = input.app.data.customers.get(c.id as string)?.owner_id ?? null;
      });
      return undefined;
    },
  },
  {
    versions: HIDES_ARCHIVED_ATTRIBUTES,
    apply: (body, input) => {
      // One registry look-up per attribute shown: what a view shows bounds the work, not the app.
      const registry = input.app.data.dataAttributes;
      eachCustomer(body, (c) => {
        const attributes = c.custom_attributes as Json;
        // Stryker disable next-line OptionalChaining: equivalent, every name a customer carries is registered (writes and seeds register it)
        for (const name of Object.keys(attributes)) if (registry.get(name)?.archived === true) delete attributes[name];
      });
      return undefined;
    },
  },
  {
    versions: { since: '1.4' },
    operations: ['listAdmins'],
    apply: (body) => ({ ...body, admins: (body.admins as Json[]).filter((a) => a.type !== 'team') }),
  },
];

const applies = (change: ViewChange, operationId: string, version: ApiVersion): boolean =>
  inRange(version, change.versions) && (change.operations === undefined || change.operations.includes(operationId));

/**
 * The view changes of each (operation, version), chosen once: choosing them on every request (a
 * filter of the list, each change's range ranked) cost a write request half a microsecond.
 */
const CHANGES_OF = new Map<string, Map<ApiVersion, readonly ViewChange[]>>();

function changesOf(operationId: string, version: ApiVersion): readonly ViewChange[] {
  let byVersion = CHANGES_OF.get(operationId);
  if (byVersion === undefined) CHANGES_OF.set(operationId, (byVersion = new Map()));
  let changes = byVersion.get(version);
  if (changes === undefined) byVersion.set(version, (changes = VIEW_CHANGES.filter((c) => applies(c, operationId, version))));
  return changes;
}

/** The answer as the request's version shows it; the same object when the version changes nothing. */
export function versionedResult(operationId: string, version: ApiVersion, result: RouteResult, input: AppInput): RouteResult {
  const changes = changesOf(operationId, version);
  if (changes.length === 0 || result.body === undefined || result.body === null) return result;
  let body = JSON.parse(jsonText(result.body)) as Json;
  for (const change of changes) body = change.apply(body, input) ?? body;
  return { ...result, body };
}
