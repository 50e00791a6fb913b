// Every collection an app keeps, as the rooms declare them: the one list the engine makes, forks,
// snapshots and resets (engine/collections.ts). A room's new collection goes in its own
// `collections.ts`; this file only puts the rooms together.

import type { BaseOf, LiveOf } from '../engine/collections.js';
import { customerCollections } from '../resources/customers/collections.js';
import { archiveCollections } from '../resources/users/collections.js';
import { companyCollections } from '../resources/companies/collections.js';
import { tagCollections } from '../resources/tags/collections.js';
import { segmentCollections } from '../resources/segments/collections.js';
import { adminCollections } from '../resources/admins/collections.js';
import { dataAttributeCollections } from '../resources/data-attributes/collections.js';
import { conversationCollections } from '../resources/conversations/collections.js';
import { noteCollections } from '../resources/notes/collections.js';
import { eventCollections } from '../resources/events/collections.js';
import { jobCollections } from '../resources/jobs/collections.js';
import { subscriptionCollections } from '../resources/subscriptions/collections.js';
import { countCollections } from '../resources/counts/collections.js';
import { holderCollections } from '../resources/cross-resource/collections.js';

export const COLLECTIONS = {
  ...customerCollections,
  ...archiveCollections,
  ...companyCollections,
  ...tagCollections,
  ...segmentCollections,
  ...adminCollections,
  ...dataAttributeCollections,
  ...conversationCollections,
  ...noteCollections,
  ...eventCollections,
  ...jobCollections,
  ...subscriptionCollections,
  ...countCollections,
  ...holderCollections,
};

export type CollectionName = keyof typeof COLLECTIONS;
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as readonly CollectionName[];

/** The collections of an app: the seeded maps (`base`) or an app's copy-on-write maps over them (`live`). */
export type Collections<M extends 'base' | 'live'> = M extends 'base' ? BaseOf<typeof COLLECTIONS> : LiveOf<typeof COLLECTIONS>;

/**
 * A seeded base: what a seed fills, and the collections every seed starts empty, named so a
 * collection that should be seeded cannot be forgotten (the compiler wants each in one list or the other).
 */
export function seededCollections<E extends CollectionName>(empty: readonly E[], filled: Omit<Collections<'base'>, E>): Collections<'base'> {
  const out: Record<string, ReadonlyMap<unknown, unknown>> = { ...filled };
  for (const name of empty) out[name] = new Map();
  return out as Collections<'base'>;
}
