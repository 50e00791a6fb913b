// GET /counts?type=conversation[&count=admin] (surface Q1, Q2), read from the running tallies every
// conversation write keeps (conversations/indexes.ts saveConversation, resources/conversations/state.ts): a count costs the
// number of admins listed, never the number of conversations.

import { apiError, badChoice } from '../../core/errors.js';
import type { AppState } from '../../state/app-state.js';
import { adminTally } from '../conversations/state.js';
import { tally } from './tallies.js';

export interface ConversationTotals {
  open: number;
  closed: number;
  unassigned: number;
  assigned: number;
}

export interface AdminConversationCount {
  id: string;
  name: string;
  open: number;
  closed: number;
}

export type ConversationCounts = { kind: 'totals'; totals: ConversationTotals } | { kind: 'admin'; admins: AdminConversationCount[] };

export function conversationCounts(app: AppState, query: { count?: unknown; page?: unknown; per_page?: unknown }): ConversationCounts {
  for (const key of ['page', 'per_page'] as const) {
    if (query[key] !== undefined) throw apiError('bad_request', `${key} pages only type=company&count=tag; this count is not paged.`, key);
  }
  const count = query.count === '' ? undefined : query.count;
  if (count === undefined) {
    return {
      kind: 'totals',
      totals: { open: tally(app, 'conversation:open'), closed: tally(app, 'conversation:closed'), unassigned: tally(app, 'conversation:unassigned'), assigned: tally(app, 'conversation:assigned') },
    };
  }
  if (count !== 'admin') throw badChoice('count', ['admin'], 'with type=conversation ');
  // Every admin, zeros included, in the admin list's order.
  const admins = [...app.data.admins.values()].map((a) => ({ id: a.id, name: a.name, open: tally(app, adminTally(a.id, true)), closed: tally(app, adminTally(a.id, false)) }));
  // Stryker disable next-line StringLiteral: equivalent, the view tells the two kinds apart by 'totals' alone
  return { kind: 'admin', admins };
}
