// The one place notifications are born: after a request's transaction commits, what it changed
// (the transaction's undo log, read once) becomes notification_events for the subscriptions that
// want them. A rejected request commits nothing, so it emits nothing. The items are the mock's own
// views of the records (research-webhooks.md §1.4–1.5 lists where real payloads differed).

import type { AnyCowMap } from '../../engine/cow.js';
import type { AppState, Changes } from '../../state/app-state.js';
import type { StoredEvent } from '../events/log.js';
import type { Company, Conversation, ConversationPart, Customer } from '../../engine/types.js';
import { notificationEvent, queueDelivery, wants } from './rules.js';
import { companyView } from '../companies/view.js';
import { conversationView } from '../conversations/view.js';
import { customerView } from '../customers/view.js';
import { eventView } from '../events/view.js';

interface Emission {
  topic: string;
  item: () => Record<string, unknown>;
  eventName?: string;
}

/** The dates real webhook user, lead and company items carried as ISO-8601 strings (research §1.5). */
const ISO_DATES = ['created_at', 'updated_at', 'signed_up_at', 'remote_created_at', 'last_request_at'] as const;

/** A REST view with its top-level dates as ISO-8601 strings, as real captures show them; null stays null. */
export function withIsoDates(item: Record<string, unknown>): Record<string, unknown> {
  const out = { ...item };
  for (const key of ISO_DATES) {
    const v = out[key];
    if (typeof v === 'number') out[key] = new Date(v * 1000).toISOString();
  }
  return out;
}

const view = (app: AppState, c: Customer) => withIsoDates(customerView(app, c) as unknown as Record<string, unknown>);

function tagItem(app: AppState, c: Customer, tagId: string, now: number): Record<string, unknown> {
  const tag = app.data.tags.get(tagId);
  const ref = { type: 'tag', id: tagId, name: tag?.name ?? null };
  return c.type === 'user'
    ? { type: 'user_tag', user: view(app, c), tag: ref, created_at: now, admin: { type: 'admin' } }
    : { type: 'contact_tag', contact: view(app, c), tag: ref, created_at: now, admin: { type: 'admin' } };
}

/** Fields whose change is a user.updated (tags have their own topics; updated_at follows any write). */
function attributesChanged(prev: Customer, next: Customer): boolean {
  for (const key of Object.keys(next) as (keyof Customer)[]) {
    if (key === 'tags' || key === 'updated_at') continue;
    if (JSON.stringify(prev[key]) !== JSON.stringify(next[key])) return true;
  }
  return false;
}

function customerEmissions(app: AppState, prev: Customer | undefined, next: Customer | undefined, now: number, out: Emission[]): void {
  if (!prev && next) {
    if (next.type === 'user') out.push({ topic: 'user.created', item: () => view(app, next) });
    else if (next.type === 'contact') out.push({ topic: 'contact.created', item: () => view(app, next) });
    return;
  }
  if (prev && !next) {
    // "*.deleted topics send a minimal identification payload" (DH); user_deleted.json (zulip).
    if (prev.type === 'user') out.push({ topic: 'user.deleted', item: () => ({ type: 'user', id: prev.id, user_id: prev.user_id, email: prev.email }) });
    return;
  }
  if (!prev || !next || next.type === 'visitor') return;
  // A visitor converted into a user or lead is, to the API's subscribers, a new one.
  if (prev.type === 'visitor') {
    out.push({ topic: next.type === 'user' ? 'user.created' : 'contact.created', item: () => view(app, next) });
    // The Topics page's visitor.signed_up; real captures carry the new user.
    if (next.type === 'user') out.push({ topic: 'visitor.signed_up', item: () => view(app, next) });
    return;
  }
  if (prev.type === 'contact' && next.type === 'user') {
    out.push({ topic: 'contact.signed_up', item: () => view(app, next) });
    return;
  }
  if (next.type === 'contact' && !prev.email && next.email) out.push({ topic: 'contact.added_email', item: () => view(app, next) });
  else if (next.type === 'user' && prev.type === 'user' && attributesChanged(prev, next)) out.push({ topic: 'user.updated', item: () => view(app, next) });
  if (next.type === 'user' && prev.type === 'user') {
    if (prev.email !== next.email && next.email) out.push({ topic: 'user.email.updated', item: () => view(app, next) });
    if (!prev.unsubscribed_from_emails && next.unsubscribed_from_emails) out.push({ topic: 'user.unsubscribed', item: () => view(app, next) });
  }
  const kind = next.type === 'user' ? 'user' : 'contact';
  const before = new Set(prev.tags);
  const after = new Set(next.tags);
  for (const t of next.tags) if (!before.has(t)) out.push({ topic: `${kind}.tag.created`, item: () => tagItem(app, next, t, now) });
  for (const t of prev.tags) if (!after.has(t)) out.push({ topic: `${kind}.tag.deleted`, item: () => tagItem(app, next, t, now) });
}

