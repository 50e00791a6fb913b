// The order index's ranks and journal: where an id that comes back is placed (its rank kept or
// forgotten), what a committed or rolled-back transaction leaves, an index built or dropped mid-way,
// and the arrays a scroll holds across an update. Each read is checked against a walk of the map.

import { describe, expect, it } from 'vitest';
import { CowMap, UndoLog } from '../../../src/engine/cow.js';
import { CustomerOrder } from '../../../src/resources/customers/order.js';
import { emptyCustomer } from '../../../src/fixtures/normalize.js';
import type { Customer, CustomerType } from '../../../src/engine/types.js';

const rec = (id: string, type: CustomerType = 'user'): Customer => emptyCustomer(type, id, 0);
const seeded = (...ids: string[]) => CowMap.from(new Map(ids.map((id) => [id, rec(id)])));
const walked = (map: CowMap<Customer>, type: CustomerType = 'user') => [...map.entries()].filter(([, c]) => c.type === type).map(([id]) => id);

/** Sets through the index's hook, as customers/indexes.ts saveCustomer does. */
function save(map: CowMap<Customer>, order: CustomerOrder, next: Customer): void {
  const prev = map.get(next.id);
  const before = map.version;
  map.set(next.id, next);
  order.saved(map, prev, next, before);
}

/** Deletes through the index's hook, as customers/indexes.ts removeCustomer does. */
function remove(map: CowMap<Customer>, order: CustomerOrder, id: string): void {
  const prev = map.get(id) as Customer;
  const before = map.version;
  map.delete(id);
  order.removed(map, prev, before);
}

/** Runs `write` as AppState.transaction does; `fail` undoes it. */
function transaction(map: CowMap<Customer>, order: CustomerOrder, write: () => void, fail = false): void {
  const log = new UndoLog();
  map.undo = log;
  order.begin(map);
  write();
  if (fail) {
    log.undo();
    order.rollback(map);
  } else {
    log.commit();
    order.commit();
  }
  map.undo = null;
}

describe('CustomerOrder ranks', () => {
  it('counts one build per walk', () => {
    const builds = CustomerOrder.builds;
    new CustomerOrder().ids(seeded('a'), 'user');
    expect(CustomerOrder.builds).toBe(builds + 1);
  });

  it('ranks ids added before the build after the seeded ones, in the map\'s order, and new ones after them', () => {
    const map = seeded('a', 'b');
    map.set('z', rec('z'));
    map.set('y', rec('y'));
    const order = new CustomerOrder();
    expect(order.ids(map, 'user')).toEqual(['a', 'b', 'z', 'y']);
    save(map, order, rec('x'));
    expect(order.known(map, 'user')).toEqual(['a', 'b', 'z', 'y', 'x']);
    remove(map, order, 'z');
    expect(order.known(map, 'user')).toEqual(['a', 'b', 'y', 'x']);
    expect(order.known(map, 'user')).toEqual(walked(map));
  });

  it('puts a new id that comes back last, not in its old place', () => {
    const map = seeded('a');
    const order = new CustomerOrder();
    order.ids(map, 'user');
    save(map, order, rec('x'));
    save(map, order, rec('y'));
    remove(map, order, 'x');
    save(map, order, rec('x'));
    expect(order.known(map, 'user')).toEqual(['a', 'y', 'x']);
    expect(order.known(map, 'user')).toEqual(walked(map));
  });

  it('leaves an index of another map at the same version alone', () => {
    const map = seeded('a', 'b');
    const other = seeded('a', 'b');
    expect(map.version).toBe(other.version);
    const order = new CustomerOrder();
    order.ids(other, 'user');
    save(map, order, rec('x'));
    expect(order.known(other, 'user')).toEqual(['a', 'b']);
  });

  it('leaves an index of another map at the same version alone on a removal', () => {
    const map = seeded('a', 'b');
    const other = seeded('a', 'b');
    const order = new CustomerOrder();
    order.ids(other, 'user');
    remove(map, order, 'a');
    expect(order.known(other, 'user')).toEqual(['a', 'b']);
  });

  it('drops an index behind the map on a removal, for a rebuild', () => {
    const map = seeded('a', 'b');
    const order = new CustomerOrder();
    order.ids(map, 'user');
    map.set('hidden', rec('hidden'));
    remove(map, order, 'a');
    expect(order.known(map, 'user')).toBeUndefined();
    expect(order.ids(map, 'user')).toEqual(['b', 'hidden']);
  });

  it('removes and saves with no index at all, and builds the right one afterwards', () => {
    const map = seeded('a', 'b');
    const order = new CustomerOrder();
    save(map, order, rec('x'));
    remove(map, order, 'a');
    expect(order.known(map, 'user')).toBeUndefined();
    expect(order.ids(map, 'user')).toEqual(['b', 'x']);
  });
});

