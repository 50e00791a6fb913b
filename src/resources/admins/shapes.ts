// GET /admins: admin and team entries of spec 2.6 in one list.

import { anyOf, arr, bool, constant, int, nullable, obj, openObj, str } from '../../schemas/json-schema.js';

const common = { id: str(), name: str(), away_mode_enabled: bool(), away_mode_reassign: bool() };
const required = ['type', 'id', 'name', 'email', 'away_mode_enabled', 'away_mode_reassign'];

export const adminSchema = obj(
  { type: constant('admin'), ...common, email: str(), team_ids: arr(int(), { description: 'the teams the admin is in' }) },
  [...required, 'team_ids'],
);

export const teamSchema = obj(
  { type: constant('team'), ...common, email: { type: 'null' }, admin_ids: arr(int(), { description: 'the admins in the team' }) },
  [...required, 'admin_ids'],
);

const entry = anyOf(adminSchema, teamSchema);

export const adminListSchema = obj(
  { type: constant('admin.list'), admins: arr(entry), pages: obj({}, [], { description: 'Always empty: every entry is on one page.' }) },
  ['type', 'admins'],
);

/** GET /teams/{id} and the items of GET /teams (surface A4): no email or away flags, unlike the admin list's team entries. */
export const teamReadSchema = obj(
  { type: constant('team'), id: str(), name: str(), admin_ids: arr(int(), { description: 'the admins in the team' }) },
  ['type', 'id', 'name', 'admin_ids'],
);

export const teamListSchema = obj({ type: constant('team.list'), teams: arr(teamReadSchema) }, ['type', 'teams']);

/** GET /me (surface A2, the 1.0 "current admin"). */
export const meSchema = obj(
  {
    type: constant('admin'),
    id: str(),
    name: str(),
    email: str(),
    email_verified: bool(),
    app: obj(
      { type: constant('app'), id_code: str({ description: 'the app id' }), name: str(), created_at: int(), identity_verification: bool() },
      ['type', 'id_code', 'name', 'created_at', 'identity_verification'],
    ),
  },
  ['type', 'id', 'name', 'email', 'email_verified', 'app'],
);

/** PUT /admins/{id}/away: both flags required (the Java client also echoes the path's id). */
export const awayBodySchema = openObj(
  {
    away_mode_enabled: bool({ description: 'whether the admin is away' }),
    away_mode_reassign: bool({ description: 'whether replies to the admin\'s conversations go back to the unassigned inbox while away' }),
  },
  ['away_mode_enabled', 'away_mode_reassign'],
);

/** One entry of GET /admins/activity_logs (the 1.2 docs' activity object, model `activity_log` of 2.x). */
export const activityLogSchema = obj(
  {
    id: str(),
    performed_by: obj(
      { type: constant('admin'), id: str(), email: str(), ip: nullable(str({ description: 'null: the mock keeps no client addresses' })) },
      ['type', 'id', 'email', 'ip'],
    ),
    metadata: openObj({}, [], { description: 'What the activity changed; for admin_away_mode_change: away_mode, away_status_reason, reassign_conversations, source, auto_changed, update_by, update_by_name' }),
    created_at: int(),
    activity_type: str(),
    activity_description: str(),
  },
  ['id', 'performed_by', 'metadata', 'created_at', 'activity_type', 'activity_description'],
);

export const activityLogListSchema = obj(
  {
    type: constant('activity_log.list'),
    pages: obj(
      { type: constant('pages'), next: nullable(str({ description: 'the next page\'s URL; null on the last page' })), page: int(), per_page: int(), total_pages: int() },
      ['type', 'next', 'page', 'per_page', 'total_pages'],
    ),
    activity_logs: arr(activityLogSchema),
  },
  ['type', 'pages', 'activity_logs'],
);
