// The tally writes' own contract, below the HTTP tests that count from scratch (test/engine/tallies.test.ts):
// a write applies only its net change, so a key it keeps is not written at all (an app's overlay
// holds only the tallies it changed), and which record versions count alike.

import { describe, expect, it } from 'vitest';
import { CowMap } from '../../../src/engine/cow.js';
import type { Customer } from '../../../src/engine/types.js';
import { adjustTallies, customerTallyKeys, sameTallies, tallyKey } from '../../../src/resources/counts/tallies.js';

const customer = (over: Partial<Customer> = {}): Customer =>
  ({ type: 'user', tags: ['t1'], segments: ['s1'], companies: ['c1'], custom_attributes: { plan: 'pro' }, ...over }) as Customer;

describe('adjustTallies', () => {
  it('writes only the keys whose count changes: one left, one joined, the kept one untouched', () => {
    const tallies = CowMap.from(new Map([['a', 1], ['b', 1]]));
    adjustTallies(tallies, ['a', 'b'], ['b', 'c']);
    expect([...tallies.entries()]).toEqual([['b', 1], ['c', 1]]);
    expect([...tallies.changes()].map(([k, v]) => [k, v])).toEqual([['a', undefined], ['c', 1]]);
  });

  it('writes nothing when the record counts towards the same keys, however often each is named', () => {
    const tallies = CowMap.from(new Map([['a', 2]]));
    adjustTallies(tallies, ['a', 'b', 'a'], ['b', 'a', 'a']);
    expect([...tallies.changes()]).toEqual([]);
    expect(tallies.get('a')).toBe(2);
  });

  it('counts a key named twice as two, and drops a key that falls to zero', () => {
    const tallies = CowMap.from(new Map([['a', 2]]));
    adjustTallies(tallies, ['a', 'a'], ['z', 'z']);
    expect(tallies.has('a')).toBe(false);
    expect(tallies.get('z')).toBe(2);
  });
});

describe('sameTallies', () => {
  it('holds for two versions sharing their lists, and fails when any list a tally reads was replaced', () => {
    const a = customer();
    expect(sameTallies(a, { ...a, name: 'renamed' } as Customer)).toBe(true);
    expect(sameTallies(a, { ...a, type: 'contact' })).toBe(false);
    expect(sameTallies(a, { ...a, tags: ['t2'] })).toBe(false);
    expect(sameTallies(a, { ...a, segments: [] })).toBe(false);
    expect(sameTallies(a, { ...a, companies: ['c2'] })).toBe(false);
    expect(sameTallies(a, { ...a, custom_attributes: {} })).toBe(false);
  });
});

describe('customerTallyKeys', () => {
  it('counts a visitor by its type and attributes only, a user or lead by its tags, segments and companies too', () => {
    const user = customer();
    expect(customerTallyKeys(user)).toEqual([tallyKey.type('user'), tallyKey.attribute('plan'), tallyKey.tag('user', 't1'), tallyKey.segment('user', 's1'), tallyKey.people('c1')]);
    expect(customerTallyKeys(customer({ type: 'visitor' }))).toEqual([tallyKey.type('visitor'), tallyKey.attribute('plan')]);
  });
});
