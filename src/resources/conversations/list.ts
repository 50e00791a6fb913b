// GET /conversations (surface K1): every conversation, one admin's (type=admin), or one customer's
// (type=user), with the documented swap: unfiltered, `order` is the direction and `sort` the field;
// with type=admin or type=user, `order` is the field and `sort` the direction. Every form reads a
// sorted index of its scope (order.ts): a page costs the page, never a walk of the app.

import { booleanText } from '../../core/query-string.js';
import { apiError, badChoice, invalid, missing } from '../../core/errors.js';
import { paginate, type PageLink, type Pages } from '../../core/pagination.js';
import { CONVERSATIONS_PER_PAGE } from './shapes.js';
import type { AppState } from '../../state/app-state.js';
import { ALL_SCOPE, assigneeScope, customerScope, type ConversationFilter, type ConversationSortKey } from './order.js';
import { findCustomer, firstIdentifier, identifiersOf } from './rules.js';
import { allHolders, holderKey, holderMaps } from '../cross-resource/memberships.js';
import { joined } from '../../engine/join-log.js';
import type { CowMap } from '../../engine/cow.js';
import type { Conversation } from '../../engine/types.js';
import { conversationMaps } from './indexes.js';

export interface ConversationListQuery {
  type?: string;
  admin_id?: string;
  id?: string;
  intercom_user_id?: string;
  user_id?: string;
  email?: string;
  open?: string;
  unread?: string;
  order?: string;
  sort?: string;
  page?: number;
  per_page?: number;
}

const FIELDS: readonly ConversationSortKey[] = ['created_at', 'updated_at', 'waiting_since'];
const DIRECTIONS = ['asc', 'desc'] as const;
type Direction = (typeof DIRECTIONS)[number];

const ADMIN_ONLY = ['admin_id', 'id', 'open'] as const;
const USER_ONLY = ['intercom_user_id', 'user_id', 'email', 'unread'] as const;

/** An empty parameter (`open=`) is as good as an absent one. */
const given = (v: string | undefined): string | undefined => (v === '' ? undefined : v);

interface Plan {
  scope: string;
  members: () => Iterable<Conversation>;
  /** The whole app's conversations, when the scope is the app. */
  all?: CowMap<Conversation>;
  filter: ConversationFilter;
  field: ConversationSortKey;
  direction: Direction;
}

export function listConversations(app: AppState, q: ConversationListQuery, link: PageLink): { items: Conversation[]; pages: Pages } {
  const plan = planOf(app, q);
  const index = app.conversationLists.get(plan.scope, plan.filter, plan.field, plan.members, plan.all);
  const { conversations } = app.data;
  const listing = {
    total: index.length,
    // The index holds newest first: ascending reads it backwards.
    slice: (start: number, end: number) => index.slice(start, end, plan.direction === 'asc').map((id) => conversations.get(id) as Conversation),
  };
  return paginate(listing, { page: q.page ?? 1, perPage: q.per_page ?? CONVERSATIONS_PER_PAGE }, link);
}

function planOf(app: AppState, q: ConversationListQuery): Plan {
  const type = given(q.type);
  if (type === undefined) {
    for (const name of [...ADMIN_ONLY, ...USER_ONLY]) {
      if (given(q[name]) !== undefined) throw invalid(name, `${name} filters the list only with type=${(ADMIN_ONLY as readonly string[]).includes(name) ? 'admin' : 'user'}.`);
    }
    return { scope: ALL_SCOPE, members: () => app.data.conversations.values(), all: app.data.conversations, filter: 'any', field: fieldOf(q.sort, 'sort', false), direction: directionOf(q.order, 'order', false) };
  }
  if (type === 'admin') return adminPlan(app, q);
  if (type === 'user') return userPlan(app, q);
  throw badChoice('type', ['admin', 'user']);
}

