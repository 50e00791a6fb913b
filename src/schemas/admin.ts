// GET /admins: admin and team entries of spec 2.6 in one list.

import { arr, bool, constant, int, nullable, obj, oneOfStrings, str, type Schema } from './json-schema.js';

const entry: Schema = obj(
  {
    type: oneOfStrings(['admin', 'team']),
    id: str(),
    name: str(),
    email: nullable(str()),
    away_mode_enabled: bool(),
    away_mode_reassign: bool(),
    team_ids: arr(int(), { description: 'admins only' }),
    admin_ids: arr(int(), { description: 'teams only' }),
  },
  ['type', 'id', 'name', 'email', 'away_mode_enabled', 'away_mode_reassign'],
);

export const adminListSchema: Schema = obj(
  { type: constant('admin.list'), admins: arr(entry), pages: obj({}, [], { description: 'Always empty: every entry is on one page.' }) },
  ['type', 'admins'],
);
