// Events and bulk jobs as the wire shows them.

import type { AppState } from '../../state/app-state.js';
import { jobState, type BulkJob } from '../jobs/rules.js';
import type { EventSummary, StoredEvent } from './log.js';
import type { Customer } from '../../engine/types.js';

const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

export function eventView(person: Customer, e: StoredEvent) {
  return {
    type: 'event' as const,
    id: e.id,
    event_name: e.event_name,
    created_at: e.created_at,
    user_id: person.user_id,
    email: person.email,
    intercom_user_id: person.id,
    metadata: e.metadata,
  };
}

export function eventListView(person: Customer, events: readonly StoredEvent[], next: string | undefined) {
  return { type: 'event.list' as const, events: events.map((e) => eventView(person, e)), pages: next === undefined ? {} : { next } };
}

export function eventSummaryView(person: Customer, summaries: readonly EventSummary[]) {
  return {
    type: 'event.summary' as const,
    email: person.email,
    intercom_user_id: person.id,
    user_id: person.user_id,
    events: summaries.map((s) => ({ name: s.name, first: iso(s.first), last: iso(s.last), count: s.count, description: null })),
  };
}

export function jobView(app: AppState, job: BulkJob, origin: string) {
  const self = `${origin}/jobs/${job.id}`;
  return {
    type: 'job' as const,
    app_id: app.id,
    id: job.id,
    name: 'api_bulk_job' as const,
    created_at: job.created_at,
    updated_at: job.updated_at,
    completed_at: job.completed_at,
    closing_at: job.closing_at,
    state: jobState(job),
    links: { error: `${self}/error`, self },
    tasks: job.tasks.map((t) => ({ id: t.id, item_count: t.item_count, created_at: t.created_at, started_at: t.started_at, completed_at: t.completed_at, state: t.state })),
  };
}

export function jobErrorFeedView(app: AppState, job: BulkJob) {
  return { app_id: app.id, job_id: job.id, pages: {}, items: job.tasks.flatMap((t) => t.errors) };
}
