// Records: customers (searchable, paged) and one customer's page; companies and their members;
// tags and segments with counts; conversations as threads. Switching what is shown is component
// state: a detail page is opened from a list and closed with Back.

import { useState } from 'preact/hooks';
import { Companies, CompanyPage } from './companies.js';
import { Conversations } from './conversations.js';
import { CustomerPage } from './customer.js';
import { Customers } from './customers.js';
import { Labels } from './labels.js';
import { ThreadPage } from './thread.js';

export type Open = { kind: 'customer' | 'company' | 'thread'; id: string } | undefined;
const TABS = ['Customers', 'Companies', 'Tags and segments', 'Conversations'] as const;
type Tab = (typeof TABS)[number];

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
