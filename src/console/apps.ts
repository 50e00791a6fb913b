// GET /__admin/apps: every app with what the console's Apps view shows (record counts, the
// rate-limit window, pending jobs, snapshots, journal size) and the clock, one page at a time.
// Every figure is a tally or a size the app already keeps: O(1) per app.

import { adminRoute } from '../http/route.js';
import { arr, bool, int, nullable, obj, str } from '../schemas/json-schema.js';
import type { AppState } from '../state/app-state.js';
import { nextJobDue, pendingJobs } from '../engine/job-queue.js';
import { WINDOW_SECONDS, windowAllowance } from '../engine/rate-limit.js';
import type { Store } from '../state/store.js';
import { CONTROL_TAG, seedingSchema } from '../admin/target.js';
import { pendingByKind, pendingSchema } from './jobs.js';
import { pageOf, pageProps, pageRequest, pagedQuery } from './paging.js';
import { tally, tallyKey } from '../resources/counts/tallies.js';

const count = int({ minimum: 0 });
export const MAX_APP_QUERY = 100;

/** The app picker's search: a part of the id or the name, any case (a scan of the apps, which are capped). */
const matches = (app: AppState | undefined, q: string): boolean => app !== undefined && (app.id.toLowerCase().includes(q) || app.config.name.toLowerCase().includes(q));

const appSummarySchema = obj(
  {
    id: str(),
    name: str(),
    provisioned: bool({ description: 'A test app provisioned by its test_ token' }),
    api_version: str({ description: 'The API version its requests are answered in when they send no Intercom-Version header' }),
    counts: obj(
      { users: count, leads: count, visitors: count, archived_users: count, companies: count, tags: count, segments: count, conversations: count, conversation_parts: count, admins: count },
      ['users', 'leads', 'visitors', 'archived_users', 'companies', 'tags', 'segments', 'conversations', 'conversation_parts', 'admins'],
    ),
    rate_limit: obj(
      {
        per_minute: count,
        allowance: int({ minimum: 0, description: 'Operations per 10-second window' }),
        used: int({ minimum: 0, description: 'Used in the window that holds the clock now' }),
        remaining: count,
        reset: int({ description: 'Unix second the current window ends' }),
      },
      ['per_minute', 'allowance', 'used', 'remaining', 'reset'],
    ),
    pending_jobs: count,
    pending_by_kind: pendingSchema,
    next_job_due: nullable(int({ description: 'Unix second the earliest pending job is due' })),
    snapshots: count,
    journal_entries: count,
  },
  ['id', 'name', 'provisioned', 'api_version', 'counts', 'rate_limit', 'pending_jobs', 'pending_by_kind', 'next_job_due', 'snapshots', 'journal_entries'],
);

export function appSummary(store: Store, app: AppState) {
  const now = store.now();
  const windowStart = now - (((now % WINDOW_SECONDS) + WINDOW_SECONDS) % WINDOW_SECONDS);
  const allowance = windowAllowance(app.config.rate_limit_per_minute);
  const used = app.rate.start === windowStart ? app.rate.used : 0;
  const d = app.data;
  return {
    id: app.id,
    name: app.config.name,
    provisioned: app.provisioned,
    api_version: app.config.api_version,
    counts: {
      users: tally(app, tallyKey.type('user')),
      leads: tally(app, tallyKey.type('contact')),
      visitors: tally(app, tallyKey.type('visitor')),
      archived_users: d.archived.size,
      companies: d.companies.size,
      tags: d.tags.size,
      segments: d.segments.size,
      conversations: d.conversations.size,
      conversation_parts: app.partsTotal,
      admins: d.admins.size,
    },
    rate_limit: { per_minute: app.config.rate_limit_per_minute, allowance, used, remaining: Math.max(0, allowance - used), reset: windowStart + WINDOW_SECONDS },
    pending_jobs: pendingJobs(app),
    pending_by_kind: pendingByKind(app),
    next_job_due: nextJobDue(app),
    snapshots: app.snapshots.size,
    journal_entries: app.journal.size,
  };
}

export const listApps = adminRoute({
  method: 'GET',
  path: '/__admin/apps',
  operationId: 'adminListApps',
  summary: 'Every app with its counts, rate-limit window and pending jobs',
  description:
    'The apps (seeded first, then provisioned test apps in the order they were made), one page at a time, each with its record counts, its rate-limit window as the clock stands now, its API version, its pending jobs (in all and by kind: enrichment after writes, bulk tasks, webhook deliveries), snapshots and journal size; plus the clock and whether POST /__admin/save has somewhere to write (--data-dir). ?app= (or a token) narrows the list to that app; ?q= to those whose id or name holds the text, in any case.',
  tag: CONTROL_TAG,
  query: pagedQuery({ q: str({ maxLength: MAX_APP_QUERY, description: `Only apps whose id or name holds this text (any case; at most ${MAX_APP_QUERY} characters)` }) }),
  response: {
    status: 200,
    description: 'One page of apps',
    schema: obj(
      { apps: arr(appSummarySchema), ...pageProps, clock: obj({ now: int(), frozen: bool() }, ['now', 'frozen']), data_dir: bool({ description: 'Whether the mock runs with --data-dir' }), seeding: seedingSchema },
      ['apps', 'total', 'next_offset', 'clock', 'data_dir', 'seeding'],
    ),
  },
  errors: ['not_found', 'unauthorized', 'parameter_invalid'],
  examples: { query: { app: '', q: '', offset: 0, limit: 50 } },
  handler: ({ store, app, query }) => {
    const q = typeof query.q === 'string' ? query.q.toLowerCase() : '';
    // The named app itself: a GET naming an unseen test_ token shows the app it would provision, which the store does not hold.
    const ids = app ? [app.id] : q === '' ? store.appIds() : store.appIds().filter((id) => matches(store.app(id), q));
    const appOf = (id: string): AppState => (app?.id === id ? app : (store.app(id) as AppState));
    const page = pageOf({ total: ids.length, slice: (s, e) => ids.slice(s, e).map(appOf) }, pageRequest(query));
    return {
      body: {
        apps: page.items.map((a) => appSummary(store, a)),
        total: page.total,
        next_offset: page.next_offset,
        clock: store.clock.state(),
        data_dir: store.saver !== undefined,
        seeding: store.seeds.list(),
      },
    };
  },
});
