// GET /counts?type=conversation[&count=admin] (surface Q1, Q2).

import { arr, constant, int, obj, str } from '../../schemas/json-schema.js';

const n = int({ minimum: 0 });

export const conversationCountSchema = obj(
  {
    type: constant('count'),
    conversation: obj({ open: n, closed: n, unassigned: n, assigned: n }, ['open', 'closed', 'unassigned', 'assigned'], {
      description: 'open includes snoozed; assigned + unassigned = open',
    }),
  },
  ['type', 'conversation'],
);

export const conversationAdminCountSchema = obj(
  {
    type: constant('count'),
    conversation: obj(
      { admin: arr(obj({ id: str(), name: str(), open: n, closed: n }, ['id', 'name', 'open', 'closed']), { description: 'every admin, zeros included' }) },
      ['admin'],
    ),
  },
  ['type', 'conversation'],
);
