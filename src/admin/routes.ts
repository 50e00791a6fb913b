// The control plane under /__admin: never rate limited, never behind app tokens. Per-app routes take
// the app from `?app=<id>` or from an app token in Authorization.

import { tagConversationPart } from './conversation-tags.js';
import { apiError, missing } from '../core/errors.js';
import { fixtureSchema } from '../fixtures/schema.js';
import { adminRoute } from '../http/route.js';
import { unixTime } from '../schemas/fields.js';
import { arr, bool, int, num, obj, oneOfStrings, openObj, str } from '../schemas/json-schema.js';
import type { AppState } from '../state/app-state.js';
import { FixtureError } from '../fixtures/fixture-doc.js';
import { runDueJobs } from '../resources/jobs/run.js';
import { exportState } from '../fixtures/base.js';
import { JsonPieces } from '../views/json-text.js';
import { CLOCK_MAX_SECONDS } from '../core/clock.js';
import { appParam, appQuery, CONTROL_TAG, idsMode, idsParam, requireApp, seedingSchema, targets } from './target.js';
import { FAULT_ROUTES } from './faults.js';
import { save } from './persistence.js';
import { JOURNAL_ROUTES } from './journal.js';
import { SNAPSHOT_ROUTES } from './snapshots.js';
import { CONSOLE_ROUTES } from '../console/ui.js';

const TAG = CONTROL_TAG;

const clockSchema = obj({ now: int(), frozen: bool() }, ['now', 'frozen']);

export const health = adminRoute({
  method: 'GET',
  path: '/__admin/health',
  operationId: 'adminHealth',
  summary: 'Liveness and what is loaded',
  description: 'Answers 200 while the mock serves (even during a long seed), with the app ids, the seed, the clock and where each seed in progress stands.',
  tag: TAG,
  response: {
    status: 200,
    description: 'Health',
    schema: obj(
      { status: str({ const: 'ok' }), seed: int(), apps: arr(str()), provisioned_apps: int({ minimum: 0 }), clock: clockSchema, seeding: seedingSchema },
      ['status', 'seed', 'apps', 'provisioned_apps', 'clock', 'seeding'],
    ),
  },
  errors: [],
  handler: ({ store }) => ({
    body: { status: 'ok', seed: store.seed, apps: store.appIds(), provisioned_apps: store.provisionedCount(), clock: store.clock.state(), seeding: store.seeds.list() },
  }),
});

export const reset = adminRoute({
  method: 'POST',
  path: '/__admin/reset',
  operationId: 'adminReset',
  summary: 'Restore the seeded state',
  description:
    'Every app, or the one named by ?app= or its token, goes back exactly to its seeded state (also clearing its rate-limit window and pending jobs). With ids=rewind (default) its id and random streams go back too, so the same requests give byte-identical responses (a reset of every app also rewinds the request ids of the control plane and of requests that name no app); with ids=fresh ids handed out before are never handed out again.',
  tag: TAG,
  query: openObj({ app: appParam, ids: idsParam }),
  response: { status: 200, description: 'The apps reset', schema: obj({ reset: arr(str()) }, ['reset']) },
  errors: ['not_found', 'unauthorized', 'parameter_invalid'],
  examples: { query: { app: 'demo', ids: 'rewind' } },
  handler: ({ store, app, query }) => ({ body: { reset: store.reset(app?.id, idsMode(query)) } }),
});