function adminPlan(app: AppState, q: ConversationListQuery): Plan {
  for (const name of USER_ONLY) if (given(q[name]) !== undefined) throw invalid(name, `${name} filters the list only with type=user, not type=admin.`);
  const adminId = given(q.admin_id);
  const synonym = given(q.id);
  if (adminId !== undefined && synonym !== undefined && adminId !== synonym) {
    throw invalid('id', `id is admin_id's synonym, and the two differ (${JSON.stringify(adminId)}, ${JSON.stringify(synonym)}): send one.`);
  }
  const wanted = adminId ?? synonym;
  if (wanted === undefined) throw missing('admin_id', 'type=admin needs admin_id (or id): an admin\'s or team\'s id, or nobody for the unassigned conversations.');
  const field = adminId === undefined ? 'id' : 'admin_id';
  let key: string;
  if (wanted === 'nobody') key = 'nobody';
  else if (app.data.admins.has(wanted)) key = `admin:${wanted}`;
  else if (app.data.teams.has(wanted)) key = `team:${wanted}`;
  else throw apiError('admin_not_found', 'Admin Not Found', field);
  const { conversations } = app.data;
  return {
    scope: assigneeScope(key),
    members: () => allHolders(holderMaps(app), holderKey('conversation', 'a', key)).map((id) => conversations.get(id) as Conversation),
    filter: booleanOf(q.open, 'open') === undefined ? 'any' : booleanOf(q.open, 'open') ? 'open' : 'closed',
    field: fieldOf(q.order, 'order', true),
    direction: directionOf(q.sort, 'sort', true),
  };
}

function userPlan(app: AppState, q: ConversationListQuery): Plan {
  for (const name of ADMIN_ONLY) if (given(q[name]) !== undefined) throw invalid(name, `${name} filters the list only with type=admin, not type=user.`);
  // identifiersOf skips the members left undefined (given() turns an empty one into undefined).
  const ids = identifiersOf({ intercom_user_id: given(q.intercom_user_id), user_id: given(q.user_id), email: given(q.email) });
  if (ids.length === 0) throw missing('intercom_user_id', 'type=user needs one of intercom_user_id, user_id or email.');
  const { field, value } = firstIdentifier(app, ids);
  const customer = findCustomer(app, field, value);
  const { conversations } = app.data;
  return {
    scope: customerScope(customer.id),
    members: () =>
      joined(conversationMaps(app), customer.id, (id) => {
        const c = conversations.get(id);
        // Stryker disable next-line OptionalChaining: equivalent, conversations are never deleted, so every id a customer's join log holds names a stored one
        return c?.customers.includes(customer.id) ? c : undefined;
      }),
    filter: booleanOf(q.unread, 'unread') === true ? 'unread' : 'any',
    field: fieldOf(q.order, 'order', true),
    direction: directionOf(q.sort, 'sort', true),
  };
}

const SWAP = 'With type=admin or type=user, order names the field (created_at, updated_at or waiting_since) and sort the direction (asc or desc); without a type it is the reverse.';

function fieldOf(raw: string | undefined, name: string, filtered: boolean): ConversationSortKey {
  const v = given(raw);
  if (v === undefined) return 'updated_at';
  if ((FIELDS as readonly string[]).includes(v)) return v as ConversationSortKey;
  const hint = (DIRECTIONS as readonly string[]).includes(v) ? ` ${SWAP}` : '';
  throw invalid(name, `${name}${filtered ? '' : ' (without a type)'} is the field to sort by: created_at, updated_at or waiting_since, not ${JSON.stringify(v)}.${hint}`);
}

function directionOf(raw: string | undefined, name: string, filtered: boolean): Direction {
  const v = given(raw);
  // Stryker disable next-line StringLiteral: equivalent, a direction is only ever compared with 'asc'
  if (v === undefined) return 'desc';
  if ((DIRECTIONS as readonly string[]).includes(v)) return v as Direction;
  const hint = (FIELDS as readonly string[]).includes(v) ? ` ${SWAP}` : '';
  throw invalid(name, `${name}${filtered ? '' : ' (without a type)'} is the direction: asc or desc, not ${JSON.stringify(v)}.${hint}`);
}

function booleanOf(raw: string | undefined, name: string): boolean | undefined {
  const v = given(raw);
  if (v === undefined) return undefined;
  const b = booleanText(v);
  if (b !== undefined) return b;
  throw invalid(name, `${name} is true or false, not ${JSON.stringify(v)}.`);
}
