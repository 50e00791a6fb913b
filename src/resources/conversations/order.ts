// Conversations sorted for GET /conversations, per scope: the whole app, one assignee (an admin, a
// team or nobody) or one customer, each under a filter (any, open, closed, unread) and a sort key
// (created_at, updated_at, waiting_since). Derived like the customers' sorted indexes
// (sorted-index.ts): an index is built the first time a list asks for it from its scope's members
// only (the assignee's holders, the customer's conversations; the whole app only for the unfiltered
// list), then kept by every conversation write (saveConversation in indexes.ts: a binary search and a
// splice per index of the scopes the conversation is or was in), journaled so a rolled-back write
// reverts its changes, and forgotten when the state is replaced.

import type { CowMap } from '../../engine/cow.js';
import { SortedIndex, SortedIndexes, type SeedChanges } from '../../engine/sorted-index.js';
import type { Conversation } from '../../engine/types.js';
import { assigneeKey, lifecycleOf } from './state.js';

export type ConversationFilter = 'any' | 'open' | 'closed' | 'unread';
export type ConversationSortKey = 'created_at' | 'updated_at' | 'waiting_since';

export const ALL_SCOPE = 'all';
export const assigneeScope = (key: string): string => `a:${key}`;
export const customerScope = (customerId: string): string => `c:${customerId}`;

const FILTERS: Record<ConversationFilter, (c: Conversation) => boolean> = {
  any: () => true,
  open: (c) => c.open,
  closed: (c) => !c.open,
  unread: (c) => !c.read,
};

/**
 * Newest first is the index's own order (the key is negated), ties by id ascending, as the plain
 * list always ordered them; oldest first reads it backwards. Waiting_since lists only conversations
 * with a customer waiting (the docs: the others "will not show up").
 */
function makeIndex(filter: ConversationFilter, field: ConversationSortKey): SortedIndex<Conversation> {
  const keep = FILTERS[filter];
  if (field === 'waiting_since') {
    return new SortedIndex<Conversation>((c) => -(lifecycleOf(c).waiting_since as number), (c) => keep(c) && lifecycleOf(c).waiting_since !== null);
  }
  return new SortedIndex<Conversation>((c) => -c[field], keep);
}

/** Conversations read to build indexes: read by tests, which count work instead of timing it. */
export const buildWork = { rows: 0 };

function* counted(records: Iterable<Conversation>): Iterable<Conversation> {
  for (const r of records) {
    buildWork.rows++;
    yield r;
  }
}

/** The indexes live in a `SortedIndexes` (group = scope, key = `<filter>:<field>`), which journals them. */
export class ConversationIndexes {
  private readonly lists = new SortedIndexes([ALL_SCOPE]);

  /**
   * The index of `scope` under `filter` and `field`, built from `members` the first time; a scope
   * of one assignee or customer is sorted from its own members, never the app's. The whole app's
   * (`all`, its conversations) is a copy of the seeded base's with the changes since laid over it
   * (SortedIndexes.fromBase).
   */
  get(scope: string, filter: ConversationFilter, field: ConversationSortKey, members: () => Iterable<Conversation>, all?: CowMap<Conversation>): SortedIndex<Conversation> {
    const key = `${filter}:${field}`;
    const make = () => makeIndex(filter, field);
    // Stryker disable next-line ConditionalExpression: equivalent, forced false a scope fromBase does not follow is built from its members all the same
    if (all === undefined) return this.lists.get(scope, key, () => make().build(counted(members())));
    return this.lists.fromBase(scope, key, {
      seeded: () => make().build(counted(all.seeded.values())),
      make,
      // Stryker disable next-line ArrowFunction: equivalent, an app's state always stands on a base (its seed, a reset, a snapshot of one), so its list is never sorted from the records
      records: () => counted(members()),
      current: (id) => all.get(id),
    });
  }

  /** After a write: the conversation leaves the scopes it was in and is listed anew in those it is in. */
  saved(prev: Conversation | undefined, next: Conversation): void {
    const scopes = new Map<string, boolean>();
    if (prev !== undefined) {
      scopes.set(assigneeScope(assigneeKey(prev.assignee)), false);
      for (const id of prev.customers) scopes.set(customerScope(id), false);
    }
    scopes.set(ALL_SCOPE, true);
    scopes.set(assigneeScope(assigneeKey(next.assignee)), true);
    for (const id of next.customers) scopes.set(customerScope(id), true);
    for (const [scope, isIn] of scopes) this.lists.update(scope, next.id, isIn ? next : undefined);
  }

  begin(): void {
    this.lists.begin();
  }

  commit(): void {
    this.lists.commit();
  }

  /** Reverts the changes since `begin`; an index built meanwhile saw undone writes, so it goes. */
  rollback(): void {
    this.lists.rollback();
  }

  /** Forgets every index, the state now being `base` as seeded. */
  seeded(base: object): void {
    this.lists.seeded(base);
  }

  saveChanges(): SeedChanges | undefined {
    return this.lists.saveChanges();
  }

  restoreChanges(saved: SeedChanges | undefined): void {
    this.lists.restoreChanges(saved);
  }
}