export const seed = adminRoute({
  method: 'POST',
  path: '/__admin/seed',
  operationId: 'adminSeed',
  summary: 'Load a fixture document into one app',
  description:
    'The body is a fixture document (the format of fixtures/*.json and of GET /__admin/state). A big document is generated and indexed in slices: other apps are served meanwhile, API requests and control-plane writes to this app (by any of its tokens or the document\'s) wait and then see the new state, control-plane reads show the app as it stands until then, and GET /__admin/health says where the seed stands. mode=replace (default) makes it the app\'s whole seeded state; mode=merge lays its records over the current state by id. The app is created when its id is new. The result is what a reset returns to; with ids=rewind (default) the app\'s id and random streams start again from it, with ids=fresh they keep running. generate counts are capped by the app\'s record limits (--max-customers for users, leads and visitors together, --max-companies, --max-parts for conversations plus parts, each generated conversation bringing 1 to 5 parts, counted as they are made), and generated ids, user_ids, emails and company_ids never reuse ones the document or (in a merge) the app holds. An invalid document changes nothing.',
  tag: TAG,
  query: openObj({ mode: oneOfStrings(['replace', 'merge'], { default: 'replace' }), ids: idsParam }),
  body: fixtureSchema,
  response: {
    status: 200,
    description: 'What the app now holds',
    schema: obj(
      { app: str(), mode: oneOfStrings(['replace', 'merge']), counts: { type: 'object', additionalProperties: int() } },
      ['app', 'mode', 'counts'],
    ),
  },
  errors: ['parameter_invalid', 'parameter_not_found', 'bad_request', 'unsupported_media_type', 'request_too_large'],
  seedsItself: true,
  examples: {
    query: { mode: 'replace', ids: 'rewind' },
    body: {
      $schema: '/__admin/fixture.schema.json',
      description: 'A small app seeded from the docs page',
      app: { id: 'docs-example', name: 'Docs example', tokens: ['docs-example-token'], rate_limit_per_minute: 500, token_owners: { 'docs-example-token': '7001' } },
      admins: [{ id: '7001', name: 'Dora Docs', email: 'dora@example.com' }],
      teams: [{ id: '7101', name: 'Support', admin_ids: ['7001'] }],
      segments: [{ id: '5714dd359a3fd47136007901', name: 'Active', person_type: 'user' }],
      tags: [{ id: '7201', name: 'Seeded' }],
      data_attributes: [{ name: 'plan_tier', data_type: 'string' }],
      companies: [{ id: '5714dd359a3fd47136007301', company_id: 'docs-co', name: 'Docs Co' }],
      customers: [{ id: '5714dd359a3fd47136007401', type: 'user', user_id: 'docs-1', email: 'docs@example.com', companies: ['5714dd359a3fd47136007301'], tags: ['7201'] }],
      conversations: [],
      jobs: [],
      notes: [{ id: '7301', customer: '5714dd359a3fd47136007401', admin_id: '7001', body: '<p>Seeded from the docs page.</p>' }],
      company_data_attributes: [{ name: 'region', data_type: 'string' }],
      generate: { users: 10, leads: 2, visitors: 1, companies: 2, conversations: 2 },
    },
  },
  handler: async ({ store, query, body }) => {
    const mode: 'merge' | 'replace' = query.mode === 'merge' ? 'merge' : 'replace';
    let app: AppState;
    try {
      app = await store.seedAppSliced(body, mode, idsMode(query));
    } catch (err) {
      if (err instanceof FixtureError) throw apiError('parameter_invalid', `${err.path}: ${err.problem}`, err.path || undefined);
      throw err;
    }
    const d = app.data;
    const counts = {
      customers: d.customers.size,
      companies: d.companies.size,
      tags: d.tags.size,
      segments: d.segments.size,
      admins: d.admins.size,
      teams: d.teams.size,
      data_attributes: d.dataAttributes.size,
      conversations: d.conversations.size,
    };
    return { body: { app: app.id, mode, counts } };
  },
});

export const state = adminRoute({
  method: 'GET',
  path: '/__admin/state',
  operationId: 'adminState',
  summary: 'Export an app\'s state as a fixture document',
  description: 'The app\'s full current state in the fixture format; POST it to /__admin/seed to get the same state back.',
  tag: TAG,
  query: appQuery,
  response: { status: 200, description: 'The fixture document', schema: fixtureSchema },
  errors: ['parameter_not_found', 'not_found', 'unauthorized'],
  // In pieces: a full app's state is more text than one string may hold.
  examples: { query: { app: 'demo' } },
  handler: (input) => ({ body: new JsonPieces(exportState(requireApp(input))) }),
});

