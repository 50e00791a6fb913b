// Admins and teams: reads, away mode (surface A1–A4), and which admin a token belongs to (GET /me,
// the default author of a note). Teams come only from fixtures, so reading all of them is bounded
// by the fixture, never by API traffic.

import { apiError } from '../../core/errors.js';
import { logActivity } from './activity-logs.js';
import type { AppState } from '../../state/app-state.js';
import type { Admin, Team } from '../../engine/types.js';

export function requireAdmin(app: AppState, id: string): Admin {
  const admin = app.data.admins.get(id);
  if (!admin) throw apiError('admin_not_found', 'Admin not found');
  return admin;
}

export function requireTeam(app: AppState, id: string): Team {
  const team = app.data.teams.get(id);
  if (!team) throw apiError('team_not_found', 'Team not found');
  return team;
}

/**
 * The admin a token belongs to: the one `app.token_owners` names for it, else the app's first admin
 * (fixture order), which is also the owner of a provisioned test app's token. Undefined only for an
 * app without admins.
 */
export function tokenOwner(app: AppState, token: string): Admin | undefined {
  const owners = app.config.token_owners;
  const named = owners !== undefined && Object.hasOwn(owners, token) ? app.data.admins.get(owners[token] as string) : undefined;
  return named ?? app.data.admins.values().next().value;
}

/**
 * PUT /admins/{id}/away: both flags stored as sent; the admin as it now is. Every accepted change is
 * an `admin_away_mode_change` activity of that admin, its metadata naming who asked (`by`, the
 * token's admin) as the docs' metadata does (update_by, update_by_name, source).
 */
export function setAwayMode(app: AppState, id: string, enabled: boolean, reassign: boolean, by: Admin | undefined, now: number): Admin {
  const admin = requireAdmin(app, id);
  const next: Admin = { ...admin, away_mode_enabled: enabled, away_mode_reassign: reassign };
  app.data.admins.set(id, next);
  const initiator = by ?? next;
  logActivity(app, next, now, {
    activity_type: 'admin_away_mode_change',
    activity_description: `${initiator.name} set ${initiator.id === next.id ? 'their' : `${next.name}'s`} status to ${enabled ? 'away' : 'active'}${enabled && reassign ? ', reassigning new replies' : ''}.`,
    metadata: {
      away_mode: enabled,
      away_status_reason: null,
      reassign_conversations: reassign,
      source: `admin update from api - Admin id: ${initiator.id}`,
      auto_changed: false,
      update_by: Number(initiator.id),
      update_by_name: initiator.name,
    },
  });
  return next;
}

/** The teams an admin is in, as team ids in team order (membership is stored on the teams). */
export function teamIdsOf(app: AppState, adminId: string): number[] {
  const out: number[] = [];
  for (const team of app.data.teams.values()) if (team.admin_ids.includes(adminId)) out.push(Number(team.id));
  return out;
}
