// One customer's notes and events for the console's customer page, each read through the person's
// own index (the notes' join log, the events' timeline and summary list), never a walk of the app's
// notes or events. Notes page by offset (the index slices by position); events by a cursor, as
// GET /events does, because the timeline is a linked list: a page costs its own length.

import { notFound } from '../core/errors.js';
import { htmlToPlainText } from '../core/html-text.js';
import { adminRoute } from '../http/route.js';
import { metadataOutput } from '../resources/events/shapes.js';
import { arr, int, nullable, obj, openObj, str } from '../schemas/json-schema.js';
import type { AppState } from '../state/app-state.js';
import { cursorOf, eventPage, parseCursor, summariesOf } from '../resources/events/rules.js';
import { personNotes } from '../resources/notes/indexes.js';
import type { Customer } from '../engine/types.js';
import { appParam, CONTROL_TAG, requireApp } from '../admin/target.js';
import { limitParam, pageOf, pageProps, pageRequest, pagedQuery, DEFAULT_CONSOLE_LIMIT } from './paging.js';
import { ADA } from '../resources/demo-examples.js';

const idParam = str({ maxLength: 64 });

/** The user or lead the path names (archived users and visitors hold no notes or events to show). */
function personOf(app: AppState, id: string | undefined): Customer {
  const c = app.data.customers.get(id ?? '');
  if (!c || c.type === 'visitor') throw notFound(`No user or lead ${String(id).slice(0, 64)} in app ${app.id}`);
  return c;
}

const noteSchema = obj(
  {
    id: str(),
    admin: obj({ id: str(), name: nullable(str({ description: 'null when the admin is gone' })) }, ['id', 'name']),
    body: str({ description: 'HTML, as stored' }),
    body_text: str({ description: 'The body as plain text' }),
    created_at: int(),
  },
  ['id', 'admin', 'body', 'body_text', 'created_at'],
);

export const listPersonNotes = adminRoute({
  method: 'GET',
  path: '/__admin/customers/{id}/notes',
  operationId: 'adminListCustomerNotes',
  summary: 'One user\'s or lead\'s notes, newest first',
  description: 'One page (offset, limit) of the notes admins left on the user or lead, most recently created first, each with its admin\'s name and its body as stored (HTML) and as plain text; read through the person\'s notes index.',
  tag: CONTROL_TAG,
  params: { id: idParam },
  query: pagedQuery(),
  response: { status: 200, description: 'One page of notes', schema: obj({ notes: arr(noteSchema), ...pageProps }, ['notes', 'total', 'next_offset']) },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { params: { id: ADA }, query: { app: 'demo', offset: 0, limit: 50 } },
  handler: (input) => {
    const app = requireApp(input);
    const person = personOf(app, input.params.id);
    const page = pageOf(personNotes(app, person.id), pageRequest(input.query));
    const notes = page.items.map((n) => ({
      id: n.id,
      admin: { id: n.admin_id, name: app.data.admins.get(n.admin_id)?.name ?? null },
      body: n.body,
      body_text: htmlToPlainText(n.body),
      created_at: n.created_at,
    }));
    return { body: { notes, total: page.total, next_offset: page.next_offset } };
  },
});

const eventSchema = obj({ id: str(), event_name: str(), created_at: int(), metadata: metadataOutput }, ['id', 'event_name', 'created_at', 'metadata']);
const summarySchema = obj(
  {
    name: str(),
    count: int({ minimum: 0, description: 'Every event of this name accepted while one of them was kept' }),
    kept: int({ minimum: 0, description: 'How many the app still holds' }),
    first: int(),
    last: int(),
  },
  ['name', 'count', 'kept', 'first', 'last'],
);

export const listPersonEvents = adminRoute({
  method: 'GET',
  path: '/__admin/customers/{id}/events',
  operationId: 'adminListCustomerEvents',
  summary: 'One user\'s or lead\'s events, newest first, and their summary',
  description:
    'One page (limit) of the events the app holds for the user or lead, newest first (by created_at, then arrival), read along the person\'s timeline: every event held, not only the last 90 days GET /events lists. next_before is the cursor of the next (older) page, null on the last; send it as before. summaries is the event summary, one entry per name in the order first seen (as GET /events?summary=true gives it), with how many of each the app still holds; held is their sum.',
  tag: CONTROL_TAG,
  params: { id: idParam },
  query: openObj({ app: appParam, before: str({ maxLength: 40, description: 'The next_before of the page before' }), limit: limitParam }),
  response: {
    status: 200,
    description: 'One page of events and the summary',
    schema: obj(
      { events: arr(eventSchema), next_before: nullable(str()), held: int({ minimum: 0 }), summaries: arr(summarySchema) },
      ['events', 'next_before', 'held', 'summaries'],
    ),
  },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { params: { id: ADA }, query: { app: 'demo', before: '', limit: 50 } },
  handler: (input) => {
    const app = requireApp(input);
    const person = personOf(app, input.params.id);
    const q = input.query;
    const limit = typeof q.limit === 'number' ? q.limit : DEFAULT_CONSOLE_LIMIT;
    const { items, more } = eventPage(app.data, person.id, parseCursor(q.before), limit, input.store.now(), Number.POSITIVE_INFINITY);
    const last = items.at(-1);
    const summaries = summariesOf(app.data, person.id).map((s) => ({ name: s.name, count: s.count, kept: s.kept, first: s.first, last: s.last }));
    return {
      body: {
        events: items.map((e) => ({ id: e.id, event_name: e.event_name, created_at: e.created_at, metadata: e.metadata })),
        next_before: more && last ? cursorOf(last) : null,
        held: summaries.reduce((n, s) => n + s.kept, 0),
        summaries,
      },
    };
  },
});

export const PERSON_CONSOLE_ROUTES = [listPersonNotes, listPersonEvents];
