// Stored records. They are also the fixture format: `GET /__admin/state` writes them as they are and
// `POST /__admin/seed` reads them back, so export and seed round-trip by construction. Records are
// never mutated once stored (the seeded base is shared between apps); a write stores a new object.

import type { LocationData } from '../core/cities.js';
import type { ApiVersion } from '../core/versions.js';

export type CustomAttributeValue = string | number | boolean | null;
export type CustomAttributes = Record<string, CustomAttributeValue>;

export type CustomerType = 'user' | 'contact' | 'visitor';

export interface SocialProfile {
  type: 'social_profile';
  name: string;
  id: string | null;
  username: string;
  url: string;
}

export interface Customer {
  type: CustomerType;
  id: string;
  user_id: string | null;
  anonymous: boolean;
  email: string | null;
  phone: string | null;
  name: string | null;
  pseudonym: string | null;
  avatar_image_url: string | null;
  /** Internal ids of the companies the customer belongs to. */
  companies: string[];
  /** Tag ids. */
  tags: string[];
  /** Segment ids. */
  segments: string[];
  location_data: LocationData | null;
  last_request_at: number | null;
  last_seen_ip: string | null;
  created_at: number;
  remote_created_at: number | null;
  signed_up_at: number | null;
  updated_at: number;
  session_count: number;
  social_profiles: SocialProfile[];
  unsubscribed_from_emails: boolean;
  marked_email_as_spam: boolean;
  has_hard_bounced: boolean;
  user_agent_data: string | null;
  referrer: string | null;
  utm_campaign: string | null;
  utm_content: string | null;
  utm_medium: string | null;
  utm_source: string | null;
  utm_term: string | null;
  owner_id: number | null;
  custom_attributes: CustomAttributes;
}

export interface Company {
  id: string;
  company_id: string;
  name: string;
  created_at: number;
  updated_at: number;
  remote_created_at: number | null;
  last_request_at: number | null;
  monthly_spend: number | null;
  plan: string | null;
  size: number | null;
  website: string | null;
  industry: string | null;
  session_count: number;
  tags: string[];
  segments: string[];
  custom_attributes: CustomAttributes;
}

export interface Tag {
  id: string;
  name: string;
}

export interface Segment {
  id: string;
  name: string;
  /** Which kind of record the segment groups. */
  person_type: 'user' | 'company';
  created_at: number;
  updated_at: number;
  /**
   * Ids of the tags the segment's rule filters on: segments are fixtures with their members recorded
   * on the records, so this is what makes a tag one a segment depends on (DELETE /tags/{id} refuses).
   */
  rule_tags: string[];
}

export interface Admin {
  id: string;
  name: string;
  email: string;
  away_mode_enabled: boolean;
  away_mode_reassign: boolean;
}

export interface Team {
  id: string;
  name: string;
  away_mode_enabled: boolean;
  away_mode_reassign: boolean;
  /** Membership is stored once, here; an admin's team_ids are derived from it. */
  admin_ids: string[];
}

export type DataType = 'string' | 'integer' | 'float' | 'boolean' | 'date';

export interface DataAttribute {
  name: string;
  label: string;
  description: string;
  data_type: DataType;
  options?: string[];
  api_writable: boolean;
  ui_writable: boolean;
  archived: boolean;
  admin_id?: string;
  created_at: number;
  updated_at: number;
}

export interface Author {
  type: 'admin' | 'user' | 'lead' | 'bot' | 'nobody_admin' | 'team';
  id: string;
}

export interface Attachment {
  name: string;
  url: string;
}

export type PartType = 'comment' | 'note' | 'open' | 'close' | 'snoozed' | 'assignment';

export interface ConversationPart {
  id: string;
  part_type: PartType;
  body: string | null;
  created_at: number;
  updated_at: number;
  notified_at: number;
  assigned_to: Author | null;
  author: Author;
  attachments: Attachment[];
}

export interface Conversation {
  id: string;
  created_at: number;
  updated_at: number;
  subject: string;
  body: string;
  author: Author;
  attachments: Attachment[];
  /** Customer ids in the conversation; the first is the one shown as `user`. */
  customers: string[];
  assignee: Author | null;
  open: boolean;
  read: boolean;
  tags: string[];
  parts: ConversationPart[];
  /**
   * The lifecycle members the reply variants move (resources/conversations/state.ts). Absent in records
   * no such write has touched (seeded ones): read through `lifecycleOf`, which gives the default
   * (state from `open`, no snooze, not waiting), so fixtures and exports stay as they were.
   */
  state?: ConversationState;
  snoozed_until?: number | null;
  waiting_since?: number | null;
}

export type ConversationState = 'open' | 'closed' | 'snoozed';

export interface AppConfig {
  id: string;
  name: string;
  tokens: string[];
  /** Operations per minute; the window allowance is floor(limit / 6). */
  rate_limit_per_minute: number;
  /** The API version its requests are served in when they send no Intercom-Version (core/versions.ts). */
  api_version: ApiVersion;
  /**
   * Token -> the admin it belongs to (GET /me, the default author of a note). A token not listed
   * belongs to the app's first admin (resources/admins/rules.ts).
   */
  token_owners?: Record<string, string>;
  /** Warnings refused as errors (core/warnings.ts); absent: the process's --strict. */
  strict?: boolean;
  /** Warning codes not shown (nor refused under strict); the contract report still counts them. */
  mute_warnings?: string[];
}

/** A pending server-side job (location, avatar, social profiles), run when the clock reaches due_at. */
export interface EnrichJob {
  id: number;
  kind: 'enrich_customer';
  customer_id: string;
  due_at: number;
}

/** A note an admin left on a user or lead (POST /notes). */
export interface Note {
  /** Numeric string, from the app's numeric id stream (shared with tags), so ids increase. */
  id: string;
  /** Internal id of the user or lead (an archived user keeps its notes). */
  customer: string;
  admin_id: string;
  /** HTML as stored: plain text sent is wrapped in <p>. */
  body: string;
  created_at: number;
}

/** A queued task of a bulk job (resources/jobs/rules.ts), run when the clock reaches due_at. */
export interface BulkTaskJob {
  id: number;
  kind: 'bulk_task';
  job_id: string;
  task_id: string;
  due_at: number;
}

/** One delivery attempt of a webhook notification (resources/subscriptions/rules.ts), handed to the delivery module when due. */
export interface WebhookJob {
  id: number;
  kind: 'webhook';
  subscription_id: string;
  /** The notification_event as first built; the attempt number is set when it is sent. */
  notification: Record<string, unknown>;
  attempt: number;
  due_at: number;
}

export type Job = EnrichJob | BulkTaskJob | WebhookJob;
