// Wire shape of a user (type user), lead (type contact) or visitor: one view for all three.

import type { Pages } from '../../core/pagination.js';
import type { AppState } from '../../state/app-state.js';
import type { Customer } from '../../engine/types.js';

export function tagListView(app: AppState, tagIds: readonly string[]) {
  const tags = [];
  for (const id of tagIds) {
    const tag = app.data.tags.get(id);
    if (tag) tags.push({ type: 'tag' as const, id: tag.id, name: tag.name });
  }
  return { type: 'tag.list' as const, tags };
}

export function segmentListView(app: AppState, segmentIds: readonly string[]) {
  const segments = [];
  for (const id of segmentIds) {
    const s = app.data.segments.get(id);
    if (s) segments.push({ type: 'segment' as const, id: s.id, name: s.name });
  }
  return { type: 'segment.list' as const, segments };
}

export function customerView(app: AppState, c: Customer) {
  const companies = [];
  for (const id of c.companies) {
    const co = app.data.companies.get(id);
    if (co) companies.push({ type: 'company' as const, company_id: co.company_id, id: co.id, name: co.name });
  }
  return {
    type: c.type,
    id: c.id,
    user_id: c.user_id,
    anonymous: c.anonymous,
    email: c.email,
    phone: c.phone,
    name: c.name,
    pseudonym: c.pseudonym,
    avatar: { type: 'avatar' as const, image_url: c.avatar_image_url },
    app_id: app.id,
    companies: { type: 'company.list' as const, companies },
    location_data: c.location_data ?? { type: 'location_data' as const },
    last_request_at: c.last_request_at,
    last_seen_ip: c.last_seen_ip,
    created_at: c.created_at,
    remote_created_at: c.remote_created_at,
    signed_up_at: c.signed_up_at,
    updated_at: c.updated_at,
    session_count: c.session_count,
    social_profiles: { type: 'social_profile.list' as const, social_profiles: c.social_profiles },
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
    tags: tagListView(app, c.tags),
    segments: segmentListView(app, c.segments),
    custom_attributes: c.custom_attributes,
  };
}

/** `user.list` (users, and leads as type contact, in a company's list) with its total and pages. */
export function userListView(app: AppState, total: number, customers: readonly Customer[], pages: Pages) {
  return { type: 'user.list' as const, total_count: total, users: customers.map((c) => customerView(app, c)), pages };
}

export function contactListView(app: AppState, total: number, customers: readonly Customer[], pages: Pages) {
  return { type: 'contact.list' as const, total_count: total, contacts: customers.map((c) => customerView(app, c)), pages };
}
