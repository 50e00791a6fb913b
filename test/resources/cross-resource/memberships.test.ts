// The membership writes' own contract, below the HTTP tests of tag, segment and company lists:
// syncHolder moves a holder between key sets touching only the keys that differ, and the
// "keys changed" checks tell a write that moves no membership from one that does.

import { describe, expect, it } from 'vitest';
import { CowMap } from '../../../src/engine/cow.js';
import { joinedCount, type JoinMaps } from '../../../src/engine/join-log.js';
import type { Company, Customer } from '../../../src/engine/types.js';
import { allHolders, companyKeysChanged, customerKeysChanged, labelGroups, syncHolder } from '../../../src/resources/cross-resource/memberships.js';

const maps = (): JoinMaps => ({ logs: CowMap.empty(), seqs: CowMap.empty() });

describe('syncHolder', () => {
  it('leaves the keys dropped and joins the keys added, reporting them lefts first; a key kept is not touched', () => {
    const m = maps();
    syncHolder(m, 'p1', [], ['k1', 'k2']);
    syncHolder(m, 'p2', [], ['k2']);
    const changed: string[] = [];
    syncHolder(m, 'p1', ['k1', 'k2'], ['k3', 'k2'], changed);
    expect(changed).toEqual(['k1', 'k3']);
    expect(allHolders(m, 'k1')).toEqual([]);
    // Kept, not left and joined again: p1 is still before p2 in k2's join order.
    expect(allHolders(m, 'k2')).toEqual(['p1', 'p2']);
    expect(allHolders(m, 'k3')).toEqual(['p1']);
  });

  it('names each key once however often the lists repeat it', () => {
    const m = maps();
    const changed: string[] = [];
    syncHolder(m, 'p1', [], ['k1', 'k1'], changed);
    expect(changed).toEqual(['k1']);
    expect(joinedCount(m, 'k1')).toBe(1);
    syncHolder(m, 'p1', ['k1', 'k1'], [], changed);
    expect(changed).toEqual(['k1', 'k1']);
    expect(joinedCount(m, 'k1')).toBe(0);
  });
});

describe('keys changed', () => {
  const person = { type: 'user', tags: ['t'], segments: ['s'], companies: ['c'] } as unknown as Customer;
  const company = { tags: ['t'], segments: ['s'], name: 'Acme' } as unknown as Company;

  it('a customer: new, or its type, tags, segments or companies replaced; not a write of other members', () => {
    expect(customerKeysChanged(undefined, person)).toBe(true);
    expect(customerKeysChanged(person, { ...person, name: 'x' } as Customer)).toBe(false);
    expect(customerKeysChanged(person, { ...person, type: 'contact' })).toBe(true);
    expect(customerKeysChanged(person, { ...person, tags: [] })).toBe(true);
    expect(customerKeysChanged(person, { ...person, segments: [] })).toBe(true);
    expect(customerKeysChanged(person, { ...person, companies: [] })).toBe(true);
  });

  it('a company: new, or its tags, segments or name replaced; not a write of other members', () => {
    expect(companyKeysChanged(undefined, company)).toBe(true);
    expect(companyKeysChanged(company, { ...company, plan: 'x' } as unknown as Company)).toBe(false);
    expect(companyKeysChanged(company, { ...company, tags: [] })).toBe(true);
    expect(companyKeysChanged(company, { ...company, segments: [] })).toBe(true);
    expect(companyKeysChanged(company, { ...company, name: 'Other' })).toBe(true);
  });
});

describe('labelGroups', () => {
  it('names the groups a record was and is in, each once, under both types when the type changed', () => {
    type R = { type: string; tags: string[]; segments: string[] };
    const kind = (r: R) => `customer:${r.type}`;
    const lead: R = { type: 'contact', tags: ['t1'], segments: ['s1'] };
    const user: R = { type: 'user', tags: ['t1', 't2'], segments: [] };
    expect([...labelGroups(lead, user, kind)]).toEqual(['customer:contact:t:t1', 'customer:contact:s:s1', 'customer:user:t:t1', 'customer:user:t:t2']);
    expect([...labelGroups(lead, lead, kind)]).toEqual(['customer:contact:t:t1', 'customer:contact:s:s1']);
    expect([...labelGroups(undefined, lead, kind)]).toEqual(['customer:contact:t:t1', 'customer:contact:s:s1']);
    expect([...labelGroups(user, undefined, kind)]).toEqual(['customer:user:t:t1', 'customer:user:t:t2']);
  });
});
