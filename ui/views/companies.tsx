// Companies with their user counts, and one company with a page of its members.

import { api, when } from '../api.js';
import { ErrorNote, Pager, Section, show, useLoad, usePages } from '../common.js';
import { Attributes } from './customer.js';
import { CustomerRows } from './customers.js';
import type { Open } from './records.js';

export function CompanyPage({ app, id, onOpen }: { app: string; id: string; onOpen: (o: Open) => void }) {
  const pages = usePages();
  const { offset } = pages;
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
            <Pager pages={pages} label="Members" next={d.members.next_offset} total={d.members.total} shown={d.members.customers.length} />
          </Section>
        </>
      )}
    </>
  );
}

export function Companies({ app, onOpen }: { app: string; onOpen: (id: string) => void }) {
  const pages = usePages();
  const { offset } = pages;
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
          <Pager pages={pages} label="Companies" next={page.data.next_offset} total={page.data.total} shown={page.data.companies.length} />
        </>
      )}
    </Section>
  );
}
