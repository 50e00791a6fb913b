// GET /admins: admin and team entries of spec 2.6 in one list.

import { arr, bool, constant, int, obj, str, type Schema } from './json-schema.js';

const common = { id: str(), name: str(), away_mode_enabled: bool(), away_mode_reassign: bool() };
const required = ['type', 'id', 'name', 'email', 'away_mode_enabled', 'away_mode_reassign'];

export const adminSchema: Schema = obj(
  { type: constant('admin'), ...common, email: str(), team_ids: arr(int(), { description: 'the teams the admin is in' }) },
  [...required, 'team_ids'],
);

export const teamSchema: Schema = obj(
  { type: constant('team'), ...common, email: { type: 'null' }, admin_ids: arr(int(), { description: 'the admins in the team' }) },
  [...required, 'admin_ids'],
);

const entry: Schema = { anyOf: [adminSchema, teamSchema] };

export const adminListSchema: Schema = obj(
  { type: constant('admin.list'), admins: arr(entry), pages: obj({}, [], { description: 'Always empty: every entry is on one page.' }) },
  ['type', 'admins'],
);
