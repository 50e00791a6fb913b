// When the order index may be trusted: only for the map and the version it was built or kept for,
// kept across a save of another type or of an unchanged type, and never after clear().

import { describe, expect, it } from 'vitest';
import { CowMap } from '../../../src/engine/cow.js';
import { CustomerOrder } from '../../../src/resources/customers/order.js';
import { emptyCustomer } from '../../../src/fixtures/normalize.js';
import type { Customer, CustomerType } from '../../../src/engine/types.js';

const rec = (id: string, type: CustomerType = 'user'): Customer => emptyCustomer(type, id, 0);
const base = () => CowMap.from(new Map([rec('a'), rec('b'), rec('l', 'contact')].map((c) => [c.id, c])));

function save(map: CowMap<Customer>, order: CustomerOrder, next: Customer): void {
  const prev = map.get(next.id);
  const before = map.version;
  map.set(next.id, next);
  order.saved(map, prev, next, before);
}

describe('CustomerOrder validity', () => {
  it('is known only for the map it was built from, at that version', () => {
    const map = base();
    const order = new CustomerOrder();
    expect(order.known(map, 'user')).toBeUndefined();
    expect(order.ids(map, 'user')).toEqual(['a', 'b']);
    expect(order.known(map, 'user')).toEqual(['a', 'b']);
    expect(order.known(map.fork(), 'user')).toBeUndefined();
    map.set('zz', rec('zz'));
    expect(order.known(map, 'user')).toBeUndefined();
    expect(order.ids(map, 'user')).toEqual(['a', 'b', 'zz']);
  });

  it('returns the same ids without a walk while known', () => {
    const map = base();
    const order = new CustomerOrder();
    const first = order.ids(map, 'user');
    const builds = CustomerOrder.builds;
    expect(order.ids(map, 'user')).toEqual(first);
    expect(CustomerOrder.builds).toBe(builds);
  });

  it('keeps every type\'s index across a new record: appended to its own type only', () => {
    const map = base();
    const order = new CustomerOrder();
    order.ids(map, 'user');
    order.ids(map, 'contact');
    save(map, order, rec('n', 'contact'));
    expect(order.known(map, 'user')).toEqual(['a', 'b']);
    expect(order.known(map, 'contact')).toEqual(['l', 'n']);
  });

  it('keeps the index across an update that keeps the type, and drops it for an index of another map', () => {
    const map = base();
    const order = new CustomerOrder();
    order.ids(map, 'user');
    save(map, order, { ...rec('a'), name: 'renamed' });
    expect(order.known(map, 'user')).toEqual(['a', 'b']);
    const other = base();
    order.ids(other, 'contact');
    save(map, order, rec('m'));
    expect(order.known(other, 'contact')).toEqual(['l']);
  });

  it('drops an index that was already behind the map before the save', () => {
    const map = base();
    const order = new CustomerOrder();
    order.ids(map, 'user');
    map.set('hidden', rec('hidden'));
    save(map, order, rec('late'));
    expect(order.known(map, 'user')).toBeUndefined();
    expect(order.ids(map, 'user')).toEqual(['a', 'b', 'hidden', 'late']);
  });

  it('forgets every index on clear()', () => {
    const map = base();
    const order = new CustomerOrder();
    order.ids(map, 'user');
    order.clear();
    expect(order.known(map, 'user')).toBeUndefined();
  });
});
