// What a conversation write keeps true beside the record: the parts limit and bytes, holders (tags,
// assignee), tallies, each customer's conversations and the sorted conversation lists.

import type { AppState } from '../../state/app-state.js';
import type { JoinMaps } from '../../engine/join-log.js';
import { charge } from '../../engine/byte-budget.js';
import { conversationDelta } from '../../engine/record-bytes.js';
import { checkRoom } from '../../state/limits.js';
import { adjustTallies } from '../counts/tallies.js';
import { conversationKeys, holderMaps, syncHolder } from '../cross-resource/memberships.js';
import { assigneeKey, conversationTallyKeys } from './state.js';
import type { Conversation } from '../../engine/types.js';

export function saveConversation(app: AppState, next: Conversation): void {
  const prev = app.data.conversations.get(next.id);
  const added = next.parts.length - (prev?.parts.length ?? 0);
  // Only a write that adds parts: a seed may hold more than the limit, and its conversations stay writable.
  if (added > 0) checkRoom(app, 'parts', app.partsTotal + added, 'conversation parts');
  charge(app, 'conversations', conversationDelta(prev, next));
  app.partsTotal += added;
  // Stryker disable next-line ConditionalExpression: equivalent when forced true, syncHolder moves only the keys that differ
  if (prev?.tags !== next.tags || assigneeKey(prev.assignee) !== assigneeKey(next.assignee)) {
    // Stryker disable next-line ArrayDeclaration: equivalent, leaving a key no record holds does nothing
    syncHolder(holderMaps(app), next.id, prev ? conversationKeys(prev) : [], conversationKeys(next));
  }
  adjustTallies(app.data.tallies, prev ? conversationTallyKeys(prev) : [], conversationTallyKeys(next));
  // Each customer's log of conversations: the conversation leaves those it no longer names.
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: equivalent, as the holders' above
  if (prev?.customers !== next.customers) syncHolder(conversationMaps(app), next.id, prev?.customers ?? [], next.customers);
  app.data.conversations.set(next.id, next);
  app.conversationLists.saved(prev, next);
}

/** Each customer's conversations, in the order it joined them. */
export const conversationMaps = (app: AppState): JoinMaps => ({ logs: app.data.conversationsOf, seqs: app.data.conversationSeqs });
