// The state an app keeps beside its collections, as parts of the engine's app (engine/app-core.ts):
// declared once here, so a transaction, a reset, a snapshot and a restore carry every one of them
// and no resource rule takes part in begin, commit or rollback itself.

import type { Part, Parts } from '../engine/app-core.js';
import { DeliveryQueue } from '../resources/subscriptions/delivery-queue.js';
import type { ScrollSlot } from '../resources/scroll/rules.js';
import type { AppBase, AppState } from './app-state.js';
import type { Job } from '../engine/types.js';
import type { SeedChanges } from '../engine/sorted-index.js';

export interface AppParts extends Parts<AppBase> {
  sorted: Part<AppBase, SeedChanges | undefined>;
  conversationLists: Part<AppBase, SeedChanges | undefined>;
  order: Part<AppBase, undefined>;
  companyOrder: Part<AppBase, undefined>;
  partsTotal: Part<AppBase, number>;
  jobs: Part<AppBase, readonly Job[]>;
  deliveries: Part<AppBase, DeliveryQueue>;
  scroll: Part<AppBase, ScrollSlot | null>;
  /** Last: a rolled-back write gives back what it charged once every other part is as it was. */
  budgets: Part<AppBase, undefined>;
}

/** A fixture's queue without its webhook deliveries (those go to AppState.deliveries). */
export const otherJobs = (jobs: readonly Job[]): Job[] => jobs.filter((j) => j.kind !== 'webhook');

interface Index {
  clear(): void;
  begin?(): void;
  commit?(): void;
  rollback?(): void;
}

/** Indexes whose lists `SortedIndexes.fromBase` makes: told the base the state stands on, and saving what changed since. */
interface FromBaseIndexes {
  seeded(base: AppBase): void;
  saveChanges(): SeedChanges | undefined;
  restoreChanges(saved: SeedChanges | undefined): void;
  begin(): void;
  commit(): void;
  rollback(): void;
}

/** Which base the state stands on, and what changed since: the lists made from it are copies of the base's. */
function fromBase(index: FromBaseIndexes): Part<AppBase, SeedChanges | undefined> {
  return {
    seed: (base) => index.seeded(base),
    save: () => index.saveChanges(),
    restore: (saved) => index.restoreChanges(saved),
    begin: () => index.begin(),
    commit: () => index.commit(),
    rollback: () => index.rollback(),
  };
}

/** An index derived from the collections: nothing to keep, forgotten when they are replaced, its next reader rebuilds it. */
function derived(index: Index): Part<AppBase, undefined> {
  const forget = (): void => index.clear();
  return {
    seed: forget,
    save: () => undefined,
    restore: forget,
    // Stryker disable next-line OptionalChaining: equivalent, each arrow is made only where the index has the method
    begin: index.begin && (() => index.begin?.()),
    // Stryker disable next-line OptionalChaining: equivalent, as above
    commit: index.commit && (() => index.commit?.()),
    // Stryker disable next-line OptionalChaining: equivalent, as above
    rollback: index.rollback && (() => index.rollback?.()),
  };
}

export function appParts(app: AppState): AppParts {
  // What a rolled-back write goes back to (units do not nest: engine/app-core.ts).
  let partsTotal = 0;
  let jobCounter = 0;
  const nothing = (): undefined => undefined;
  return {
    sorted: fromBase(app.sorted),
    conversationLists: fromBase(app.conversationLists),
    order: {
      ...derived({
        // Stryker disable next-line ArrowFunction: equivalent in answers, an index of a replaced map is never current (clear frees it sooner)
        clear: () => app.order.clear(),
        commit: () => app.order.commit(),
      }),
      begin: () => app.order.begin(app.data.customers),
      rollback: () => app.order.rollback(app.data.customers),
    },
    companyOrder: derived(app.companyOrder),
    partsTotal: {
      seed: (base) => (app.partsTotal = base.partsTotal),
      save: () => app.partsTotal,
      restore: (n) => (app.partsTotal = n),
      begin: () => (partsTotal = app.partsTotal),
      rollback: () => (app.partsTotal = partsTotal),
    },
    jobs: {
      seed: (base) => (app.jobs = otherJobs(base.jobs)),
      save: () => [...app.jobs],
      restore: (jobs) => (app.jobs = [...jobs]),
      begin: () => (jobCounter = app.counters.job),
      // Jobs the write queued go: their ids are the counter's draws since it began.
      rollback: () => {
        // Stryker disable next-line ConditionalExpression: equivalent, with no job queued every id is below the counter (the check saves a copy)
        if (app.counters.job !== jobCounter) app.jobs = app.jobs.filter((j) => j.id < jobCounter);
      },
    },
    deliveries: {
      seed: (base) => (app.deliveries = DeliveryQueue.of(base.jobs)),
      save: () => app.deliveries.clone(),
      restore: (queue) => (app.deliveries = queue.clone()),
      begin: () => app.deliveries.begin(),
      commit: () => app.deliveries.commit(),
      rollback: () => app.deliveries.rollback(),
    },
    scroll: {
      seed: () => (app.scroll = null),
      save: () => app.scroll,
      restore: (scroll) => (app.scroll = scroll),
    },
    budgets: { seed: nothing, save: nothing, restore: nothing, rollback: () => app.budgets?.recount(app) },
  };
}
