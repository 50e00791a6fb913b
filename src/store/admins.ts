// Admins and teams: reads, away mode (surface A1–A4), and which admin a token belongs to (GET /me,
// the default author of a note). Teams come only from fixtures, so reading all of them is bounded
// by the fixture, never by API traffic.

import { apiError } from '../core/errors.js';
import type { AppState } from './app-state.js';
import type { Admin, Team } from './types.js';

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

/** PUT /admins/{id}/away: both flags stored as sent; the admin as it now is. */
export function setAwayMode(app: AppState, id: string, enabled: boolean, reassign: boolean): Admin {
  const admin = requireAdmin(app, id);
  const next: Admin = { ...admin, away_mode_enabled: enabled, away_mode_reassign: reassign };
  app.data.admins.set(id, next);
  return next;
}

/** The teams an admin is in, as team ids in team order (membership is stored on the teams). */
export function teamIdsOf(app: AppState, adminId: string): number[] {
  const out: number[] = [];
  for (const team of app.data.teams.values()) if (team.admin_ids.includes(adminId)) out.push(Number(team.id));
  return out;
}
