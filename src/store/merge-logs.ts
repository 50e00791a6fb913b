// How a merge seed lays the logs of an incoming document over an app's: the event log (places,
// summaries) and the job queue. Records merge by id elsewhere (store.ts); these two hold positions
// and tallies that a plain by-id merge would break.

import type { EventLog, EventRecord, EventSummaryRecord } from './events.js';
import type { FixtureDocument } from './fixture-doc.js';
import type { Job } from './types.js';

type EventPart = Pick<FixtureDocument, 'events' | 'event_summaries' | 'event_log'>;

const nameKey = (customerId: string, name: string): string => `${customerId}\u0000${name}`;

/**
 * Incoming events replace the app's of the same id at their place in the log; new ones are
 * appended past the log's end (places the document carries are another app's, so they are
 * dropped). A summary the document gives replaces the app's in place; an app summary the document
 * leaves out counts the new events of its name, so it still covers every event it tallies.
 */
export function mergeEvents(current: EventPart, incoming: EventPart): EventPart {
  const events = new Map<string, EventRecord>(current.events.map((e) => [e.id, e]));
  // An app's export holds events only when it has a log: without one, new events start at 1.
  let next = current.event_log?.next ?? 1;
  // Stryker disable next-line ArrowFunction: equivalent, a given summary's count is overwritten by the document's below anyway
  const given = new Set(incoming.event_summaries.map((s) => nameKey(s.customer_id, s.name)));
  const summaries = new Map<string, EventSummaryRecord>(current.event_summaries.map((s) => [nameKey(s.customer_id, s.name), s]));
  for (const { seq: _elsewhere, ...e } of incoming.events) {
    const old = events.get(e.id);
    events.set(e.id, { ...e, seq: old ? old.seq : next++ });
    const key = nameKey(e.customer_id, e.event_name);
    const summary = summaries.get(key);
    if (!summary || given.has(key)) continue;
    const counted = old !== undefined && nameKey(old.customer_id, old.event_name) === key;
    summaries.set(key, { ...summary, count: summary.count + (counted ? 0 : 1), first: Math.min(summary.first, e.created_at), last: Math.max(summary.last, e.created_at) });
  }
  for (const s of incoming.event_summaries) summaries.set(nameKey(s.customer_id, s.name), s);
  const merged: EventPart = { events: [...events.values()], event_summaries: [...summaries.values()] };
  // The app's log keeps its first place though its first events may have left (a deleted person's);
  // without one, the loader derives the log from the merged events' places (1 to next - 1).
  if (current.event_log) merged.event_log = { first: current.event_log.first, next } satisfies EventLog;
  return merged;
}

/**
 * What a queue entry runs: one entry per bulk task, one per customer and due time for enrichment,
 * one per subscription and notification for a webhook delivery.
 */
function runs(j: Job): string {
  if (j.kind === 'bulk_task') return `task\u0000${j.job_id}\u0000${j.task_id}`;
  if (j.kind === 'webhook') return `webhook\u0000${j.subscription_id}\u0000${String(j.notification.id)}`;
  return `enrich\u0000${j.customer_id}\u0000${j.due_at}`;
}

/**
 * Queue entries are keyed by what they run, not by number: every app numbers its queue from 1, so
 * an incoming entry with the number of an app entry is another job. One that runs the same thing
 * replaces the app's (keeping its number); the others are numbered on past the app's highest.
 */
export function mergeQueue(current: readonly Job[], incoming: readonly Job[]): Job[] {
  const out = new Map(current.map((j) => [runs(j), j]));
  let id = current.reduce((m, j) => Math.max(m, j.id), 0);
  for (const j of incoming) {
    const old = out.get(runs(j));
    out.set(runs(j), { ...j, id: old ? old.id : ++id });
  }
  return [...out.values()];
}
