// Conversations, most recently updated first, a page at a time, each with its lifecycle: open,
// closed or snoozed (until when), who it is assigned to and since when the customer has waited.

import { api, when, type ConversationSummary, type Person } from '../api.js';
import { ErrorNote, Pager, Section, useLoad, usePages } from '../common.js';

export const StateBadge = ({ state }: { state: string }) => <span class={`badge ${state}`}>{state}</span>;

export const who = (p: Person | null): string => (p ? `${p.name ?? p.id} (${p.type})` : '—');

export function ConversationRows({ rows, onOpen }: { rows: ConversationSummary[]; onOpen: (id: string) => void }) {
  return (
    <div class="scroll">
      <table>
        <caption class="sr-only">Conversations</caption>
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">State</th>
            <th scope="col">Assignee</th>
            <th scope="col">Waiting since</th>
            <th scope="col" class="num">Customers</th>
            <th scope="col" class="num">Parts</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.id}>
              <th scope="row">
                <a
                  href={`#conversation-${c.id}`}
                  onClick={(e) => {
                    e.preventDefault();
                    onOpen(c.id);
                  }}
                >
                  {c.subject || c.id}
                </a>
              </th>
              <td>
                <StateBadge state={c.state} />
                {c.snoozed_until !== null && <div class="sub">until {when(c.snoozed_until)}</div>}
              </td>
              <td>{who(c.assignee)}</td>
              <td>{when(c.waiting_since)}</td>
              <td class="num">{c.customers}</td>
              <td class="num">{c.parts}</td>
              <td>{when(c.updated_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Conversations({ app, onOpen }: { app: string; onOpen: (id: string) => void }) {
  const pages = usePages();
  const { offset } = pages;
  const page = useLoad(() => api.conversations(app, offset), [app, offset]);
  return (
    <Section title="Conversations">
      <ErrorNote error={page.error} />
      {page.data && (
        <>
          <ConversationRows rows={page.data.conversations} onOpen={onOpen} />
          <Pager pages={pages} label="Conversations" next={page.data.next_offset} total={page.data.total} shown={page.data.conversations.length} />
        </>
      )}
    </Section>
  );
}
