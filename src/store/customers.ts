// Customer rules shared by users, leads and visitors. (Grows with the customer endpoints.)

import { hashSeed } from '../core/random.js';
import type { AppState } from './app-state.js';
import { emptyCustomer } from './normalize.js';
import { pseudonym } from './pseudonym.js';
import type { Store } from './store.js';
import type { Customer, CustomerType } from './types.js';

/** A new lead or visitor: server-assigned id and UUID user_id, a generated pseudonym, no sessions. */
export function newAnonymous(store: Store, app: AppState, type: Exclude<CustomerType, 'user'>): Customer {
  const now = store.now();
  const id = app.newObjectId(now, (x) => app.data.customers.has(x));
  let userId = app.random.uuid();
  while (app.data.byUserId.has(userId)) userId = app.random.uuid();
  store.faker.seed(hashSeed(store.seed, app.id, 'pseudonym', app.random.nextUint32()));
  return { ...emptyCustomer(type, id, now), user_id: userId, pseudonym: pseudonym(store.faker, app.random) };
}
