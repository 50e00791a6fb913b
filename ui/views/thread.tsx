// One conversation as a thread: the opening message, then its parts in the order they were added,
// each as plain text with its HTML source one click away (never rendered: nothing in a record can
// load anything), with who wrote it and when.

import { api, when, type Part, type Person } from '../api.js';
import { ErrorNote, Pager, Section, useLoad, usePages } from '../common.js';
import { StateBadge, who } from './conversations.js';

function Message({ author, at, kind, text, html, attachments }: { author: Person; at: number; kind: string; text: string | null; html: string | null; attachments: Part['attachments'] }) {
  return (
    <li class={`part part-${kind} by-${author.type}`}>
      <header>
        <strong>{who(author)}</strong> <span class="badge">{kind}</span> <time>{when(at)}</time>
      </header>
      {text !== null && text !== '' && <p class="body">{text}</p>}
      {html !== null && html !== '' && (
        <details>
          <summary>HTML</summary>
          <pre>{html}</pre>
        </details>
      )}
      {attachments.length > 0 && (
        <ul class="attachments">
          {attachments.map((a) => (
            <li key={a.url}>
              {a.name}: <span class="mono">{a.url}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function ThreadPage({ app, id, onOpenCustomer }: { app: string; id: string; onOpenCustomer: (id: string) => void }) {
  const pages = usePages();
  const { offset } = pages;
  const { data: thread, error } = useLoad(() => api.thread(app, id, offset), [app, id, offset]);
  const c = thread?.conversation;
  return (
    <>
      <ErrorNote error={error} />
      {c && thread && (
        <Section title={c.subject || 'Conversation'}>
          <p class="meta">
            <StateBadge state={c.state} />
            {c.snoozed_until !== null && ` until ${when(c.snoozed_until)}`} · assignee {who(c.assignee)} · waiting since {when(c.waiting_since)} · customers{' '}
            {c.customers.map((p, i) => (
              <span key={p.id}>
                {i > 0 && ', '}
                <a
                  href={`#customer-${p.id}`}
                  onClick={(e) => {
                    e.preventDefault();
                    onOpenCustomer(p.id);
                  }}
                >
                  {p.name ?? p.id}
                </a>
              </span>
            ))}
            {c.tags.length > 0 && ` · tags ${c.tags.map((t) => t.name).join(', ')}`}
          </p>
          <ol class="thread">
            {offset === 0 && <Message author={c.author} at={c.created_at} kind="opening message" text={c.body_text} html={c.body} attachments={c.attachments} />}
            {thread.parts.parts.map((p) => (
              <Message key={p.id} author={p.author} at={p.created_at} kind={p.part_type} text={p.body_text} html={p.body} attachments={p.attachments} />
            ))}
          </ol>
          <Pager pages={pages} label="Parts" next={thread.parts.next_offset} total={thread.parts.total} shown={thread.parts.parts.length} />
        </Section>
      )}
    </>
  );
}
