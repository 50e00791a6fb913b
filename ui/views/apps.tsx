// Apps: every app's counts and rate-limit window, the clock (freeze, set, advance), reset,
// snapshots (take, restore, delete), pending jobs by kind, the chosen app's bulk jobs, and save.
// The apps table pages (First, Previous, Next) through every app, seeded and provisioned.

import { useEffect, useState } from 'preact/hooks';
import { api, ControlError, when, type AppSummary, type AppsPage } from '../api.js';
import { ErrorNote, Pager, Section, useLoad, usePages } from '../common.js';

function useAction(after: () => void) {
  const [error, setError] = useState<ControlError | undefined>(undefined);
  const [note, setNote] = useState('');
  const run = (label: string, action: () => Promise<unknown>) =>
    action().then(
      (r) => {
        setError(undefined);
        setNote(typeof r === 'string' ? r : label);
        after();
      },
      (e: ControlError) => setError(e),
    );
  return { error, note, run };
}

function AppsTable({ apps }: { apps: AppSummary[] }) {
  return (
    <div class="scroll">
      <table>
        <caption class="sr-only">Apps</caption>
        <thead>
          <tr>
            <th scope="col">App</th>
            <th scope="col" class="num">Users</th>
            <th scope="col" class="num">Leads</th>
            <th scope="col" class="num">Visitors</th>
            <th scope="col" class="num">Companies</th>
            <th scope="col" class="num">Conversations</th>
            <th scope="col">Rate limit (window)</th>
            <th scope="col">Window resets</th>
            <th scope="col" class="num">Pending jobs</th>
            <th scope="col" class="num">Snapshots</th>
            <th scope="col" class="num">Journal</th>
          </tr>
        </thead>
        <tbody>
          {apps.map((a) => (
            <tr key={a.id}>
              <th scope="row">
                {a.id}
                {a.provisioned && <span class="badge">test</span>}
                <div class="sub">
                  {a.name} · API {a.api_version}
                </div>
              </th>
              <td class="num">{a.counts.users}</td>
              <td class="num">{a.counts.leads}</td>
              <td class="num">{a.counts.visitors}</td>
              <td class="num">{a.counts.companies}</td>
              <td class="num">{a.counts.conversations}</td>
              <td>
                {a.rate_limit.used} / {a.rate_limit.allowance} <span class="sub">({a.rate_limit.per_minute}/min)</span>
              </td>
              <td>{when(a.rate_limit.reset)}</td>
              <td class="num">
                {a.pending_jobs}
                {a.pending_jobs > 0 && (
                  <div class="sub">
                    {a.pending_by_kind.enrichment} enrichment, {a.pending_by_kind.bulk_tasks} bulk, {a.pending_by_kind.webhook_deliveries} webhook
                  </div>
                )}
                {a.next_job_due !== null && <div class="sub">next {when(a.next_job_due)}</div>}
              </td>
              <td class="num">{a.snapshots}</td>
              <td class="num">{a.journal_entries}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ClockPanel({ now, frozen, onChanged }: { now: number; frozen: boolean; onChanged: () => void }) {
  const { error, note, run } = useAction(onChanged);
  const [advance, setAdvance] = useState('60');
  const [at, setAt] = useState('');
  return (
    <Section title="Clock">
      <p class="clock">
        <strong data-testid="clock-now">{when(now)}</strong> <span class="sub">({now}, {frozen ? 'frozen' : 'running'})</span>
      </p>
      <div class="row">
        <button type="button" onClick={() => run(frozen ? 'Clock running' : 'Clock frozen', () => api.setClock({ frozen: !frozen }))}>
          {frozen ? 'Let it run' : 'Freeze'}
        </button>
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            void run(`Advanced ${advance} s`, () => api.setClock({ advance: Number(advance) }));
          }}
        >
          <label>
            Advance by (seconds) <input type="number" min="0" value={advance} onInput={(e) => setAdvance(e.currentTarget.value)} />
          </label>
          <button type="submit">Advance</button>
        </form>
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            const t = /^\d+$/.test(at) ? Number(at) : Math.floor(Date.parse(`${at.replace(' ', 'T')}${/Z$/.test(at) ? '' : 'Z'}`) / 1000);
            void run(`Clock set`, () => api.setClock({ now: t }));
          }}
        >
          <label>
            Set to (Unix seconds or UTC date) <input value={at} placeholder="2026-01-02 03:04:05" onInput={(e) => setAt(e.currentTarget.value)} />
          </label>
          <button type="submit">Set</button>
        </form>
      </div>
      <ErrorNote error={error} />
      {note && <p class="note" role="status">{note}</p>}
    </Section>
  );
}

function StatePanel({ app, dataDir, onChanged }: { app: string; dataDir: boolean; onChanged: () => void }) {
  const snapshots = useLoad(() => api.snapshots(app), [app]);
  const refresh = () => {
    snapshots.reload();
    onChanged();
  };
  const { error, note, run } = useAction(refresh);
  const [name, setName] = useState('before-test');
  return (
    <Section title={`State of ${app}`}>
      <div class="row">
        <button type="button" onClick={() => run(`Reset ${app}`, () => api.reset(app))}>
          Reset {app}
        </button>
        <button type="button" onClick={() => run('Reset every app', () => api.reset())}>
          Reset every app
        </button>
        <button type="button" onClick={() => run('', () => api.runJobs(app).then((r) => `Ran ${r.ran} pending jobs`))}>
          Run pending jobs
        </button>
        <button type="button" disabled={!dataDir} title={dataDir ? undefined : 'Start the mock with --data-dir to save'} onClick={() => run('', () => api.save().then((r) => `Saved ${r.saved.join(', ') || 'nothing (unchanged)'} to ${r.dir}`))}>
          Save to --data-dir
        </button>
      </div>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          void run(`Snapshot ${name} taken`, () => api.takeSnapshot(app, name));
        }}
      >
        <label>
          Snapshot name <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit">Take snapshot</button>
      </form>
      <ErrorNote error={error ?? snapshots.error} />
      {note && <p class="note" role="status">{note}</p>}
      <table>
        <caption class="sr-only">Snapshots</caption>
        <thead>
          <tr>
            <th scope="col">Snapshot</th>
            <th scope="col">Taken at</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(snapshots.data?.snapshots ?? []).map((s) => (
            <tr key={s.name}>
              <th scope="row">{s.name}</th>
              <td>{when(s.created_at)}</td>
              <td class="actions">
                <button type="button" onClick={() => run(`Restored ${s.name}`, () => api.restoreSnapshot(app, s.name))}>
                  Restore {s.name}
                </button>
                <button type="button" class="quiet" onClick={() => run(`Deleted ${s.name}`, () => api.deleteSnapshot(app, s.name))}>
                  Delete {s.name}
                </button>
              </td>
            </tr>
          ))}
          {snapshots.data?.snapshots.length === 0 && (
            <tr>
              <td colSpan={3} class="sub">
                No snapshots yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </Section>
  );
}

