// Wire shapes of admins and teams: GET /admins (both in one list), GET /admins/{id}, GET /me,
// GET /teams. Each side of the membership is derived from the teams' admin_ids so the two can
// never disagree.

import type { AppState } from '../../state/app-state.js';
import { teamIdsOf } from './rules.js';
import { REFERENCE_TIME } from '../../fixtures/normalize.js';
import type { Admin, Team } from '../../engine/types.js';

function adminEntry(a: Admin, teamIds: number[]) {
  return {
    type: 'admin' as const,
    id: a.id,
    name: a.name,
    email: a.email,
    away_mode_enabled: a.away_mode_enabled,
    away_mode_reassign: a.away_mode_reassign,
    team_ids: teamIds,
  };
}

export function adminView(app: AppState, a: Admin) {
  return adminEntry(a, teamIdsOf(app, a.id));
}

export function teamView(t: Team) {
  return { type: 'team' as const, id: t.id, name: t.name, admin_ids: t.admin_ids.map(Number) };
}

export function teamListView(app: AppState) {
  return { type: 'team.list' as const, teams: [...app.data.teams.values()].map(teamView) };
}

/** GET /me: the 1.0 "current admin" fields; the app's creation time is the fixtures' reference time. */
export function meView(app: AppState, a: Admin) {
  return {
    type: 'admin' as const,
    id: a.id,
    name: a.name,
    email: a.email,
    email_verified: true,
    app: { type: 'app' as const, id_code: app.id, name: app.config.name, created_at: REFERENCE_TIME, identity_verification: false },
  };
}

export function adminListView(app: AppState) {
  const teamIdsByAdmin = new Map<string, number[]>();
  for (const team of app.data.teams.values()) {
    for (const adminId of team.admin_ids) teamIdsByAdmin.set(adminId, [...(teamIdsByAdmin.get(adminId) ?? []), Number(team.id)]);
  }
  const admins = [...app.data.admins.values()].map((a) => adminEntry(a, teamIdsByAdmin.get(a.id) ?? []));
  const teams = [...app.data.teams.values()].map((t) => ({
    type: 'team' as const,
    id: t.id,
    name: t.name,
    email: null,
    away_mode_enabled: t.away_mode_enabled,
    away_mode_reassign: t.away_mode_reassign,
    admin_ids: t.admin_ids.map(Number),
  }));
  return { type: 'admin.list' as const, admins: [...admins, ...teams], pages: {} };
}