describe('CustomerOrder transactions', () => {
  it('keeps the rank of a new id removed and added again in one transaction: the map keeps its slot', () => {
    const map = seeded('a');
    const order = new CustomerOrder();
    order.ids(map, 'user');
    save(map, order, rec('x'));
    save(map, order, rec('y'));
    transaction(map, order, () => {
      remove(map, order, 'x');
      save(map, order, rec('x'));
    });
    expect(order.known(map, 'user')).toEqual(['a', 'x', 'y']);
    expect(order.known(map, 'user')).toEqual(walked(map));
    // Its rank is still its own: a removal afterwards finds it.
    remove(map, order, 'x');
    expect(order.known(map, 'user')).toEqual(['a', 'y']);
  });

  it('forgets the rank of a new id a committed transaction removed', () => {
    const map = seeded('a');
    const order = new CustomerOrder();
    order.ids(map, 'user');
    save(map, order, rec('x'));
    transaction(map, order, () => remove(map, order, 'x'));
    save(map, order, rec('z'));
    save(map, order, rec('x'));
    expect(order.known(map, 'user')).toEqual(['a', 'z', 'x']);
    expect(order.known(map, 'user')).toEqual(walked(map));
  });

  it('forgets the rank of a new id a rolled-back transaction created', () => {
    const map = seeded('a');
    const order = new CustomerOrder();
    order.ids(map, 'user');
    transaction(map, order, () => save(map, order, rec('x')), true);
    expect(order.known(map, 'user')).toEqual(['a']);
    save(map, order, rec('z'));
    save(map, order, rec('x'));
    expect(order.known(map, 'user')).toEqual(['a', 'z', 'x']);
    expect(order.known(map, 'user')).toEqual(walked(map));
  });

  it('keeps the seeded rank of an id whose return a transaction rolled back', () => {
    const map = seeded('a', 'b', 'c');
    const order = new CustomerOrder();
    order.ids(map, 'user');
    remove(map, order, 'b');
    save(map, order, rec('x'));
    transaction(map, order, () => save(map, order, rec('b')), true);
    expect(order.known(map, 'user')).toEqual(['a', 'c', 'x']);
    save(map, order, rec('b'));
    expect(order.known(map, 'user')).toEqual(['a', 'b', 'c', 'x']);
    expect(order.known(map, 'user')).toEqual(walked(map));
  });

  it('keeps the rank of an id whose removal or type change was rolled back', () => {
    const map = seeded('a', 'b', 'c');
    const order = new CustomerOrder();
    order.ids(map, 'user');
    transaction(map, order, () => remove(map, order, 'a'), true);
    transaction(map, order, () => save(map, order, rec('b', 'contact')), true);
    expect(order.known(map, 'user')).toEqual(['a', 'b', 'c']);
    remove(map, order, 'a');
    save(map, order, rec('b', 'contact'));
    expect(order.known(map, 'user')).toEqual(['c']);
    expect(order.known(map, 'contact')).toEqual(['b']);
  });

  it('drops an index built during a rolled-back transaction: it saw writes no journal holds', () => {
    const map = seeded('a', 'b');
    const order = new CustomerOrder();
    transaction(
      map,
      order,
      () => {
        save(map, order, rec('x'));
        expect(order.ids(map, 'user')).toEqual(['a', 'b', 'x']);
        save(map, order, rec('y'));
      },
      true,
    );
    expect(order.known(map, 'user')).toBeUndefined();
    expect(order.ids(map, 'user')).toEqual(['a', 'b']);
  });

  it('rolls back and commits a transaction that had no index', () => {
    const map = seeded('a', 'b');
    const order = new CustomerOrder();
    transaction(map, order, () => save(map, order, rec('x')), true);
    transaction(map, order, () => save(map, order, rec('y')));
    expect(order.ids(map, 'user')).toEqual(['a', 'b', 'y']);
  });

  it('takes a commit or a rollback without a transaction as nothing', () => {
    const map = seeded('a');
    const order = new CustomerOrder();
    order.ids(map, 'user');
    order.commit();
    order.rollback(map);
    save(map, order, rec('x'));
    expect(order.known(map, 'user')).toEqual(['a', 'x']);
  });
});

describe('CustomerOrder and a scroll', () => {
  it('leaves the arrays a scroll holds untouched by an update that keeps the type, even when dead entries abound', () => {
    const ids = Array.from({ length: 32 }, (_, i) => `u${String(i).padStart(2, '0')}`);
    const map = seeded(...ids);
    const order = new CustomerOrder();
    order.ids(map, 'user');
    for (const id of ids.slice(0, 16)) remove(map, order, id);
    const held = order.held(map, 'user');
    save(map, order, { ...rec('u20'), name: 'renamed' });
    expect(held.dead?.[20]).toBe(0);
    expect(held.dead?.filter((d) => d === 1)).toHaveLength(16);
    expect(order.known(map, 'user')).toEqual(ids.slice(16));
  });
});
