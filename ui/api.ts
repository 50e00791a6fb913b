// The console's calls to the control plane, typed from the server's own answer builders (type-only
// imports: nothing of the server is bundled). Every call sends X-Admin-Token when one was given.

import type { appSummary } from '../src/console/apps.js';
import type { conversationSummary, threadHead, threadPart } from '../src/console/conversations.js';
import type { bulkJobSummary } from '../src/console/jobs.js';
import type { EventMetadata } from '../src/resources/events/log.js';
import type { companySummary, customerSummary } from '../src/console/records.js';
import type { Delivery, DeliveryAttempt } from '../src/console/webhooks.js';
import type { Fault } from '../src/admin/fault-rules.js';
import type { JournalEntry } from '../src/admin/journal-log.js';
import type { Company, Customer } from '../src/engine/types.js';
import type { SeedProgress } from '../src/engine/seeds-in-progress.js';

export type AppSummary = ReturnType<typeof appSummary>;
export type CustomerSummary = ReturnType<typeof customerSummary>;
export type ConversationSummary = ReturnType<typeof conversationSummary>;
export type BulkJobSummary = ReturnType<typeof bulkJobSummary>;
export type CompanyRow = ReturnType<typeof companySummary>;
export type Part = ReturnType<typeof threadPart>;
/** An author, assignee or customer as a thread names them. */
export type Person = Part['author'];
export interface Thread {
  conversation: ReturnType<typeof threadHead>;
  parts: Paged & { parts: Part[] };
}
export type { JournalEntry, Customer, Company, Delivery, DeliveryAttempt, Fault };

export interface Paged {
  total: number;
  next_offset: number | null;
}
export interface Clock {
  now: number;
  frozen: boolean;
}
export interface Named {
  id: string;
  name: string;
}
export interface Capped<T> {
  total: number;
  items: T[];
}
export interface AppsPage extends Paged {
  apps: AppSummary[];
  clock: Clock;
  data_dir: boolean;
  /** Seeds in progress (POST /__admin/seed, --watch). */
  seeding: SeedProgress[];
}
export interface CustomersPage {
  customers: CustomerSummary[];
  total: number | null;
  next_offset: number | null;
  scanned: number;
}
export interface CustomerPage {
  customer: Customer;
  companies: Capped<Named & { company_id: string }>;
  tags: Capped<Named>;
  segments: Capped<Named>;
  conversations: Capped<ConversationSummary>;
}
export interface NotesPage extends Paged {
  notes: { id: string; admin: { id: string; name: string | null }; body: string; body_text: string; created_at: number }[];
}
export interface EventsPage {
  events: { id: string; event_name: string; created_at: number; metadata: EventMetadata }[];
  next_before: string | null;
  held: number;
  summaries: { name: string; count: number; kept: number; first: number; last: number }[];
}
export interface CompanyPage {
  company: Company;
  members: Paged & { customers: CustomerSummary[] };
}
export interface Snapshot {
  app: string;
  name: string;
  created_at: number;
}

/** An answer in the API's error envelope, or a failure to reach the mock. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const TOKEN_KEY = 'messaging-api-mock.admin-token';
let adminToken = sessionStorage.getItem(TOKEN_KEY) ?? '';

export function setAdminToken(token: string): void {
  adminToken = token;
  sessionStorage.setItem(TOKEN_KEY, token);
}

type Query = Record<string, string | number | boolean | undefined | null>;

export function qs(query: Query): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

export async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (adminToken) headers['x-admin-token'] = adminToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  } catch {
    throw new ControlError(0, 'unreachable', 'The mock does not answer: is it still running?');
  }
  const json = (await res.json().catch(() => null)) as { errors?: { code: string; message: string }[] } | null;
  if (!res.ok) {
    const first = json?.errors?.[0];
    throw new ControlError(res.status, first?.code ?? 'error', json?.errors?.map((e) => e.message).join(' ') ?? `${res.status} ${res.statusText}`);
  }
  return json as T;
}

const enc = encodeURIComponent;
/** Notes and events per page on a customer's page. */
export const ACTIVITY_PAGE = 20;
/** Webhook deliveries per page in Traffic. */
export const DELIVERY_PAGE = 20;

