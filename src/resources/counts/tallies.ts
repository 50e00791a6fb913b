// Running counts behind GET /counts and list totals, kept by the record writes (customers' and
// companies' indexes.ts) so no count walks the app. Every key is made here (`tallyKey`); a reader
// asks `tally(app, tallyKey.…)`.

import type { CowMap } from '../../engine/cow.js';
import type { Company, Customer, CustomerType } from '../../engine/types.js';

export const tallyKey = {
  /** The customers of a type. */
  type: (type: CustomerType): string => `type:${type}`,
  /** A company's users and leads (its people: `GET /companies/{id}/users`, `user_count`). */
  people: (companyId: string): string => `people:${companyId}`,
  /** The users and leads (`user`) or the companies holding a tag. */
  tag: (kind: 'user' | 'company', id: string): string => `${kind}-tag:${id}`,
  /** The users and leads (`user`) or the companies in a segment. */
  segment: (kind: 'user' | 'company', id: string): string => `${kind}-segment:${id}`,
  /** How many customers hold a custom attribute name, so the registry can let go of names none does. */
  attribute: (name: string): string => `attr:${name}`,
};

/**
 * What a record counts towards: its type; a user's or lead's tags and segments; a user's or lead's companies
 * (a company's "users" are its users and leads); a company's tags and segments.
 */
export function customerTallyKeys(c: Customer): string[] {
  const keys = [tallyKey.type(c.type)];
  for (const name of Object.keys(c.custom_attributes)) keys.push(tallyKey.attribute(name));
  // GET /counts?type=user counts users and leads ("Count Object includes count for users and leads").
  if (c.type !== 'visitor') {
    for (const t of c.tags) keys.push(tallyKey.tag('user', t));
    for (const s of c.segments) keys.push(tallyKey.segment('user', s));
    for (const co of c.companies) keys.push(tallyKey.people(co));
  }
  return keys;
}

export function companyTallyKeys(c: Company): string[] {
  return [...c.tags.map((t) => tallyKey.tag('company', t)), ...c.segments.map((s) => tallyKey.segment('company', s))];
}

/** Whether two versions of a record count towards the same tallies (lists are replaced, never mutated). */
export function sameTallies(a: Customer, b: Customer): boolean {
  return a.type === b.type && a.tags === b.tags && a.segments === b.segments && a.companies === b.companies && a.custom_attributes === b.custom_attributes;
}

/** Applies only the net change, so a write that keeps a record's tags touches no tally. */
export function adjustTallies(tallies: CowMap<number>, before: readonly string[], after: readonly string[]): void {
  const delta = new Map<string, number>();
  for (const k of before) delta.set(k, (delta.get(k) ?? 0) - 1);
  for (const k of after) delta.set(k, (delta.get(k) ?? 0) + 1);
  for (const [k, d] of delta) {
    if (d === 0) continue;
    const n = (tallies.get(k) ?? 0) + d;
    if (n === 0) tallies.delete(k);
    else tallies.set(k, n);
  }
}

export const tally = (app: { readonly data: { readonly tallies: CowMap<number> } }, key: string): number => app.data.tallies.get(key) ?? 0;

/** A count as the app's seeded base held it, whatever the app changed since. */
export const seededTally = (app: { readonly data: { readonly tallies: CowMap<number> } }, key: string): number => app.data.tallies.seeded.get(key) ?? 0;