function partTopic(part: ConversationPart, wasSnoozed: boolean): string | undefined {
  const byAdmin = part.author.type === 'admin' || part.author.type === 'bot' || part.author.type === 'team';
  switch (part.part_type) {
    case 'comment':
      return byAdmin ? 'conversation.admin.replied' : 'conversation.user.replied';
    case 'note':
      return 'conversation.admin.noted';
    case 'assignment':
      return 'conversation.admin.assigned';
    case 'close':
      return 'conversation.admin.closed';
    case 'snoozed':
      return 'conversation.admin.snoozed';
    case 'open':
      return wasSnoozed ? 'conversation.admin.unsnoozed' : 'conversation.admin.opened';
  }
}

/**
 * A conversation as real webhooks carried it (research §1.5): int dates, the first customer with
 * user_id, name and email, and only the parts this change added.
 */
export function conversationItem(app: AppState, c: Conversation, newParts: number, now: number): Record<string, unknown> {
  const full = conversationView(app, c, 'html', now);
  const first = c.customers[0] === undefined ? undefined : app.data.customers.get(c.customers[0]);
  const user = first ? { ...full.user, user_id: first.user_id, name: first.name, email: first.email, do_not_track: null } : full.user;
  const added = new Set(newParts > 0 ? c.parts.slice(-newParts).map((p) => p.id) : []);
  const parts = full.conversation_parts.conversation_parts.filter((p) => added.has(p.id));
  return { ...full, user, conversation_parts: { type: 'conversation_part.list', conversation_parts: parts, total_count: parts.length } };
}

function conversationEmissions(app: AppState, prev: Conversation | undefined, next: Conversation | undefined, now: number, out: Emission[]): void {
  if (!next) return;
  const item = () => conversationItem(app, next, next.parts.length - (prev?.parts.length ?? 0), now);
  if (!prev) {
    out.push({ topic: next.author.type === 'admin' ? 'conversation.admin.single.created' : 'conversation.user.created', item });
    return;
  }
  const wasSnoozed = prev.state === 'snoozed';
  for (const part of next.parts.slice(prev.parts.length)) {
    const topic = partTopic(part, wasSnoozed);
    if (topic) out.push({ topic, item });
  }
  // Only the control plane tags a conversation part (admin/conversation-tags.ts); real payloads
  // carry the conversation with tags_added (research §1.1, zulip conversation_part_tag_created).
  const before = new Set(prev.tags);
  const added = next.tags.filter((t) => !before.has(t));
  if (added.length > 0) {
    const tags = added.map((id) => ({ type: 'tag', id, name: app.data.tags.get(id)?.name ?? null }));
    out.push({ topic: 'conversation_part.tag.created', item: () => ({ ...item(), tags_added: { type: 'tag.list', tags } }) });
  }
}

/** What the changes of one committed request owe the app's subscriptions. */
function emissions(app: AppState, changes: Changes, now: number): Emission[] {
  const d = app.data;
  const out: Emission[] = [];
  // The map a change is in decides its key's type: text for records, the place (a number) for events.
  for (const [map, key, slot] of changes) {
    if (map === (d.customers as AnyCowMap)) {
      customerEmissions(app, d.customers.prior(key as string, slot), d.customers.get(key as string), now, out);
    } else if (map === (d.conversations as AnyCowMap)) {
      conversationEmissions(app, d.conversations.prior(key as string, slot), d.conversations.get(key as string), now, out);
    } else if (map === (d.companies as AnyCowMap)) {
      const next: Company | undefined = d.companies.get(key as string);
      if (next && !d.companies.prior(key as string, slot)) out.push({ topic: 'company.created', item: () => withIsoDates(companyView(app, next) as unknown as Record<string, unknown>) });
    } else if (map === (d.events as AnyCowMap)) {
      const next: StoredEvent | undefined = d.events.get(key as number);
      const person = next && !d.events.prior(key as number, slot) ? d.customers.get(next.customer_id) : undefined;
      if (next && person) out.push({ topic: 'event.created', eventName: next.event_name, item: () => eventView(person, next) as unknown as Record<string, unknown> });
    }
  }
  return out;
}

/**
 * The transaction observer the pipeline hands a write when the app has subscriptions: queues, per
 * subscription in creation order, one notification per emission, due after `delaySeconds`.
 */
export function publisher(app: AppState, now: number, delaySeconds: number): (changes: Changes) => void {
  return (changes) => {
    const list = emissions(app, changes, now);
    if (list.length === 0) return;
    // Each item is rendered once, however many subscriptions get it.
    const items = new Map<Emission, Record<string, unknown>>();
    const itemOf = (e: Emission) => items.get(e) ?? items.set(e, e.item()).get(e) as Record<string, unknown>;
    for (const sub of app.data.subscriptions.values()) {
      for (const e of list) {
        if (!wants(sub, e.topic, e.eventName)) continue;
        queueDelivery(app, sub.id, notificationEvent(app, e.topic, itemOf(e), now), 1, now + delaySeconds);
      }
    }
  };
}