export const api = {
  health: () => call<{ apps: string[]; clock: Clock }>('GET', '/__admin/health'),
  apps: (offset = 0, q = '', limit = 100) => call<AppsPage>('GET', `/__admin/apps${qs({ offset, limit, q })}`),
  /** One app's row; 404 once it is gone (a test app dropped as idle). */
  app: (id: string) => call<AppsPage>('GET', `/__admin/apps${qs({ app: id })}`),
  setClock: (body: { now?: number; advance?: number; frozen?: boolean }) => call<Clock>('POST', '/__admin/clock', body),
  reset: (app?: string) => call<{ reset: string[] }>('POST', `/__admin/reset${qs({ app })}`),
  runJobs: (app?: string) => call<{ ran: number }>('POST', `/__admin/jobs/run${qs({ app })}`),
  save: () => call<{ dir: string; saved: string[]; unchanged: string[] }>('POST', '/__admin/save'),
  snapshots: (app: string) => call<{ snapshots: Snapshot[] }>('GET', `/__admin/snapshots${qs({ app })}`),
  takeSnapshot: (app: string, name: string) => call<Snapshot>('POST', `/__admin/snapshots${qs({ app })}`, { name }),
  restoreSnapshot: (app: string, name: string) => call<unknown>('POST', `/__admin/snapshots/${enc(name)}/restore${qs({ app })}`),
  deleteSnapshot: (app: string, name: string) => call<unknown>('DELETE', `/__admin/snapshots/${enc(name)}${qs({ app })}`),
  customers: (query: Query) => call<CustomersPage>('GET', `/__admin/customers${qs(query)}`),
  customer: (app: string, id: string) => call<CustomerPage>('GET', `/__admin/customers/${enc(id)}${qs({ app })}`),
  notes: (app: string, id: string, offset: number) => call<NotesPage>('GET', `/__admin/customers/${enc(id)}/notes${qs({ app, offset, limit: ACTIVITY_PAGE })}`),
  events: (app: string, id: string, before: string) => call<EventsPage>('GET', `/__admin/customers/${enc(id)}/events${qs({ app, before, limit: ACTIVITY_PAGE })}`),
  bulkJobs: (app: string) => call<Paged & { jobs: BulkJobSummary[] }>('GET', `/__admin/bulk-jobs${qs({ app, limit: 100 })}`),
  companies: (app: string, offset: number) => call<Paged & { companies: CompanyRow[] }>('GET', `/__admin/companies${qs({ app, offset })}`),
  company: (app: string, id: string, offset: number) => call<CompanyPage>('GET', `/__admin/companies/${enc(id)}${qs({ app, offset })}`),
  tags: (app: string, offset: number) => call<Paged & { tags: (Named & { people: number; companies: number })[] }>('GET', `/__admin/tags${qs({ app, offset, limit: 100 })}`),
  segments: (app: string, offset: number) => call<Paged & { segments: (Named & { person_type: string; count: number })[] }>('GET', `/__admin/segments${qs({ app, offset, limit: 100 })}`),
  conversations: (app: string, offset: number) => call<Paged & { conversations: ConversationSummary[] }>('GET', `/__admin/conversations${qs({ app, offset })}`),
  thread: (app: string, id: string, offset: number) => call<Thread>('GET', `/__admin/conversations/${enc(id)}${qs({ app, offset, limit: 100 })}`),
  tail: (query: Query) => call<{ requests: JournalEntry[]; last_seq: number }>('GET', `/__admin/requests/tail${qs(query)}`),
  deliveries: (app: string, offset: number) => call<Paged & { deliveries: Delivery[] }>('GET', `/__admin/webhooks/deliveries${qs({ app, offset, limit: DELIVERY_PAGE })}`),
  faults: (app?: string) => call<{ faults: Fault[] }>('GET', `/__admin/faults${qs({ app })}`),
  addFault: (app: string | undefined, spec: Record<string, unknown>) => call<Fault>('POST', `/__admin/faults${qs({ app })}`, spec),
  removeFault: (id: number) => call<unknown>('DELETE', `/__admin/faults/${id}`),
};

/** Unix seconds as an ISO date and time (UTC), as the API's timestamps are. */
export const when = (t: number | null | undefined): string => (t === null || t === undefined ? '—' : new Date(t * 1000).toISOString().replace('.000Z', 'Z').replace('T', ' '));
