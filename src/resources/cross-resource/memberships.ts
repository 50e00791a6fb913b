// Who holds each tag and segment (and each company name), kept by the same writes that store the
// records, so a list filtered by tag or segment, a tag deletion and a lookup by company name read
// only the holders, never the app. One pair of join-log maps (join-log.ts) serves every kind:
// keys are `<kind>:<label>:<id>`, a customer's kind being its type, so GET /users?tag_id= reads the
// users holding the tag and no one else, in the order they got it.

import { join, joinedCount, joinedSlice, leave, type JoinMaps } from '../../engine/join-log.js';
import type { Listing } from '../../core/pagination.js';
import { assigneeKey } from '../conversations/state.js';
import { CowMap } from '../../engine/cow.js';
import type { JoinLog } from '../../engine/join-log.js';
import type { Company, Conversation, Customer, CustomerType } from '../../engine/types.js';

export type HolderKind = CustomerType | 'company' | 'conversation' | 'people';
/**
 * t: a tag id, s: a segment id, n: a company name as stored, a: a conversation's assignee
 * (resources/conversations/state.ts), c: a company id (its users and leads, kind `people`).
 */
export type Label = 't' | 's' | 'n' | 'a' | 'c';

export const holderKey = (kind: HolderKind, label: Label, id: string): string => `${kind}:${label}:${id}`;

/** Every key a record holds. */
export function customerKeys(c: Customer): string[] {
  const keys = [...c.tags.map((t) => holderKey(c.type, 't', t)), ...c.segments.map((s) => holderKey(c.type, 's', s))];
  // A company's users and leads in the order they became its people, so a page of them skips no visitors.
  if (c.type !== 'visitor') for (const co of c.companies) keys.push(holderKey('people', 'c', co));
  return keys;
}

export function companyKeys(c: Company): string[] {
  return [...c.tags.map((t) => holderKey('company', 't', t)), ...c.segments.map((s) => holderKey('company', 's', s)), holderKey('company', 'n', c.name)];
}

export function conversationKeys(c: Conversation): string[] {
  return [...c.tags.map((t) => holderKey('conversation', 't', t)), holderKey('conversation', 'a', assigneeKey(c.assignee))];
}

/**
 * Moves `id` from the keys it held to those it holds now: O(keys changed), whatever the keys hold.
 * Sets, not a scan of one list per item of the other: a record may hold thousands. Every key left or
 * joined goes to `changed`, if given, lefts first.
 */
export function syncHolder(maps: JoinMaps, id: string, before: readonly string[], after: readonly string[], changed?: string[]): void {
  const was = new Set(before);
  const is = new Set(after);
  for (const key of was) {
    if (is.has(key)) continue;
    leave(maps, key, id);
    changed?.push(key);
  }
  for (const key of is) {
    if (was.has(key)) continue;
    join(maps, key, id);
    changed?.push(key);
  }
}

/** Whether a write changed what a customer holds (lists are replaced, never mutated). */
export const customerKeysChanged = (prev: Customer | undefined, next: Customer): boolean =>
  prev === undefined || prev.type !== next.type || prev.tags !== next.tags || prev.segments !== next.segments || prev.companies !== next.companies;

export const companyKeysChanged = (prev: Company | undefined, next: Company): boolean =>
  prev === undefined || prev.tags !== next.tags || prev.segments !== next.segments || prev.name !== next.name;

/** The holders of `key`, in the order they got it: the count is the log's, a page reads up to its end. */
export function holders<T>(maps: JoinMaps, key: string, read: (id: string) => T): Listing<T> {
  return {
    total: joinedCount(maps, key),
    // Stryker disable next-line ArrowFunction,BooleanLiteral: equivalent, with every id kept the slice reads the log's live ids however it is asked
    slice: (start, end) => joinedSlice(maps, key, start, end, () => true, true).map(read),
  };
}

/** The ids of every holder of `key` (for a deletion or a sort that must see them all). */
export function allHolders(maps: JoinMaps, key: string): string[] {
  // Stryker disable next-line ArrowFunction,BooleanLiteral: equivalent, as above
  return joinedSlice(maps, key, 0, Number.POSITIVE_INFINITY, () => true, true);
}

/** The holders' join-log maps of an app (collections.ts). */
export const holderMaps = (app: { readonly data: { readonly holders: CowMap<JoinLog>; readonly holderSeqs: CowMap<number> } }): JoinMaps => ({
  logs: app.data.holders,
  seqs: app.data.holderSeqs,
});

/** The holders' join-log maps of an app's seeded base, as they were seeded (read only). */
export const seededHolderMaps = (app: { readonly data: { readonly holders: CowMap<JoinLog>; readonly holderSeqs: CowMap<number> } }): JoinMaps => ({
  logs: CowMap.from(app.data.holders.seeded),
  seqs: CowMap.from(app.data.holderSeqs.seeded),
});

/**
 * The tag and segment groups of the sorted indexes a record was in or is in (`<kind>:t:<id>`), each
 * once; a customer that changed type names its groups under both types.
 */
export function labelGroups<R extends { tags: readonly string[]; segments: readonly string[] }>(prev: R | undefined, next: R | undefined, kind: (r: R) => string): Iterable<string> {
  const groups = new Set<string>();
  // Stryker disable next-line ConditionalExpression: equivalent when forced false, the groups are a set
  for (const r of prev === next ? [next] : [prev, next]) {
    if (r === undefined) continue;
    const k = kind(r);
    for (const t of r.tags) groups.add(`${k}:t:${t}`);
    for (const sg of r.segments) groups.add(`${k}:s:${sg}`);
  }
  return groups;
}
