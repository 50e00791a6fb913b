// Customers: users, leads or visitors searched by name, email, user_id or tag, a page at a time.

import { useState } from 'preact/hooks';
import { api, when, type CustomerSummary } from '../api.js';
import { ErrorNote, Pager, Section, show, useLoad, usePages } from '../common.js';

export function CustomerRows({ customers, onOpen }: { customers: CustomerSummary[]; onOpen: (id: string) => void }) {
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

export function Customers({ app, onOpen }: { app: string; onOpen: (id: string) => void }) {
  const [type, setType] = useState('user');
  const [field, setField] = useState<keyof typeof FIELDS>('name');
  const [text, setText] = useState('');
  const [query, setQuery] = useState<{ field: string; text: string; type: string }>({ field: 'name', text: '', type: 'user' });
  const pages = usePages();
  const { offset } = pages;
  const tags = useLoad(() => api.tags(app, 0), [app]);
  const page = useLoad(() => api.customers({ app, type: query.type, offset, ...(query.text ? { [query.field]: query.text } : {}) }), [app, query, offset]);
  return (
    <Section title="Customers">
      <form
        class="search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          pages.reset();
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
          <Pager pages={pages} label="Customers" next={page.data.next_offset} total={page.data.total} shown={page.data.customers.length} />
        </>
      )}
    </Section>
  );
}
