// A customer's notes (offset pages) and events (cursor pages: the server reads them along the
// person's timeline) with the event summary, newest first, on the customer's page.

import { useState } from 'preact/hooks';
import { ACTIVITY_PAGE, api, when } from '../api.js';
import { ErrorNote, Pager, Section, show, useLoad, usePages } from '../common.js';

export function Notes({ app, id }: { app: string; id: string }) {
  const pages = usePages();
  const { offset } = pages;
  const page = useLoad(() => api.notes(app, id, offset), [app, id, offset]);
  const d = page.data;
  return (
    <Section title={`Notes (${d?.total ?? '…'})`}>
      <ErrorNote error={page.error} />
      {d && d.total === 0 && <p class="sub">No notes.</p>}
      {d && d.total > 0 && (
        <>
          <ol class="notes">
            {d.notes.map((n) => (
              <li key={n.id}>
                <header>
                  <strong>{n.admin.name ?? `admin ${n.admin.id}`}</strong> <time>{when(n.created_at)}</time>
                </header>
                <p class="body">{n.body_text}</p>
              </li>
            ))}
          </ol>
          <Pager pages={pages} label="Notes" next={d.next_offset} total={d.total} shown={d.notes.length} />
        </>
      )}
    </Section>
  );
}

export function Events({ app, id }: { app: string; id: string }) {
  // The cursors of the pages shown so far: the last is the one on screen ('' is the newest page).
  const [cursors, setCursors] = useState<string[]>(['']);
  const before = cursors[cursors.length - 1] ?? '';
  const page = useLoad(() => api.events(app, id, before), [app, id, before]);
  const d = page.data;
  const first = (cursors.length - 1) * ACTIVITY_PAGE;
  return (
    <>
      <Section title={`Event summary (${d?.summaries.length ?? '…'} names)`}>
        <ErrorNote error={page.error} />
        {d && d.summaries.length === 0 && <p class="sub">No events.</p>}
        {d && d.summaries.length > 0 && (
          <div class="scroll">
            <table>
              <caption class="sr-only">Event summary</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col" class="num">Count</th>
                  <th scope="col" class="num">Held</th>
                  <th scope="col">First</th>
                  <th scope="col">Last</th>
                </tr>
              </thead>
              <tbody>
                {d.summaries.map((s) => (
                  <tr key={s.name}>
                    <th scope="row">{s.name}</th>
                    <td class="num">{s.count}</td>
                    <td class="num">{s.kept}</td>
                    <td>{when(s.first)}</td>
                    <td>{when(s.last)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
      {d && d.held > 0 && (
        <Section title={`Events (${d.held})`}>
          <div class="scroll">
            <table>
              <caption class="sr-only">Events, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Created</th>
                  <th scope="col">Metadata</th>
                </tr>
              </thead>
              <tbody>
                {d.events.map((e) => (
                  <tr key={e.id}>
                    <th scope="row">{e.event_name}</th>
                    <td>{when(e.created_at)}</td>
                    <td class="mono">{Object.keys(e.metadata).length === 0 ? '—' : show(e.metadata)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="Events"
            pages={{
              offset: first,
              go: (to) => setCursors((c) => (to === 0 ? [''] : d.next_before === null ? c : [...c, d.next_before])),
              back: () => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)),
              canBack: cursors.length > 1,
            }}
            next={d.next_before === null ? null : first + d.events.length}
            total={d.held}
            shown={d.events.length}
          />
        </Section>
      )}
    </>
  );
}
