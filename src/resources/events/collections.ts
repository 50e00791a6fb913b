// Data events: the app's log and what keeps each person's newest and summaries at hand. Declared here once; state/collections.ts puts every room's together.

import { log, map } from '../../engine/collections.js';
import type { EventPerson, EventSummary, StoredEvent } from './log.js';

export const eventCollections = {
  /** Data events by their place in the app's log (resources/events/log.ts): the oldest go first past the cap. */
  events: log<StoredEvent>(),
  /** customer id NUL event name NUL created_at -> the event's place: every event held but each person's newest (resources/events/rules.ts heldAlready) */
  eventKeys: map<number>(),
  /** event id -> its place, for the held ids a stream can draw again (seeded ones, a restore with ids=fresh: resources/events/log.ts guardEventIds) */
  eventIds: map<number>(),
  /** customer id -> the person's newest event and the ends of its summary list */
  eventPeople: map<EventPerson>(),
  /** customer id NUL event name -> the running summary of that name */
  eventSummaries: map<EventSummary>(),
};
