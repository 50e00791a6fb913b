// Fills the defaults of a loose fixture into complete records. A complete record passes through
// unchanged, which is what makes export-then-seed an identity.

import { DEFAULT_API_VERSION } from '../core/versions.js';
import { normalEmail, normalTagName } from '../core/normal-text.js';
import { mapSteps, type Steps } from '../core/steps.js';
import type { FixtureDocument, FixtureInput } from './fixture-doc.js';
import type { Company, Conversation, ConversationPart, Customer, DataAttribute, Segment, Team, Admin } from './types.js';

/** The fixtures' "now": 2026-01-01T00:00:00Z. Default timestamps and generated history sit before it. */
export const REFERENCE_TIME = 1_767_225_600;

export const DEFAULT_RATE_LIMIT = 500;

export function emptyCustomer(type: Customer['type'], id: string, at: number): Customer {
  return {
    type,
    id,
    user_id: null,
    anonymous: type !== 'user',
    email: null,
    phone: null,
    name: null,
    pseudonym: null,
    avatar_image_url: null,
    companies: [],
    tags: [],
    segments: [],
    location_data: null,
    last_request_at: null,
    last_seen_ip: null,
    created_at: at,
    remote_created_at: null,
    signed_up_at: null,
    updated_at: at,
    session_count: 0,
    social_profiles: [],
    unsubscribed_from_emails: false,
    marked_email_as_spam: false,
    has_hard_bounced: false,
    user_agent_data: null,
    referrer: null,
    utm_campaign: null,
    utm_content: null,
    utm_medium: null,
    utm_source: null,
    utm_term: null,
    owner_id: null,
    custom_attributes: {},
  };
}

/**
 * A copy of a customer record to build its next version from. Spelled out member by member, in
 * emptyCustomer's order, so every record has one shape and a copy is one allocation (a spread of
 * a 30-member record copies it member by member).
 */
export function copyCustomer(c: Customer): Customer {
  return {
    type: c.type,
    id: c.id,
    user_id: c.user_id,
    anonymous: c.anonymous,
    email: c.email,
    phone: c.phone,
    name: c.name,
    pseudonym: c.pseudonym,
    avatar_image_url: c.avatar_image_url,
    companies: c.companies,
    tags: c.tags,
    segments: c.segments,
    location_data: c.location_data,
    last_request_at: c.last_request_at,
    last_seen_ip: c.last_seen_ip,
    created_at: c.created_at,
    remote_created_at: c.remote_created_at,
    signed_up_at: c.signed_up_at,
    updated_at: c.updated_at,
    session_count: c.session_count,
    social_profiles: c.social_profiles,
    unsubscribed_from_emails: c.unsubscribed_from_emails,
    marked_email_as_spam: c.marked_email_as_spam,
    has_hard_bounced: c.has_hard_bounced,
    user_agent_data: c.user_agent_data,
    referrer: c.referrer,
    utm_campaign: c.utm_campaign,
    utm_content: c.utm_content,
    utm_medium: c.utm_medium,
    utm_source: c.utm_source,
    utm_term: c.utm_term,
    owner_id: c.owner_id,
    custom_attributes: c.custom_attributes,
  };
}

export function emptyCompany(id: string, companyId: string, at: number): Company {
  return {
    id,
    company_id: companyId,
    name: companyId,
    created_at: at,
    updated_at: at,
    remote_created_at: null,
    last_request_at: null,
    monthly_spend: null,
    plan: null,
    size: null,
    website: null,
    industry: null,
    session_count: 0,
    tags: [],
    segments: [],
    custom_attributes: {},
  };
}

function customer(input: NonNullable<FixtureInput['customers']>[number]): Customer {
  const type = input.type ?? 'user';
  const at = input.created_at ?? REFERENCE_TIME;
  const base = emptyCustomer(type, input.id, at);
  const merged: Customer = { ...base, ...input, type, updated_at: input.updated_at ?? at };
  // Emails as API writes store them; one that is blank once trimmed is no email.
  if (merged.email !== null) merged.email = normalEmail(merged.email) || null;
  return copyCustomer(merged);
}

function company(input: NonNullable<FixtureInput['companies']>[number]): Company {
  const at = input.created_at ?? REFERENCE_TIME;
  const merged = { ...emptyCompany(input.id, input.company_id, at), ...input, updated_at: input.updated_at ?? at };
  // monthly_spend is a whole number on the wire (statically typed clients decode an integer): a fixture's fraction is cut as the API cut one.
  if (typeof merged.monthly_spend === 'number') merged.monthly_spend = Math.trunc(merged.monthly_spend);
  return merged;
}

function conversation(input: NonNullable<FixtureInput['conversations']>[number]): Conversation {
  const at = input.created_at ?? REFERENCE_TIME;
  const parts = (input.parts ?? []).map((p): ConversationPart => {
    const partAt = p.created_at ?? at;
    return {
      id: p.id,
      part_type: p.part_type ?? 'comment',
      body: p.body ?? null,
      created_at: partAt,
      updated_at: p.updated_at ?? partAt,
      notified_at: p.notified_at ?? partAt,
      assigned_to: p.assigned_to ?? null,
      author: p.author,
      attachments: p.attachments ?? [],
    };
  });
  return {
    id: input.id,
    created_at: at,
    updated_at: input.updated_at ?? parts.at(-1)?.created_at ?? at,
    subject: input.subject ?? '',
    body: input.body ?? '',
    author: input.author,
    attachments: input.attachments ?? [],
    customers: input.customers,
    assignee: input.assignee ?? null,
    open: input.open ?? true,
    read: input.read ?? false,
    tags: input.tags ?? [],
    parts,
    // Only when given: a record without them reads its defaults (conversation-state.ts).
    ...(input.state === undefined ? {} : { state: input.state }),
    ...(input.snoozed_until === undefined ? {} : { snoozed_until: input.snoozed_until }),
    ...(input.waiting_since === undefined ? {} : { waiting_since: input.waiting_since }),
  };
}