export const getClock = adminRoute({
  method: 'GET',
  path: '/__admin/clock',
  operationId: 'adminGetClock',
  summary: 'Read the clock',
  description: 'The Unix time that drives timestamps, rate-limit windows and jobs, and whether it is frozen.',
  tag: TAG,
  response: { status: 200, description: 'The clock', schema: clockSchema },
  errors: [],
  handler: ({ store }) => ({ body: store.clock.state() }),
});

export const setClock = adminRoute({
  method: 'POST',
  path: '/__admin/clock',
  operationId: 'adminSetClock',
  summary: 'Set, advance or freeze the clock',
  description:
    `Exactly one of now (Unix seconds) or advance (seconds, ≥ 0), and optionally frozen: a frozen clock moves only when set or advanced. A body with neither now, advance nor frozen is a 400, and so is a change that would take the clock past ${CLOCK_MAX_SECONDS} (9999-12-31T23:59:59Z, the largest timestamp a fixture accepts, so whatever is created stays exportable and seedable).`,
  tag: TAG,
  body: obj({
    now: unixTime(),
    advance: num({ minimum: 0, maximum: 10 * 365 * 86_400 }),
    frozen: bool(),
  }),
  response: { status: 200, description: 'The clock after the change', schema: clockSchema },
  errors: ['parameter_invalid', 'parameter_not_found', 'bad_request', 'unsupported_media_type'],
  examples: { body: { now: 1700000000, frozen: true } },
  handler: ({ store, body }) => {
    const { now, advance, frozen } = body;
    if (now !== undefined && advance !== undefined) throw apiError('parameter_invalid', 'Send either now or advance, not both.', 'advance');
    if (now === undefined && advance === undefined && frozen === undefined) throw missing('now', 'Send now (Unix seconds), advance (seconds) or frozen.');
    if (advance !== undefined && Math.floor(store.clock.nowMs() / 1000 + advance) > CLOCK_MAX_SECONDS) {
      throw apiError('parameter_invalid', `advance would take the clock past ${CLOCK_MAX_SECONDS} (9999-12-31T23:59:59Z), the largest timestamp a fixture accepts.`, 'advance');
    }
    if (frozen !== undefined) store.clock.freeze(frozen);
    if (now !== undefined) store.clock.set(now);
    if (advance !== undefined) store.clock.advance(advance);
    return { body: store.clock.state() };
  },
});

export const runJobs = adminRoute({
  method: 'POST',
  path: '/__admin/jobs/run',
  operationId: 'adminRunJobs',
  summary: 'Run every pending job now',
  description:
    'Runs the pending asynchronous jobs (location data, avatars, social profiles, bulk tasks and the enrichment their items queue, webhook deliveries) of every app, or of the one named, without waiting for the clock, and answers once every delivery it started has been answered or timed out. A retry a failed delivery queues is left pending for the next call (or the clock).',
  tag: TAG,
  query: appQuery,
  response: { status: 200, description: 'How many jobs ran', schema: obj({ ran: int({ minimum: 0 }) }, ['ran']) },
  errors: ['not_found', 'unauthorized'],
  examples: { query: { app: 'demo' } },
  handler: async (input) => {
    const ran = targets(input).reduce((sum, a) => sum + runDueJobs(a, Infinity, input.store), 0);
    await input.store.webhooks?.settled();
    return { body: { ran } };
  },
});

export const CONTROL_ROUTES = [health, reset, seed, state, save, getClock, setClock, runJobs, ...SNAPSHOT_ROUTES, ...JOURNAL_ROUTES, ...FAULT_ROUTES, ...CONSOLE_ROUTES, tagConversationPart];
