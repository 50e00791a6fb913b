// One customer's page: attributes, custom attributes, companies, tags, segments, notes, events
// and their summary, conversations.

import { api, when } from '../api.js';
import { ErrorNote, Section, show, useLoad } from '../common.js';
import { ConversationRows } from './conversations.js';
import { Events, Notes } from './person-activity.js';
import type { Open } from './records.js';

export function Attributes({ record, skip }: { record: Record<string, unknown>; skip: string[] }) {
  return (
    <dl class="attrs">
      {Object.entries(record)
        .filter(([k]) => !skip.includes(k))
        .map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd class={typeof v === 'object' && v !== null ? 'mono' : undefined}>{k.endsWith('_at') && typeof v === 'number' ? `${when(v)} (${v})` : show(v)}</dd>
          </div>
        ))}
    </dl>
  );
}

export function CustomerPage({ app, id, onOpen }: { app: string; id: string; onOpen: (o: Open) => void }) {
  const page = useLoad(() => api.customer(app, id), [app, id]);
  const d = page.data;
  return (
    <>
      <ErrorNote error={page.error} />
      {d && (
        <>
          <Section title={`${d.customer.name ?? d.customer.pseudonym ?? d.customer.id} (${d.customer.type === 'contact' ? 'lead' : d.customer.type})`}>
            <Attributes record={d.customer as unknown as Record<string, unknown>} skip={['companies', 'tags', 'segments', 'custom_attributes']} />
          </Section>
          <Section title="Custom attributes">
            {Object.keys(d.customer.custom_attributes).length === 0 ? <p class="sub">None.</p> : <Attributes record={d.customer.custom_attributes} skip={[]} />}
          </Section>
          <div class="grid">
            <Section title={`Companies (${d.companies.total})`}>
              <ul>
                {d.companies.items.map((c) => (
                  <li key={c.id}>
                    <a
                      href={`#company-${c.id}`}
                      onClick={(e) => {
                        e.preventDefault();
                        onOpen({ kind: 'company', id: c.id });
                      }}
                    >
                      {c.name}
                    </a>{' '}
                    <span class="sub mono">{c.company_id}</span>
                  </li>
                ))}
              </ul>
            </Section>
            <Section title={`Tags (${d.tags.total})`}>
              <ul class="chips">{d.tags.items.map((t) => <li key={t.id}>{t.name}</li>)}</ul>
            </Section>
            <Section title={`Segments (${d.segments.total})`}>
              <ul class="chips">{d.segments.items.map((s) => <li key={s.id}>{s.name}</li>)}</ul>
            </Section>
          </div>
          {d.customer.type !== 'visitor' && (
            <>
              <Notes app={app} id={d.customer.id} />
              <Events app={app} id={d.customer.id} />
            </>
          )}
          <Section title={`Conversations (${d.conversations.total})`}>
            <ConversationRows rows={d.conversations.items} onOpen={(cid) => onOpen({ kind: 'thread', id: cid })} />
          </Section>
        </>
      )}
    </>
  );
}
