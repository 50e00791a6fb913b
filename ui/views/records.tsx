// Records: customers (searchable, paged) and one customer's page; companies and their members;
// tags and segments with counts; conversations as threads. Switching what is shown is component
// state: a detail page is opened from a list and closed with Back.

import { useState } from 'preact/hooks';
import { api, when, type CustomerSummary } from '../api.js';
import { ErrorNote, Pager, Section, show, useLoad } from '../common.js';
import { ThreadPage } from './thread.js';

type Open = { kind: 'customer' | 'company' | 'thread'; id: string } | undefined;
const TABS = ['Customers', 'Companies', 'Tags and segments', 'Conversations'] as const;
type Tab = (typeof TABS)[number];

function CustomerRows({ customers, onOpen }: { customers: CustomerSummary[]; onOpen: (id: string) => void }) {
  return (
    <div class="scroll">
      <table>
        <caption class="sr-only">Customers</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">user_id</th>
            <th scope="col">Type</th>
            <th scope="col">Created</th>
            <th scope="col">Last request</th>
          </tr>
        </thead>
        <tbody>
          {customers.map((c) => (
            <tr key={c.id}>
              <th scope="row">
                <a
                  href={`#customer-${c.id}`}
                  onClick={(e) => {
                    e.preventDefault();
                    onOpen(c.id);
                  }}
                >
                  {c.name ?? c.pseudonym ?? c.id}
                </a>
              </th>
              <td>{show(c.email)}</td>
              <td class="mono">{show(c.user_id)}</td>
              <td>{c.type === 'contact' ? 'lead' : c.type}</td>
              <td>{when(c.created_at)}</td>
              <td>{when(c.last_request_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const FIELDS = { name: 'Name contains', email: 'Email is', user_id: 'user_id is', tag_id: 'Has tag' } as const;

function Customers({ app, onOpen }: { app: string; onOpen: (id: string) => void }) {
  const [type, setType] = useState('user');
  const [field, setField] = useState<keyof typeof FIELDS>('name');
  const [text, setText] = useState('');
  const [query, setQuery] = useState<{ field: string; text: string; type: string }>({ field: 'name', text: '', type: 'user' });
  const [offset, setOffset] = useState(0);
  const tags = useLoad(() => api.tags(app, 0), [app]);
  const page = useLoad(() => api.customers({ app, type: query.type, offset, ...(query.text ? { [query.field]: query.text } : {}) }), [app, query, offset]);
  return (
    <Section title="Customers">
      <form
        class="search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setQuery({ field, text, type });
        }}
      >
        <label>
          Type{' '}
          <select value={type} onChange={(e) => setType(e.currentTarget.value)}>
            <option value="user">Users</option>
            <option value="contact">Leads</option>
            <option value="visitor">Visitors</option>
          </select>
        </label>
        <label>
          Search by{' '}
          <select value={field} onChange={(e) => setField(e.currentTarget.value as keyof typeof FIELDS)}>
            {Object.entries(FIELDS).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </label>
        {field === 'tag_id' ? (
          <label>
            Tag{' '}
            <select value={text} onChange={(e) => setText(e.currentTarget.value)}>
              <option value="">any</option>
              {(tags.data?.tags ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label>
            Search text <input type="search" value={text} onInput={(e) => setText(e.currentTarget.value)} />
          </label>
        )}
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={page.error} />
      {page.data && (
        <>
          <CustomerRows customers={page.data.customers} onOpen={onOpen} />
          {page.data.total === null && <p class="sub">Name search read {page.data.scanned} customers for this page.</p>}
          <Pager label="Customers" offset={offset} next={page.data.next_offset} total={page.data.total} shown={page.data.customers.length} onGo={setOffset} />
        </>
      )}
    </Section>
  );
}

function Attributes({ record, skip }: { record: Record<string, unknown>; skip: string[] }) {
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

function CustomerPage({ app, id, onOpen }: { app: string; id: string; onOpen: (o: Open) => void }) {
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
          <Section title={`Conversations (${d.conversations.total})`}>
            <ConversationRows rows={d.conversations.items} onOpen={(cid) => onOpen({ kind: 'thread', id: cid })} />
          </Section>
          <p class="sub">This mock keeps no events or notes for customers; the API it mocks has none here.</p>
        </>
      )}
    </>
  );
}

function CompanyPage({ app, id, onOpen }: { app: string; id: string; onOpen: (o: Open) => void }) {
  const [offset, setOffset] = useState(0);
  const page = useLoad(() => api.company(app, id, offset), [app, id, offset]);
  const d = page.data;
  return (
    <>
      <ErrorNote error={page.error} />
      {d && (
        <>
          <Section title={d.company.name}>
            <Attributes record={d.company as unknown as Record<string, unknown>} skip={[]} />
          </Section>
          <Section title={`Members (${d.members.total})`}>
            <CustomerRows customers={d.members.customers} onOpen={(cid) => onOpen({ kind: 'customer', id: cid })} />
            <Pager label="Members" offset={offset} next={d.members.next_offset} total={d.members.total} shown={d.members.customers.length} onGo={setOffset} />
          </Section>
        </>
      )}
    </>
  );
}

function Companies({ app, onOpen }: { app: string; onOpen: (id: string) => void }) {
  const [offset, setOffset] = useState(0);
  const page = useLoad(() => api.companies(app, offset), [app, offset]);
  return (
    <Section title="Companies">
      <ErrorNote error={page.error} />
      {page.data && (
        <>
          <div class="scroll">
            <table>
              <caption class="sr-only">Companies</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">company_id</th>
                  <th scope="col">Plan</th>
                  <th scope="col" class="num">Users and leads</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {page.data.companies.map((c) => (
                  <tr key={c.id}>
                    <th scope="row">
                      <a
                        href={`#company-${c.id}`}
                        onClick={(e) => {
                          e.preventDefault();
                          onOpen(c.id);
                        }}
                      >
                        {c.name}
                      </a>
                    </th>
                    <td class="mono">{c.company_id}</td>
                    <td>{show(c.plan)}</td>
                    <td class="num">{c.user_count}</td>
                    <td>{when(c.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Companies" offset={offset} next={page.data.next_offset} total={page.data.total} shown={page.data.companies.length} onGo={setOffset} />
        </>
      )}
    </Section>
  );
}

function Labels({ app }: { app: string }) {
  const [offset, setOffset] = useState(0);
  const tags = useLoad(() => api.tags(app, offset), [app, offset]);
  const segments = useLoad(() => api.segments(app), [app]);
  return (
    <div class="grid">
      <Section title="Tags">
        <ErrorNote error={tags.error} />
        <table>
          <caption class="sr-only">Tags</caption>
          <thead>
            <tr>
              <th scope="col">Tag</th>
              <th scope="col" class="num">Users and leads</th>
              <th scope="col" class="num">Companies</th>
            </tr>
          </thead>
          <tbody>
            {(tags.data?.tags ?? []).map((t) => (
              <tr key={t.id}>
                <th scope="row">
                  {t.name} <span class="sub mono">{t.id}</span>
                </th>
                <td class="num">{t.people}</td>
                <td class="num">{t.companies}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {tags.data && <Pager label="Tags" offset={offset} next={tags.data.next_offset} total={tags.data.total} shown={tags.data.tags.length} onGo={setOffset} />}
      </Section>
      <Section title="Segments">
        <ErrorNote error={segments.error} />
        <table>
          <caption class="sr-only">Segments</caption>
          <thead>
            <tr>
              <th scope="col">Segment</th>
              <th scope="col">Groups</th>
              <th scope="col" class="num">Members</th>
            </tr>
          </thead>
          <tbody>
            {(segments.data?.segments ?? []).map((s) => (
              <tr key={s.id}>
                <th scope="row">{s.name}</th>
                <td>{s.person_type === 'user' ? 'users and leads' : 'companies'}</td>
                <td class="num">{s.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
    </div>
  );
}

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

function Conversations({ app, onOpen }: { app: string; onOpen: (id: string) => void }) {
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

export function RecordsView({ app }: { app: string }) {
  const [tab, setTab] = useState<Tab>('Customers');
  const [trail, setTrail] = useState<NonNullable<Open>[]>([]);
  const open = trail[trail.length - 1];
  const push = (o: Open) => o && setTrail((t) => [...t, o]);
  return (
    <>
      <nav aria-label="Records" class="tabs sub-tabs">
        {TABS.map((t) => (
          <button
            type="button"
            key={t}
            aria-current={tab === t && !open ? 'page' : undefined}
            onClick={() => {
              setTrail([]);
              setTab(t);
            }}
          >
            {t}
          </button>
        ))}
      </nav>
      {open && (
        <button type="button" class="back" onClick={() => setTrail((t) => t.slice(0, -1))}>
          ← Back
        </button>
      )}
      {open?.kind === 'customer' && <CustomerPage key={open.id} app={app} id={open.id} onOpen={push} />}
      {open?.kind === 'company' && <CompanyPage key={open.id} app={app} id={open.id} onOpen={push} />}
      {open?.kind === 'thread' && <ThreadPage key={open.id} app={app} id={open.id} onOpenCustomer={(id) => push({ kind: 'customer', id })} />}
      {!open && tab === 'Customers' && <Customers app={app} onOpen={(id) => push({ kind: 'customer', id })} />}
      {!open && tab === 'Companies' && <Companies app={app} onOpen={(id) => push({ kind: 'company', id })} />}
      {!open && tab === 'Tags and segments' && <Labels app={app} />}
      {!open && tab === 'Conversations' && <Conversations app={app} onOpen={(id) => push({ kind: 'thread', id })} />}
    </>
  );
}
