// The order index behind deep pages, at the seams the API cannot reach directly: a seeded id that
// comes back after a removal, and a write that is undone.

import { describe, expect, it } from 'vitest';
import { CowMap, UndoLog } from '../../../src/engine/cow.js';
import { CustomerOrder } from '../../../src/resources/customers/order.js';
import { emptyCustomer } from '../../../src/fixtures/normalize.js';
import type { Customer } from '../../../src/engine/types.js';

const user = (id: string): Customer => emptyCustomer('user', id, 0);
const walked = (map: CowMap<Customer>) => [...map.entries()].filter(([, c]) => c.type === 'user').map(([id]) => id);

/** Sets through the index's hook, as customers/indexes.ts saveCustomer does. */
function save(map: CowMap<Customer>, order: CustomerOrder, next: Customer): void {
  const prev = map.get(next.id);
  const before = map.version;
  map.set(next.id, next);
  order.saved(map, prev, next, before);
}

describe('CustomerOrder', () => {
  it('appends new ids and keeps a seeded id that comes back in its seeded place', () => {
    const map = CowMap.from(new Map(['a', 'b', 'c'].map((id) => [id, user(id)])));
    const order = new CustomerOrder();
    expect(order.ids(map, 'user')).toEqual(['a', 'b', 'c']);
    save(map, order, user('d'));
    expect(order.known(map, 'user')).toEqual(['a', 'b', 'c', 'd']);
    map.delete('b');
    expect(order.known(map, 'user')).toBeUndefined();
    expect(order.ids(map, 'user')).toEqual(['a', 'c', 'd']);
    save(map, order, user('b'));
    expect(order.ids(map, 'user')).toEqual(walked(map));
    expect(order.ids(map, 'user')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('is not trusted after an undone write outside a journaled transaction', () => {
    const map = CowMap.from(new Map(['a', 'b'].map((id) => [id, user(id)])));
    const order = new CustomerOrder();
    order.ids(map, 'user');
    const log = new UndoLog();
    map.undo = log;
    save(map, order, user('x'));
    expect(order.known(map, 'user')).toEqual(['a', 'b', 'x']);
    log.undo();
    map.undo = null;
    expect(order.known(map, 'user')).toBeUndefined();
    expect(order.ids(map, 'user')).toEqual(['a', 'b']);
  });

  it('reverts a rolled-back transaction\'s changes and stays trusted, without a rebuild', () => {
    const map = CowMap.from(new Map(['a', 'b', 'c'].map((id) => [id, user(id)])));
    const order = new CustomerOrder();
    order.ids(map, 'user');
    const builds = CustomerOrder.builds;
    const log = new UndoLog();
    map.undo = log;
    order.begin(map);
    save(map, order, user('x'));
    save(map, order, { ...user('b'), type: 'contact' });
    const before = map.version;
    map.delete('a');
    order.removed(map, user('a'), before);
    expect(order.known(map, 'user')).toEqual(['c', 'x']);
    log.undo();
    order.rollback(map);
    map.undo = null;
    expect(order.known(map, 'user')).toEqual(['a', 'b', 'c']);
    expect(order.known(map, 'contact')).toEqual([]);
    expect(CustomerOrder.builds).toBe(builds);
  });

  it('places a seeded id removed before the index was built at its seeded place when it comes back', () => {
    const map = CowMap.from(new Map(['a', 'b', 'c'].map((id) => [id, user(id)])));
    map.delete('b');
    const order = new CustomerOrder();
    expect(order.ids(map, 'user')).toEqual(['a', 'c']);
    const builds = CustomerOrder.builds;
    save(map, order, user('b'));
    expect(order.known(map, 'user')).toEqual(['a', 'b', 'c']);
    expect(CustomerOrder.builds).toBe(builds);
  });

  it('moves a record between types and drops a removed one in place, without a rebuild', () => {
    const map = CowMap.from(new Map(['a', 'b', 'c'].map((id) => [id, user(id)])));
    const order = new CustomerOrder();
    order.ids(map, 'user');
    const builds = CustomerOrder.builds;
    save(map, order, { ...user('b'), type: 'contact' });
    expect(order.known(map, 'user')).toEqual(['a', 'c']);
    expect(order.known(map, 'contact')).toEqual(['b']);
    save(map, order, user('b'));
    expect(order.known(map, 'user')).toEqual(walked(map));
    const before = map.version;
    map.delete('a');
    order.removed(map, user('a'), before);
    expect(order.known(map, 'user')).toEqual(['b', 'c']);
    save(map, order, user('a'));
    expect(order.known(map, 'user')).toEqual(['a', 'b', 'c']);
    expect(CustomerOrder.builds).toBe(builds);
  });

  it('marks a removal dead in the arrays a scroll holds and shifts entries only in a copy', () => {
    const map = CowMap.from(new Map(['a', 'b', 'c'].map((id) => [id, user(id)])));
    const order = new CustomerOrder();
    const held = order.held(map, 'user');
    const before = map.version;
    map.delete('b');
    order.removed(map, user('b'), before);
    expect(held.ids).toEqual(['a', 'b', 'c']);
    expect(held.dead).toEqual([0, 1, 0]);
    expect(order.known(map, 'user')).toEqual(['a', 'c']);
    save(map, order, { ...user('a'), type: 'contact' });
    save(map, order, user('n'));
    save(map, order, user('a'));
    expect(held.ids.slice(0, 3)).toEqual(['a', 'b', 'c']);
    expect(order.known(map, 'user')).toEqual(['a', 'c', 'n']);
  });
});