function BulkJobs({ app, version }: { app: string; version: unknown }) {
  const jobs = useLoad(() => api.bulkJobs(app), [app, version]);
  const d = jobs.data;
  return (
    <Section title={`Bulk jobs of ${app}`}>
      <ErrorNote error={jobs.error} />
      {d && d.total === 0 && <p class="sub">No bulk jobs (POST /bulk/users, /bulk/events).</p>}
      {d && d.total > 0 && (
        <div class="scroll">
          <table>
            <caption class="sr-only">Bulk jobs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">State</th>
                <th scope="col" class="num">Tasks (pending)</th>
                <th scope="col" class="num">Items</th>
                <th scope="col" class="num">Failed items</th>
                <th scope="col">Created</th>
                <th scope="col">Takes tasks until</th>
                <th scope="col">Completed</th>
              </tr>
            </thead>
            <tbody>
              {d.jobs.map((j) => (
                <tr key={j.id}>
                  <th scope="row" class="mono">
                    {j.id}
                  </th>
                  <td>
                    <span class={`badge ${j.state}`}>{j.state}</span>
                  </td>
                  <td class="num">
                    {j.tasks} ({j.pending_tasks})
                  </td>
                  <td class="num">{j.items}</td>
                  <td class="num">{j.failed_items}</td>
                  <td>{when(j.created_at)}</td>
                  <td>{j.open ? when(j.closing_at) : 'closed'}</td>
                  <td>{when(j.completed_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

/** How often the table is read again while a seed is in progress. */
const SEEDING_POLL_MS = 1000;

function Seeding({ seeds }: { seeds: AppsPage['seeding'] }) {
  return (
    <ul class="seeding" role="status" aria-label="Seeds in progress">
      {seeds.map((s) => (
        <li key={s.app}>
          Seeding <strong>{s.app}</strong>: {s.phase} {s.total > 0 && `${s.done.toLocaleString('en')} of ${s.total.toLocaleString('en')}`}{' '}
          {s.total > 0 && <progress max={s.total} value={s.done} />}
        </li>
      ))}
    </ul>
  );
}

export function AppsView({ app, onChanged }: { app: string; onChanged: () => void }) {
  // One page of apps at a time: a mock can hold a thousand test apps.
  const pages = usePages();
  const apps = useLoad(() => api.apps(pages.offset), [pages.offset]);
  const reload = () => {
    apps.reload();
    onChanged();
  };
  const d = apps.data;
  // While a seed runs, the table follows it; a failed read (the data stays) tries again too.
  useEffect(() => {
    if (!d || d.seeding.length === 0) return undefined;
    const timer = setTimeout(apps.reload, SEEDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [d, apps.error]);
  return (
    <>
      <Section title={d ? `Apps (${d.total})` : 'Apps'} actions={<button type="button" onClick={apps.reload}>Refresh</button>}>
        <ErrorNote error={apps.error} />
        {d && d.seeding.length > 0 && <Seeding seeds={d.seeding} />}
        {d && <AppsTable apps={d.apps} />}
        {d && (d.next_offset !== null || pages.offset > 0) && <Pager pages={pages} next={d.next_offset} total={d.total} shown={d.apps.length} label="Apps" />}
      </Section>
      {d && <ClockPanel now={d.clock.now} frozen={d.clock.frozen} onChanged={reload} />}
      {d && <StatePanel app={app} dataDir={d.data_dir} onChanged={reload} />}
      {d && <BulkJobs app={app} version={d} />}
    </>
  );
}
