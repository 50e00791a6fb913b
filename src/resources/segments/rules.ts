// Segments (S1, S2): read-only fixtures, their members recorded on the records' `segments`. A
// segment's count is the running tally the writes keep (users and leads for a user segment,
// companies for a company segment), so include_count costs nothing per member.

import { badChoice, notFound } from '../../core/errors.js';
import type { AppState } from '../../state/app-state.js';
import type { Segment } from '../../engine/types.js';
import { tally } from '../counts/tallies.js';

export type SegmentType = 'user' | 'company';

export function segmentType(raw: unknown): SegmentType {
  if (raw === undefined || raw === 'user') return 'user';
  if (raw === 'company') return 'company';
  throw badChoice('type', ['user', 'company']);
}

/** The app's segments of one kind, in fixture order (segments are few: fixtures only, no API creates them). */
export function listSegments(app: AppState, type: SegmentType): Segment[] {
  return [...app.data.segments.values()].filter((s) => s.person_type === type);
}

export function requireSegment(app: AppState, id: string): Segment {
  const segment = app.data.segments.get(id);
  if (!segment) throw notFound();
  return segment;
}

/** Live members: users and leads of a user segment, companies of a company segment. */
export const segmentCount = (app: AppState, s: Segment): number => tally(app, `${s.person_type}-segment:${s.id}`);
