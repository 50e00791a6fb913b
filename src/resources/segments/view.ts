// Wire shape of a segment (S1, S2) and of the company list (C1, C2).

import type { Pages } from '../../core/pagination.js';
import type { AppState } from '../../state/app-state.js';
import { segmentCount } from './rules.js';
import type { Company, Segment } from '../../engine/types.js';
import { companyView } from '../companies/view.js';

export function segmentView(app: AppState, s: Segment, withCount: boolean) {
  const view = { type: 'segment' as const, id: s.id, name: s.name, created_at: s.created_at, updated_at: s.updated_at, person_type: s.person_type };
  return withCount ? { ...view, count: segmentCount(app, s) } : view;
}

export const segmentListView = (app: AppState, segments: readonly Segment[], withCount: boolean) => ({
  type: 'segment.list' as const,
  segments: segments.map((s) => segmentView(app, s, withCount)),
});

export const companyListView = (app: AppState, total: number, companies: readonly Company[], pages: Pages) => ({
  type: 'company.list' as const,
  total_count: total,
  companies: companies.map((c) => companyView(app, c)),
  pages,
});
