// Wire shape of GET /admins: admins and teams in one list, each side of the membership derived
// from the teams' admin_ids so the two can never disagree.

import type { AppState } from '../store/app-state.js';

export function adminListView(app: AppState) {
  const teamIdsByAdmin = new Map<string, number[]>();
  for (const team of app.data.teams.values()) {
    for (const adminId of team.admin_ids) teamIdsByAdmin.set(adminId, [...(teamIdsByAdmin.get(adminId) ?? []), Number(team.id)]);
  }
  const admins = [...app.data.admins.values()].map((a) => ({
    type: 'admin' as const,
    id: a.id,
    name: a.name,
    email: a.email as string | null,
    away_mode_enabled: a.away_mode_enabled,
    away_mode_reassign: a.away_mode_reassign,
    team_ids: teamIdsByAdmin.get(a.id) ?? [],
  }));
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