function dataAttribute(input: NonNullable<FixtureInput['data_attributes']>[number]): DataAttribute {
  const at = input.created_at ?? REFERENCE_TIME;
  const out: DataAttribute = {
    name: input.name,
    label: input.label ?? input.name,
    description: input.description ?? '',
    data_type: input.data_type,
    api_writable: input.api_writable ?? true,
    ui_writable: input.ui_writable ?? true,
    archived: input.archived ?? false,
    created_at: at,
    updated_at: input.updated_at ?? at,
  };
  if (input.options) out.options = input.options;
  if (input.admin_id) out.admin_id = input.admin_id;
  return out;
}

const admin = (a: NonNullable<FixtureInput['admins']>[number]): Admin => ({
  id: a.id,
  name: a.name,
  email: a.email,
  away_mode_enabled: a.away_mode_enabled ?? false,
  away_mode_reassign: a.away_mode_reassign ?? false,
});

const team = (t: NonNullable<FixtureInput['teams']>[number]): Team => ({
  id: t.id,
  name: t.name,
  away_mode_enabled: t.away_mode_enabled ?? false,
  away_mode_reassign: t.away_mode_reassign ?? false,
  admin_ids: t.admin_ids ?? [],
});

const segment = (s: NonNullable<FixtureInput['segments']>[number]): Segment => ({
  id: s.id,
  name: s.name,
  person_type: s.person_type ?? 'user',
  created_at: s.created_at ?? REFERENCE_TIME,
  updated_at: s.updated_at ?? s.created_at ?? REFERENCE_TIME,
  rule_tags: s.rule_tags ?? [],
});

/** A fixture document with its defaults filled in, pausing every few hundred records of the big lists. */
export function* normalize(input: FixtureInput): Steps<FixtureDocument> {
  const companies = yield* mapSteps('reading companies', input.companies ?? [], company);
  const customers = yield* mapSteps('reading customers', input.customers ?? [], customer);
  const conversations = yield* mapSteps('reading conversations', input.conversations ?? [], conversation);
  const archived = yield* mapSteps('reading archived customers', input.archived_customers ?? [], customer);
  const events = yield* mapSteps('reading events', input.events ?? [], (e) => ({ ...e, metadata: e.metadata ?? {} }));
  return {
    app: {
      id: input.app.id,
      name: input.app.name ?? input.app.id,
      tokens: input.app.tokens,
      rate_limit_per_minute: input.app.rate_limit_per_minute ?? DEFAULT_RATE_LIMIT,
      api_version: input.app.api_version ?? DEFAULT_API_VERSION,
      ...(input.app.token_owners ? { token_owners: { ...input.app.token_owners } } : {}),
      ...(input.app.strict === undefined ? {} : { strict: input.app.strict }),
      ...(input.app.mute_warnings ? { mute_warnings: [...input.app.mute_warnings] } : {}),
    },
    admins: (input.admins ?? []).map(admin),
    teams: (input.teams ?? []).map(team),
    segments: (input.segments ?? []).map(segment),
    tags: (input.tags ?? []).map((t) => ({ id: t.id, name: normalTagName(t.name) })),
    data_attributes: (input.data_attributes ?? []).map(dataAttribute),
    companies,
    customers,
    conversations,
    jobs: (input.jobs ?? []).map((j) => ({ ...j })),
    archived_customers: archived,
    user_delete_requests: input.user_delete_requests ?? 0,
    former_customers: [...(input.former_customers ?? [])],
    company_data_attributes: (input.company_data_attributes ?? []).map(dataAttribute),
    notes: (input.notes ?? []).map((n) => ({ id: n.id, customer: n.customer, admin_id: n.admin_id, body: n.body, created_at: n.created_at ?? REFERENCE_TIME })),
    events,
    event_summaries: [...(input.event_summaries ?? [])],
    ...(input.event_log ? { event_log: { ...input.event_log } } : {}),
    bulk_jobs: [...(input.bulk_jobs ?? [])],
    subscriptions: (input.subscriptions ?? []).map((s) => ({
      id: s.id,
      created_at: s.created_at ?? REFERENCE_TIME,
      updated_at: s.updated_at ?? s.created_at ?? REFERENCE_TIME,
      url: s.url,
      topics: [...s.topics],
      active: s.active ?? true,
      hub_secret: s.hub_secret ?? null,
      metadata: s.metadata?.event_names ? { event_names: [...s.metadata.event_names] } : {},
    })),
    ...(input.activity_logs?.length ? { activity_logs: input.activity_logs.map((a) => ({ ...a, performed_by: { ...a.performed_by } })) } : {}),
  };
}
