// What customers, companies and conversations keep, in bytes, for their budgets (byte-budget.ts).
// Each measure is an upper-bound estimate of the JS heap held (keptBytes' rules) and costs O(1) in
// the record, custom attributes aside, which are measured once per object (records are replaced,
// never mutated, so an attributes object kept by the next version is not measured again).
//
// A record counts what the API added to it: its size past its seeded version, never less than
// nothing, so seeded data frees no room (as seeded notes and events do not). Fields the server
// fills in (location, social profiles, avatar) are bounded per record and counted in the constant.

import type { AppState } from '../state/app-state.js';
import { keptBytes } from './byte-budget.js';
import type { Attachment, Company, Conversation, ConversationPart, CustomAttributes, Customer } from './types.js';

/** The record, its fixed members and its index entries. */
const CUSTOMER_BYTES = 1024;
const COMPANY_BYTES = 512;
const CONVERSATION_BYTES = 512;
const PART_BYTES = 256;

const measured = new WeakMap<CustomAttributes, number>();

function attributesBytes(attributes: CustomAttributes): number {
  let bytes = measured.get(attributes);
  if (bytes === undefined) {
    bytes = keptBytes(attributes);
    measured.set(attributes, bytes);
  }
  return bytes;
}

const textBytes = (s: string | null): number => (s === null ? 0 : 16 + 2 * s.length);
/** A list of ids: a slot each (the ids are the records' own strings). */
const listBytes = (list: readonly unknown[]): number => 8 * list.length;
const attachmentsBytes = (list: readonly Attachment[]): number => {
  let bytes = listBytes(list);
  for (const a of list) bytes += 32 + textBytes(a.name) + textBytes(a.url);
  return bytes;
};

export function customerBytes(c: Customer): number {
  return (
    CUSTOMER_BYTES +
    attributesBytes(c.custom_attributes) +
    textBytes(c.user_id) +
    textBytes(c.email) +
    textBytes(c.phone) +
    textBytes(c.name) +
    textBytes(c.pseudonym) +
    textBytes(c.last_seen_ip) +
    textBytes(c.user_agent_data) +
    textBytes(c.referrer) +
    textBytes(c.utm_campaign) +
    textBytes(c.utm_content) +
    textBytes(c.utm_medium) +
    textBytes(c.utm_source) +
    textBytes(c.utm_term) +
    listBytes(c.companies) +
    listBytes(c.tags) +
    listBytes(c.segments)
  );
}

export function companyBytes(c: Company): number {
  return (
    COMPANY_BYTES +
    attributesBytes(c.custom_attributes) +
    textBytes(c.company_id) +
    textBytes(c.name) +
    textBytes(c.plan) +
    textBytes(c.website) +
    textBytes(c.industry) +
    listBytes(c.tags) +
    listBytes(c.segments)
  );
}

/** A live or archived customer's share of the customers budget: what the API added to it. */
export function customerShare(app: AppState, c: Customer): number {
  const seeded = app.base.data.customers.get(c.id) ?? app.base.data.archived.get(c.id);
  return Math.max(0, customerBytes(c) - (seeded ? customerBytes(seeded) : 0));
}

export function companyShare(app: AppState, c: Company): number {
  const seeded = app.base.data.companies.get(c.id);
  return Math.max(0, companyBytes(c) - (seeded ? companyBytes(seeded) : 0));
}

export const partBytes = (p: ConversationPart): number => PART_BYTES + textBytes(p.body) + attachmentsBytes(p.attachments);

const headBytes = (c: Conversation): number =>
  CONVERSATION_BYTES + textBytes(c.subject) + textBytes(c.body) + attachmentsBytes(c.attachments) + listBytes(c.customers) + listBytes(c.tags);

/**
 * What saving `next` over `prev` adds to the conversations budget, linear in what changed: parts
 * are only ever appended (a merge renames their authors, counted in the constant), so only the new
 * ones are measured, never the conversation's history.
 */
export function conversationDelta(prev: Conversation | undefined, next: Conversation): number {
  let delta = headBytes(next) - (prev ? headBytes(prev) : 0);
  for (let i = prev?.parts.length ?? 0; i < next.parts.length; i++) delta += partBytes(next.parts[i] as ConversationPart);
  return delta;
}

/**
 * The three record tallies recounted from the records: a walk of the app, for state loaded from
 * --data-dir over an app's fixtures (its records are measured against the fixtures' versions).
 */
export function recountRecords(app: AppState): Record<'customers' | 'companies' | 'conversations', number> {
  let customers = 0;
  for (const c of app.data.customers.values()) customers += customerShare(app, c);
  for (const c of app.data.archived.values()) customers += customerShare(app, c);
  let companies = 0;
  for (const c of app.data.companies.values()) companies += companyShare(app, c);
  let conversations = 0;
  for (const c of app.data.conversations.values()) conversations += conversationDelta(app.base.data.conversations.get(c.id), c);
  return { customers, companies, conversations };
}
