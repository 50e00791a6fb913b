// Wire shape of a company. user_count is the company's tally of users and leads, so it is always live and
// always equals the total of the company's user list.

import { hashSeed } from '../../core/random.js';
import type { AppState } from '../../state/app-state.js';
import { companyUserCount } from '../customers/rules.js';
import type { Company } from '../../engine/types.js';
import { segmentListView, tagListView } from '../customers/view.js';

/**
 * A plan's id, a numeric string as the real API's (Go's client reads it): derived from its name,
 * so the same plan has the same id in every company, app and run, with no registry to keep.
 */
export const planId = (name: string): string => String(100_000 + (hashSeed('plan', name) % 900_000));

export function companyView(app: AppState, c: Company) {
  return {
    type: 'company' as const,
    id: c.id,
    company_id: c.company_id,
    name: c.name,
    remote_created_at: c.remote_created_at,
    created_at: c.created_at,
    updated_at: c.updated_at,
    last_request_at: c.last_request_at,
    monthly_spend: c.monthly_spend,
    session_count: c.session_count,
    user_count: companyUserCount(app, c.id),
    size: c.size,
    website: c.website,
    industry: c.industry,
    plan: c.plan === null ? null : { type: 'plan' as const, id: planId(c.plan), name: c.plan },
    tags: tagListView(app, c.tags),
    segments: segmentListView(app, c.segments),
    custom_attributes: c.custom_attributes,
  };
}
