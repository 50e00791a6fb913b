// Wire shapes of GET /counts?type=conversation[&count=admin] (surface Q1, Q2).

import type { ConversationCounts } from './conversation-counts.js';

export const conversationCountsView = (c: ConversationCounts) =>
  c.kind === 'totals' ? { type: 'count' as const, conversation: { ...c.totals } } : { type: 'count' as const, conversation: { admin: c.admins.map((a) => ({ ...a })) } };
