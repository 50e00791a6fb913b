// A conversation's lifecycle (surface K3–K9): open/closed/snoozed, the snooze's end, how long the
// customer has been waiting, who it is assigned to, and what it counts towards in GET /counts.
// Seeded records may leave the lifecycle members out: their defaults are read here, in one place.

import type { Author, Conversation, ConversationState } from '../../engine/types.js';

export interface Lifecycle {
  state: ConversationState;
  snoozed_until: number | null;
  waiting_since: number | null;
}

/** As stored, defaults filled: the state follows `open`, no snooze, nobody waiting. */
export function lifecycleOf(c: Conversation): Lifecycle {
  return {
    state: c.state ?? (c.open ? 'open' : 'closed'),
    snoozed_until: c.snoozed_until ?? null,
    waiting_since: c.waiting_since ?? null,
  };
}

/**
 * As a read at `now` sees it: a snooze whose time has come is over (state open, no snoozed_until),
 * computed from the clock rather than by a timer, so a frozen clock keeps it snoozed.
 */
export function lifecycleAt(c: Conversation, now: number): Lifecycle {
  const l = lifecycleOf(c);
  if (l.state === 'snoozed' && l.snoozed_until !== null && l.snoozed_until <= now) return { ...l, state: 'open', snoozed_until: null };
  return l;
}

/** The assignee as one key: `admin:<id>`, `team:<id>`, or `nobody` when unassigned. */
export const assigneeKey = (a: Author | null | undefined): string => (a ? `${a.type}:${a.id}` : 'nobody');

/** The tally an admin's open or closed conversations are counted under (GET /counts?type=conversation&count=admin). */
export const adminTally = (adminId: string, open: boolean): string => `conversation-admin:${open ? 'open' : 'closed'}:${adminId}`;

/**
 * What a conversation counts towards: open (snoozed included, as the 1.3 counts page says) or
 * closed; an open one assigned or unassigned; its assigned admin's open or closed count.
 */
export function conversationTallyKeys(c: Conversation): string[] {
  const keys = [c.open ? 'conversation:open' : 'conversation:closed'];
  if (c.open) keys.push(c.assignee ? 'conversation:assigned' : 'conversation:unassigned');
  if (c.assignee?.type === 'admin') keys.push(adminTally(c.assignee.id, c.open));
  return keys;
}
