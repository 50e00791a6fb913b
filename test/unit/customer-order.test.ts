// The order index behind deep pages, at the seams the API cannot reach directly: a seeded id that
// comes back after a removal, and a write that is undone.

import { describe, expect, it } from 'vitest';
import { CowMap, UndoLog } from '../../src/core/cow.js';
import { CustomerOrder } from '../../src/store/customer-order.js';
import { emptyCustomer } from '../../src/store/normalize.js';
import type { Customer } from '../../src/store/types.js';

const user = (id: string): Customer => emptyCustomer('user', id, 0);
const walked = (map: CowMap<Customer>) => [...map.entries()].filter(([, c]) => c.type === 'user').map(([id]) => id);

/** Sets through the index's hook, as AppState.saveCustomer does. */
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

  it('is not trusted after an undone write', () => {
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

  it('splices a copy of an array a scroll holds, so the scroll still sees what it opened on', () => {
    const map = CowMap.from(new Map(['a', 'b', 'c'].map((id) => [id, user(id)])));
    const order = new CustomerOrder();
    const held = order.held(map, 'user');
    const before = map.version;
    map.delete('b');
    order.removed(map, user('b'), before);
    expect(held).toEqual(['a', 'b', 'c']);
    expect(order.known(map, 'user')).toEqual(['a', 'c']);
  });
});
