// Conversations, most recently updated first, a page at a time.

import { useState } from 'preact/hooks';
import { api, when } from '../api.js';
import { ErrorNote, Pager, Section, useLoad } from '../common.js';

export function ConversationRows({ rows, onOpen }: { rows: { id: string; subject: string; open: boolean; parts: number; customers: number; updated_at: number; assignee: { type: string; id: string } | null }[]; onOpen: (id: string) => void }) {
  return (
    <div class="scroll">
      <table>
        <caption class="sr-only">Conversations</caption>
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">State</th>
            <th scope="col">Assignee</th>
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
                <span class={c.open ? 'badge open' : 'badge'}>{c.open ? 'open' : 'closed'}</span>
              </td>
              <td>{c.assignee ? `${c.assignee.type} ${c.assignee.id}` : '—'}</td>
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
  const [offset, setOffset] = useState(0);
  const page = useLoad(() => api.conversations(app, offset), [app, offset]);
  return (
    <Section title="Conversations">
      <ErrorNote error={page.error} />
      {page.data && (
        <>
          <ConversationRows rows={page.data.conversations} onOpen={onOpen} />
          <Pager label="Conversations" offset={offset} next={page.data.next_offset} total={page.data.total} shown={page.data.conversations.length} onGo={setOffset} />
        </>
      )}
    </Section>
  );
}
