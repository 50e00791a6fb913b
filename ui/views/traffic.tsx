// Traffic: the request journal as a live tail, polled once a second with the last seq seen (only
// new entries travel), filtered by method, path, status and operation; an entry opens to show its
// request and what the mock answered. Below it, the app's webhook deliveries and their attempts.

import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ControlError, when, type JournalEntry } from '../api.js';
import { ErrorNote, Section } from '../common.js';
import { DeliveriesPanel } from './deliveries.js';

/** Entries the page keeps; older ones scroll away (the journal itself keeps its own). */
const KEEP = 500;
const POLL_MS = 1000;

interface Filter {
  method: string;
  path: string;
  status: string;
  operationId: string;
  allApps: boolean;
  warned: boolean;
}

/** The contract warnings of an entry (what the request sent that the real API accepted but looks wrong). */
function Warnings({ e }: { e: JournalEntry }) {
  if (e.warnings.length === 0) return null;
  return (
    <Section title="Contract warnings">
      <ul class="warnings">
        {e.warnings.map((w, i) => (
          <li key={i}>
            <span class="mono">{w.code}</span>
            {w.muted ? ' (muted)' : ''}: {w.message}
          </li>
        ))}
      </ul>
      <p class="sub">Answered as the real API did; strict mode (X-Mock-Strict: true, the app's strict, --strict) refuses these instead.</p>
    </Section>
  );
}

function Entry({ e }: { e: JournalEntry }) {
  return (
    <div class="entry" aria-label={`Request ${e.seq}`}>
      <div class="grid">
        <Section title="Request">
          <dl class="attrs">
            <div>
              <dt>request</dt>
              <dd class="mono">
                {e.method} {e.path}
              </dd>
            </div>
            <div>
              <dt>query</dt>
              <dd>
                <pre>{JSON.stringify(e.query, null, 2)}</pre>
              </dd>
            </div>
            <div>
              <dt>body</dt>
              <dd>
                <pre>{e.body === null ? '(none)' : JSON.stringify(e.body, null, 2)}</pre>
              </dd>
            </div>
            <div>
              <dt>app</dt>
              <dd>{e.app ?? '(none: the token named no app)'}</dd>
            </div>
            <div>
              <dt>time</dt>
              <dd>
                {when(e.time)} ({e.time})
              </dd>
            </div>
          </dl>
        </Section>
        <Section title="Response">
          <dl class="attrs">
            <div>
              <dt>status</dt>
              <dd>
                <span class={`status s${String(e.status)[0]}`}>{e.status}</span>
              </dd>
            </div>
            <div>
              <dt>operation</dt>
              <dd class="mono">{e.operationId}</dd>
            </div>
            <div>
              <dt>X-Request-Id</dt>
              <dd class="mono">{e.request_id}</dd>
            </div>
            <div>
              <dt>ids touched</dt>
              <dd class="mono">{e.touched.length > 0 ? e.touched.join(', ') : '—'}</dd>
            </div>
          </dl>
          <p class="sub">The journal keeps each request and its status, operation and ids, not the response body (so it costs API requests nothing more); read the record again from Records.</p>
        </Section>
      </div>
      <Warnings e={e} />
    </div>
  );
}

export function TrafficView({ app }: { app: string }) {
  const [draft, setDraft] = useState<Filter>({ method: '', path: '', status: '', operationId: '', allApps: false, warned: false });
  const [filter, setFilter] = useState<Filter>(draft);
  const [entries, setEntries] = useState<JournalEntry[]>([]);
  const [paused, setPaused] = useState(false);
  const [error, setError] = useState<ControlError | undefined>(undefined);
  const [opened, setOpened] = useState<number | undefined>(undefined);
  const after = useRef(0);

  useEffect(() => {
    after.current = 0;
    setEntries([]);
    setOpened(undefined);
  }, [app, filter]);

  useEffect(() => {
    if (paused) return undefined;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const path = filter.path.trim();
    const poll = () =>
      api
        .tail({
          app: filter.allApps ? undefined : app,
          after: after.current,
          limit: 200,
          method: filter.method,
          path: path === '' || path.endsWith('*') ? path : `${path}*`,
          status: filter.status,
          operationId: filter.operationId.trim(),
          warnings: filter.warned ? 'true' : '',
        })
        .then(
          (r) => {
            if (!live) return;
            setError(undefined);
            after.current = r.last_seq;
            if (r.requests.length > 0) setEntries((old) => [...r.requests.reverse(), ...old].slice(0, KEEP));
          },
          (e: ControlError) => live && setError(e),
        )
        .finally(() => {
          if (live) timer = setTimeout(poll, POLL_MS);
        });
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [app, filter, paused]);

  const shown = entries.find((e) => e.seq === opened);
  return (
    <>
      <Section
        title="Live tail"
        actions={
          <span class="row">
            <span class="live" role="status">{paused ? 'paused' : 'live, every second'}</span>
            <button type="button" onClick={() => setPaused(!paused)}>
              {paused ? 'Resume' : 'Pause'}
            </button>
          </span>
        }
      >
        <form
          class="search"
          onSubmit={(e) => {
            e.preventDefault();
            setFilter({ ...draft });
          }}
        >
          <label>
            Method{' '}
            <select value={draft.method} onChange={(e) => setDraft({ ...draft, method: e.currentTarget.value })}>
              <option value="">any</option>
              {['GET', 'POST', 'PUT', 'DELETE'].map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </label>
          <label>
            Path starts with <input value={draft.path} placeholder="/users" onInput={(e) => setDraft({ ...draft, path: e.currentTarget.value })} />
          </label>
          <label>
            Status <input type="number" min="100" max="599" value={draft.status} onInput={(e) => setDraft({ ...draft, status: e.currentTarget.value })} />
          </label>
          <label>
            Operation <input value={draft.operationId} placeholder="getUser" onInput={(e) => setDraft({ ...draft, operationId: e.currentTarget.value })} />
          </label>
          <label class="check">
            <input type="checkbox" checked={draft.allApps} onChange={(e) => setDraft({ ...draft, allApps: e.currentTarget.checked })} /> every app
          </label>
          <label class="check">
            <input type="checkbox" checked={draft.warned} onChange={(e) => setDraft({ ...draft, warned: e.currentTarget.checked })} /> with warnings only
          </label>
          <button type="submit">Filter</button>
        </form>
        <ErrorNote error={error} />
        <div class="scroll tail">
          <table>
            <caption class="sr-only">Requests, newest first</caption>
            <thead>
              <tr>
                <th scope="col" class="num">#</th>
                <th scope="col">Time</th>
                <th scope="col">App</th>
                <th scope="col">Method</th>
                <th scope="col">Path</th>
                <th scope="col" class="num">Status</th>
                <th scope="col">Operation</th>
                <th scope="col">Warnings</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.seq} class={opened === e.seq ? 'selected' : undefined}>
                  <td class="num">{e.seq}</td>
                  <td>{when(e.time)}</td>
                  <td>{e.app ?? '—'}</td>
                  <td class="mono">{e.method}</td>
                  <th scope="row" class="mono">
                    <a
                      href={`#request-${e.seq}`}
                      aria-expanded={opened === e.seq}
                      onClick={(ev) => {
                        ev.preventDefault();
                        setOpened(opened === e.seq ? undefined : e.seq);
                      }}
                    >
                      {e.path}
                    </a>
                  </th>
                  <td class="num">
                    <span class={`status s${String(e.status)[0]}`}>{e.status}</span>
                  </td>
                  <td class="mono">{e.operationId}</td>
                  <td>{e.warnings.length > 0 ? <span class="warned" title={e.warnings.map((w) => `${w.code}: ${w.message}`).join('\n')}>⚠ {e.warnings.map((w) => w.code).join(', ')}</span> : ''}</td>
                </tr>
              ))}
              {entries.length === 0 && (
                <tr>
                  <td colSpan={8} class="sub">
                    No requests yet: send one to the API and it appears here within a second.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </Section>
      {shown && <Entry e={shown} />}
      <DeliveriesPanel app={app} />
    </>
  );
}
