// Isolation between apps: a token of app A reads, writes, counts and tags only A, even when it
// names records by ids copied from app B's responses; the control plane's per-app routes with
// ?app=A never touch B.

import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/resources/index.js';
import type { RouteDef } from '../../src/http/route.js';
import { errorCodes, mock, type CallResult, type TestMock } from '../helpers.js';
import { ADA } from '../fixture-ids.js';

interface AppSide {
  app: string;
  token: string;
}
const DEMO: AppSide = { app: 'demo', token: 'demo-token' };
const OTHER: AppSide = { app: 'other', token: 'other-token' };

/** B's records, made through HTTP with B's token, and what B's responses said about them. */
interface BRecords {
  user: { id: string; user_id: string; email: string };
  lead: { id: string; user_id: string; email: string };
  visitor: { id: string; user_id: string };
  company: { id: string; company_id: string };
  tag: { id: string; name: string };
  conversation: string;
  admin: string;
  segment: string;
  team: string;
  note: string;
  /** A bulk job of B's, finished. */
  job: string;
  /** A webhook subscription of B's. */
  subscription: string;
}

const exportOf = async (m: TestMock, app: string) => (await m.app.request(`/__admin/state?app=${app}`)).text();

async function ok(m: TestMock, method: string, path: string, token: string, body?: unknown): Promise<CallResult> {
  m.clock.advance(10); // other's allowance is 20 a window
  const res = await m.call(method, path, { token, ...(body === undefined ? {} : { body }) });
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${res.text.slice(0, 300)}`);
  return res;
}

/** Gives B a user, a lead, a visitor, a company, a tag and a conversation of its own. */
async function populate(m: TestMock, b: AppSide): Promise<BRecords> {
  const canary = `canary-${b.app}`;
  const user = await ok(m, 'POST', '/users', b.token, {
    user_id: `iso-${b.app}-user`,
    email: `iso-${b.app}@example.com`,
    name: `${canary} person`,
    custom_attributes: { [`${canary}_attr`]: `${canary} secret value` },
    companies: [{ company_id: `iso-${b.app}-co`, name: `${canary} company`, custom_attributes: { [`${canary}_co_attr`]: 1 } }],
  });
  const lead = await ok(m, 'POST', '/contacts', b.token, { email: `iso-${b.app}-lead@example.com`, name: `${canary} lead` });
  const company = user.body.companies.companies[0] as { id: string; company_id: string };
  const tag = await ok(m, 'POST', '/tags', b.token, { name: `${canary} tag`, users: [{ id: user.body.id }], companies: [{ id: company.id }] });
  // Visitors and conversations come only from fixtures: merge one of each into B over HTTP.
  const merged = await ok(m, 'POST', '/__admin/seed?mode=merge', b.token, {
    app: { id: b.app, tokens: [b.token] },
    customers: [{ id: `${b.app}visitor0001`, type: 'visitor', user_id: `iso-${b.app}-visitor-uuid`, name: `${canary} visitor` }],
    segments: [{ id: `${b.app}segment0001`, name: `${canary} segment`, person_type: 'user' }],
    conversations: [{ id: `${b.app}conv0001`, customers: [user.body.id], author: { type: 'user', id: user.body.id }, subject: `${canary} subject`, body: `<p>${canary} body</p>` }],
  });
  expect(merged.body.app).toBe(b.app);
  const admins = (await ok(m, 'GET', '/admins', b.token)).body.admins as { id: string }[];
  const teams = (await ok(m, 'GET', '/teams', b.token)).body.teams as { id: string }[];
  // An activity log entry of B's (GET /admins/activity_logs).
  if (admins[0]) await ok(m, 'PUT', `/admins/${admins[0].id}/away`, b.token, { away_mode_enabled: true, away_mode_reassign: false });
  const note = await ok(m, 'POST', '/notes', b.token, { body: `${canary} note`, user: { id: user.body.id } });
  await ok(m, 'POST', '/events', b.token, { event_name: `${canary} event`, created_at: 1_767_300_000, id: user.body.id, metadata: { secret: `${canary} metadata` } });
  const job = await ok(m, 'POST', '/bulk/events', b.token, { items: [{ method: 'post', data: { event_name: `${canary} bulk event`, created_at: 1_767_300_000, id: lead.body.id } }] });
  const subscription = await ok(m, 'POST', '/subscriptions', b.token, { url: `http://127.0.0.1:9/canary-${b.app}-hook`, topics: ['user.created'], hub_secret: `canary-${b.app} hub secret` });
  // Pending enrichment and bulk tasks would run on B's next read and look like a change made by A.
  await ok(m, 'POST', `/__admin/jobs/run?app=${b.app}`, b.token);
  return {
    user: { id: user.body.id, user_id: user.body.user_id, email: user.body.email },
    lead: { id: lead.body.id, user_id: lead.body.user_id, email: lead.body.email },
    visitor: { id: `${b.app}visitor0001`, user_id: `iso-${b.app}-visitor-uuid` },
    company,
    tag: { id: tag.body.id, name: tag.body.name },
    conversation: `${b.app}conv0001`,
    admin: admins[0]?.id ?? '',
    segment: `${b.app}segment0001`,
    team: teams[0]?.id ?? '',
    note: note.body.id,
    job: job.body.id,
    subscription: subscription.body.id,
  };
}

/** What identifies or describes B's records: ids, user_ids, emails, names, attributes, subjects. */
function valuesOf(exported: string): Set<string> {
  const doc = JSON.parse(exported) as Record<string, Record<string, unknown>[]>;
  const out = new Set<string>();
  const add = (...xs: unknown[]) => xs.forEach((x) => typeof x === 'string' && out.add(x));
  for (const c of doc.customers ?? []) {
    add(c.id, c.user_id, c.email, c.name, c.pseudonym, c.phone);
    for (const [k, v] of Object.entries((c.custom_attributes ?? {}) as Record<string, unknown>)) add(k, v);
  }
  for (const c of doc.companies ?? []) {
    // The plan too: a company list shows every company's, and A's own plan names are not B's.
    add(c.id, c.company_id, c.name, c.plan);
    for (const [k, v] of Object.entries((c.custom_attributes ?? {}) as Record<string, unknown>)) add(k, v);
  }
  for (const section of ['tags', 'segments', 'admins', 'teams']) for (const r of doc[section] ?? []) add(r.id, r.name, r.email);
  for (const c of doc.conversations ?? []) add(c.id, c.subject, c.body);
  for (const a of doc.data_attributes ?? []) add(a.name);
  for (const a of doc.company_data_attributes ?? []) add(a.name);
  for (const n of doc.notes ?? []) add(n.body);
  for (const e of doc.events ?? []) add(e.id, e.event_name, ...Object.values((e.metadata ?? {}) as Record<string, unknown>));
  for (const sub of doc.subscriptions ?? []) add(sub.id, sub.url, sub.hub_secret);
  for (const log of doc.activity_logs ?? []) add(log.activity_description);
  for (const j of doc.bulk_jobs ?? []) add(j.id, ...((j.tasks ?? []) as { id: string }[]).map((t) => t.id));
  return out;
}

interface Probe {
  method: string;
  path: string;
  body?: unknown;
  /** B's record named in the path: the answer must be a 404. */
  missing?: boolean;
  /** Request headers (Intercom-Version for the operations of one API version). */
  headers?: Record<string, string>;
}

const enc = encodeURIComponent;
const V14 = { 'intercom-version': '1.4' };

/**
 * An operation's docs example as a probe: it names the demo app's records, so with the other app's
 * token it asks about B's records. The probe of an operation that has none of its own below (a new
 * one is covered from the day it lands; probes of its own can ask more).
 */
function exampleProbe(route: RouteDef): Probe {
  const { params = {}, query = {}, body } = route.examples ?? {};
  let path = route.path;
  for (const [name, value] of Object.entries(params)) path = path.replace(`{${name}}`, enc(value));
  const search = new URLSearchParams(Object.entries(query).flatMap(([name, value]) => (value === '' ? [] : [[name, String(value)] as [string, string]])));
  return { method: route.method, path: search.size > 0 ? `${path}?${search}` : path, ...(body === undefined ? {} : { body }) };
}

/** Every API operation, asked about B's records with A's token. */
function probes(b: BRecords, aConversation: string | undefined): Record<string, Probe[]> {
  const customerRefs = [{ id: b.user.id }, { user_id: b.user.user_id }, { email: b.user.email }, { id: b.lead.id }];
  const companyRefs = [{ id: b.company.id }, { company_id: b.company.company_id }];
  const asIdentity = [{ intercom_user_id: b.user.id }, { service_user_id: b.user.id }, { user_id: b.user.user_id }, { email: b.user.email }];
  const inA = aConversation === undefined ? [] : [aConversation];
  return {
    getUser: [b.user.id, b.lead.id, b.user.user_id, b.user.email].map((id) => ({ method: 'GET', path: `/users/${enc(id)}`, missing: true })),
    listUsers: [
      { method: 'GET', path: `/users?email=${enc(b.user.email)}`, headers: { 'intercom-version': '1.0' } },
      { method: 'GET', path: `/users?user_id=${enc(b.user.user_id)}`, headers: V14 },
      ...[
        `?user_id=${enc(b.user.user_id)}`,
        `?email=${enc(b.user.email)}`,
        '',
        '?per_page=60&page=3',
        `?tag_id=${b.tag.id}`,
        `?segment_id=${b.segment}`,
        '?sort=updated_at&per_page=60',
        '?created_since=1&order=asc',
      ].map((q) => ({ method: 'GET', path: `/users${q}` })),
    ],
    // The slot is per app: A's scroll lists A's records; an id of B's is no scroll_param of A's.
    scrollUsers: ['', `?scroll_param=${enc(b.user.id)}`].map((q) => ({ method: 'GET', path: `/users/scroll${q}` })),
    upsertUser: [
      { method: 'POST', path: '/users', body: { id: b.user.id, name: 'A wrote this' } },
      { method: 'POST', path: '/users', body: { id: b.lead.id } },
      { method: 'POST', path: '/users', body: { user_id: b.user.user_id, name: 'A side user' } },
      { method: 'POST', path: '/users', body: { email: b.user.email, custom_attributes: { a_side: true } } },
      { method: 'POST', path: '/users', body: { user_id: 'a-side-user', companies: [{ company_id: b.company.company_id, name: 'A side company' }] } },
    ],
    upsertLead: [{ id: b.lead.id }, { user_id: b.lead.user_id }, { email: b.lead.email }].map((body) => ({ method: 'POST', path: '/contacts', body })),
    getLead: [b.lead.id, b.visitor.id].map((id) => ({ method: 'GET', path: `/contacts/${id}`, missing: true })),
    listLeads: [`?email=${enc(b.lead.email)}`, '', `?tag_id=${b.tag.id}`, `?segment_id=${b.segment}`, `?user_id=${enc(b.lead.user_id)}`, '?phone=x'].map((q) => ({
      method: 'GET',
      path: `/contacts${q}`,
    })),
    scrollLeads: [{ method: 'GET', path: '/contacts/scroll' }],
    searchCustomers: [
      { field: 'id', operator: '=', value: b.user.id },
      { field: 'email', operator: '~', value: b.user.email },
      { field: 'tag_id', operator: '=', value: b.tag.id },
      { operator: 'OR', value: [{ field: 'segment_id', operator: '=', value: b.segment }, { field: 'user_id', operator: 'IN', value: [b.user.user_id, b.lead.user_id] }] },
    ].map((query) => ({ method: 'POST', path: '/customers/search', body: { query }, headers: { 'intercom-version': 'Unstable' } })),
    updateVisitor: [{ id: b.visitor.id }, { user_id: b.visitor.user_id, email: 'a-side@example.com' }].map((body) => ({ method: 'PUT', path: '/visitors', body })),
    updateVisitorByPost: [{ id: b.visitor.id, name: 'A' }, { user_id: b.visitor.user_id }].map((body) => ({ method: 'POST', path: '/visitors', body })),
    convertVisitor: [
      { type: 'lead', visitor: { id: b.visitor.id } },
      { type: 'user', visitor: { user_id: b.visitor.user_id }, user: { id: b.user.id } },
      { type: 'user', visitor: { id: b.visitor.id }, user: { email: b.user.email } },
    ].map((body) => ({ method: 'POST', path: '/visitors/convert', body })),
    findCompany: [
      `?company_id=${enc(b.company.company_id)}`,
      `?company_id=${enc(b.company.company_id)}&type=user`,
      `?company_id=${enc(b.company.company_id)}&type=users`,
      `?name=${enc(`canary-${b.segment.replace('segment0001', '')} company`)}`,
      '?per_page=60',
      `?tag_id=${b.tag.id}`,
    ].map((q) => ({ method: 'GET', path: `/companies${q}` })),
    deleteCompany: [{ method: 'DELETE', path: `/companies/${b.company.id}`, missing: true }],
    upsertCompany: [{ method: 'POST', path: '/companies', body: { company_id: b.company.company_id, name: 'A side company', plan: 'a-plan' } }],
    getCompany: [b.company.id, b.company.company_id].map((id) => ({ method: 'GET', path: `/companies/${enc(id)}`, missing: true })),
    listCompanyUsers: [b.company.id, b.company.company_id].map((id) => ({ method: 'GET', path: `/companies/${enc(id)}/users`, missing: true })),
    listCustomerDataAttributes: [{ method: 'GET', path: '/data_attributes/customer?include_archived=true' }],
    getCounts: ['', '?type=company&count=tag', '?type=company&count=user', '?type=company&count=segment', '?type=user&count=tag', '?type=user&count=segment', '?type=conversation', '?type=conversation&count=admin'].map((q) => ({
      method: 'GET',
      path: `/counts${q}`,
    })),
    scrollCompanies: [{ method: 'GET', path: '/companies/scroll' }],
    saveTag: [
      { name: b.tag.name },
      { id: b.tag.id, name: 'A renamed it' },
      ...customerRefs.map((ref) => ({ name: 'A side tag', users: [ref] })),
      ...customerRefs.map((ref) => ({ name: 'A side tag', users: [{ ...ref, untag: true }] })),
      ...companyRefs.map((ref) => ({ name: 'A side tag', companies: [ref] })),
    ].map((body) => ({ method: 'POST', path: '/tags', body })),
    listTags: [{ method: 'GET', path: '/tags' }, { method: 'GET', path: `/tags?name=${enc(b.tag.name)}` }],
    getTag: [{ method: 'GET', path: `/tags/${b.tag.id}` }],
    renameTag: [{ method: 'PUT', path: `/tags/${b.tag.id}`, body: { name: 'A renamed it by PUT' } }],
    deleteTag: [{ method: 'DELETE', path: `/tags/${b.tag.id}` }],
    listSegments: ['', '?include_count=true', '?type=company&include_count=true'].map((q) => ({ method: 'GET', path: `/segments${q}` })),
    getSegment: [{ method: 'GET', path: `/segments/${b.segment}?include_count=true`, missing: true }],
    updateSegment: [{ method: 'POST', path: '/segments', body: { id: b.segment, name: 'A renamed it' }, missing: true }],
    listAdmins: [{ method: 'GET', path: '/admins' }, { method: 'GET', path: '/admins', headers: V14 }],
    getAdmin: [{ method: 'GET', path: `/admins/${b.admin}`, missing: true }],
    listActivityLogs: [{ method: 'GET', path: '/admins/activity_logs?created_at_after=0&per_page=60', headers: V14 }],
    getMe: [{ method: 'GET', path: '/me' }],
    setAdminAway: [{ method: 'PUT', path: `/admins/${b.admin}/away`, body: { away_mode_enabled: true, away_mode_reassign: true }, missing: true }],
    listTeams: [{ method: 'GET', path: '/teams' }],
    getTeam: [{ method: 'GET', path: `/teams/${b.team}`, missing: true }],
    createNote: [
      ...customerRefs.map((user) => ({ method: 'POST', path: '/notes', body: { body: 'A side note', user } })),
      { method: 'POST', path: '/notes', body: { body: 'A side note', email: b.user.email } },
    ],
    listNotes: [`?id=${b.user.id}`, `?intercom_user_id=${b.lead.id}`, `?user_id=${enc(b.user.user_id)}`, `?email=${enc(b.user.email)}`].map((q) => ({ method: 'GET', path: `/notes${q}` })),
    getNote: [{ method: 'GET', path: `/notes/${b.note}`, missing: true }],
    listCompanyDataAttributes: [{ method: 'GET', path: '/data_attributes/company?include_archived=true' }],
    listDataAttributes: ['customer', 'company'].map((model) => ({ method: 'GET', path: `/data_attributes?model=${model}&include_archived=true`, headers: V14 })),
    listConversations: [
      '?per_page=60',
      '?sort=waiting_since&per_page=60',
      '?type=admin&admin_id=nobody&per_page=60',
      `?type=admin&admin_id=${b.admin === '' ? '0' : b.admin}&per_page=60`,
      `?type=user&intercom_user_id=${b.user.id}`,
      `?type=user&user_id=${enc(b.user.user_id)}`,
      `?type=user&email=${enc(b.user.email)}`,
      `?type=user&intercom_user_id=${b.lead.id}&unread=true`,
    ].map((q) => ({ method: 'GET', path: `/conversations${q}` })),
    getConversation: [{ method: 'GET', path: `/conversations/${b.conversation}`, missing: true }],
    addConversationCustomer: [
      { method: 'POST', path: `/conversations/${b.conversation}/customers`, body: { admin_id: b.admin, customer: { email: 'a-side@example.com' } } },
      ...inA.flatMap((c) => [
        { method: 'POST', path: `/conversations/${c}/customers`, body: { admin_id: b.admin, customer: { email: 'a-side@example.com' } } },
        ...asIdentity.map((who) => ({ method: 'POST', path: `/conversations/${c}/customers`, body: { ...who, customer: { email: 'a-side@example.com' } } })),
        ...asIdentity.slice(0, 3).map((who) => ({ method: 'POST', path: `/conversations/${c}/customers`, body: { admin_id: b.admin === '' ? '0' : b.admin, customer: who } })),
      ]),
    ],
    replyToConversation: [
      { method: 'POST', path: `/conversations/${b.conversation}/reply`, body: { type: 'admin', admin_id: b.admin, message_type: 'comment', body: 'A' } },
      ...inA.flatMap((c) => [
        { method: 'POST', path: `/conversations/${c}/reply`, body: { type: 'admin', admin_id: b.admin, message_type: 'note', body: 'A' } },
        ...asIdentity.map((who) => ({ method: 'POST', path: `/conversations/${c}/reply`, body: { type: 'user', ...who, message_type: 'comment', body: 'A' } })),
      ]),
    ],
    // Conversations and messages (issue 14): B's customers, admins, visitors and conversations named from A.
    markConversationRead: [{ method: 'PUT', path: `/conversations/${b.conversation}`, body: { read: true }, missing: true }],
    markConversationReadByPost: [{ method: 'POST', path: `/conversations/${b.conversation}`, body: { read: true }, missing: true }],
    markConversationReadByReplyPath: [{ method: 'PUT', path: `/conversations/${b.conversation}/reply`, body: { read: true }, missing: true }],
    runAssignmentRules: [{ method: 'POST', path: `/conversations/${b.conversation}/run_assignment_rules`, missing: true }],
    replyToLastConversation: [
      ...asIdentity.map((who) => ({ method: 'POST', path: '/conversations/last/reply', body: { type: 'user', ...who, message_type: 'comment', body: 'A' } })),
      ...asIdentity.map((who) => ({ method: 'POST', path: '/conversations/last/reply', body: { type: 'admin', admin_id: b.admin === '' ? '0' : b.admin, ...who, message_type: 'close' } })),
    ],
    createMessage: [
      ...customerRefs.map((to) => ({ method: 'POST', path: '/messages', body: { message_type: 'email', subject: 'A', body: 'A', from: { type: 'admin', id: b.admin === '' ? '0' : b.admin }, to } })),
      ...customerRefs.map((from) => ({ method: 'POST', path: '/messages', body: { body: 'A', from: { type: 'user', ...from } } })),
      { method: 'POST', path: '/messages', body: { body: 'A', from: { type: 'contact', id: b.lead.id } } },
      { method: 'POST', path: '/messages', body: { body: 'A', from: { type: 'contact', user_id: b.visitor.user_id } } },
      { method: 'POST', path: '/messages', body: { body: 'A', from: { type: 'contact', id: b.visitor.id } } },
    ],
    archiveUserById: [b.user.id, b.user.user_id].map((id) => ({ method: 'DELETE', path: `/users/${enc(id)}`, missing: true })),
    archiveUser: [`?id=${b.user.id}`, `?user_id=${enc(b.user.user_id)}`, `?email=${enc(b.user.email)}`].map((q) => ({ method: 'DELETE', path: `/users${q}` })),
    requestUserDeletion: [b.user.id, b.lead.id].map((id) => ({ method: 'POST', path: '/user_delete_requests', body: { intercom_user_id: id } })),
    convertLead: [
      { contact: { id: b.lead.id }, user: { email: 'a-side@example.com' } },
      { contact: { user_id: b.lead.user_id }, user: { user_id: 'a-side-convert' } },
      ...customerRefs.slice(0, 3).map((user) => ({ contact: { user_id: b.lead.user_id }, user })),
    ].map((body) => ({ method: 'POST', path: '/contacts/convert', body })),
    deleteLeadById: [{ method: 'DELETE', path: `/contacts/${b.lead.id}`, missing: true }],
    deleteLead: [`?id=${b.lead.id}`, `?user_id=${enc(b.lead.user_id)}`].map((q) => ({ method: 'DELETE', path: `/contacts${q}` })),
    updateLeadById: [{ method: 'PUT', path: `/contacts/${b.lead.id}`, body: { name: 'A' }, missing: true }],
    updateLead: [{ id: b.lead.id, name: 'A' }, { user_id: b.lead.user_id, name: 'A' }].map((body) => ({ method: 'PUT', path: '/contacts', body })),
    getVisitor: [{ method: 'GET', path: `/visitors/${b.visitor.id}`, missing: true }],
    findVisitor: [{ method: 'GET', path: `/visitors?user_id=${enc(b.visitor.user_id)}` }],
    deleteVisitor: [{ method: 'DELETE', path: `/visitors/${b.visitor.id}`, missing: true }],
    updateVisitorById: [{ method: 'PUT', path: `/visitors/${b.visitor.id}`, body: { name: 'A' }, missing: true }],
    submitEvent: [...customerRefs, { user_id: b.lead.user_id }].map((who) => ({ method: 'POST', path: '/events', body: { event_name: 'A side', created_at: 1_767_300_000, ...who }, missing: true })),
    listEvents: [`intercom_user_id=${b.user.id}`, `user_id=${enc(b.user.user_id)}`, `email=${enc(b.user.email)}`, `intercom_user_id=${b.lead.id}&summary=true`].map((q) => ({
      method: 'GET',
      path: `/events?type=user&${q}`,
      missing: true,
    })),
    bulkUsers: [
      { method: 'POST', path: '/bulk/users', body: { items: [{ method: 'post', data: { user_id: 'a-side-bulk' } }], job: { id: b.job } }, missing: true },
      { method: 'POST', path: '/bulk/users', body: { items: customerRefs.slice(0, 3).map((data) => ({ method: 'delete', data })) } },
    ],
    bulkEvents: [
      { method: 'POST', path: '/bulk/events', body: { items: [{ method: 'post', data: { event_name: 'A', created_at: 1_767_300_000, id: b.user.id } }], job: { id: b.job } }, missing: true },
      { method: 'POST', path: '/bulk/events', body: { items: customerRefs.map((who) => ({ method: 'post', data: { event_name: 'A', created_at: 1_767_300_000, ...who } })) } },
    ],
    getJob: [{ method: 'GET', path: `/jobs/${b.job}`, missing: true }],
    getJobErrors: [{ method: 'GET', path: `/jobs/${b.job}/error`, missing: true }],
    updateJob: [{ method: 'POST', path: `/jobs/${b.job}`, body: {}, missing: true }],
    createSubscription: [{ method: 'POST', path: '/subscriptions', body: { url: 'http://127.0.0.1:9/a-side', topics: ['user.created'] } }],
    listSubscriptions: [{ method: 'GET', path: '/subscriptions' }],
    getSubscription: [{ method: 'GET', path: `/subscriptions/${b.subscription}`, missing: true }],
    updateSubscription: [{ method: 'POST', path: `/subscriptions/${b.subscription}`, body: { active: false }, missing: true }],
    replaceSubscription: [{ method: 'PUT', path: `/subscriptions/${b.subscription}`, body: { topics: ['user.deleted'] }, missing: true }],
    deleteSubscription: [{ method: 'DELETE', path: `/subscriptions/${b.subscription}`, missing: true }],
    pingSubscription: [{ method: 'POST', path: `/subscriptions/${b.subscription}/ping`, missing: true }],
    retrySubscription: [{ method: 'POST', path: `/subscriptions/${b.subscription}/retry`, missing: true }],
    getSubscriptionSent: [{ method: 'GET', path: `/subscriptions/${b.subscription}/sent`, missing: true }],
    getSubscriptionError: [{ method: 'GET', path: `/subscriptions/${b.subscription}/error`, missing: true }],
    getSubscriptionErrors: [{ method: 'GET', path: `/subscriptions/${b.subscription}/errors`, missing: true }],
  };
}

/** Every app_id in a body: records answered to A must be A's. */
function appIds(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => appIds(x, out));
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'app_id' && typeof x === 'string') out.push(x);
      else appIds(x, out);
    }
  }
  return out;
}

describe('an operation probed by its example', () => {
  it('asks about the demo app\'s record the example names, and with the other app\'s token gets a 404', async () => {
    const route = ROUTES.find((r) => r.operationId === 'getUser') as RouteDef;
    const probe = exampleProbe(route);
    expect(probe).toEqual({ method: 'GET', path: `/users/${ADA}` });
    const listed = exampleProbe(ROUTES.find((r) => r.operationId === 'listUsers') as RouteDef);
    expect(listed.path.startsWith('/users?')).toBe(true);
    // Blank examples are not sent, as on the docs page.
    expect(listed.path).not.toMatch(/=(&|$)/);
    const m = mock();
    expect((await m.call(probe.method, probe.path, { token: 'demo-token' })).status).toBe(200);
    const other = await m.call(probe.method, probe.path, { token: OTHER.token });
    expect(other.status).toBe(404);
    expect(errorCodes(other)).toEqual(['not_found']);
  });
});

describe.each([
  { a: DEMO, b: OTHER },
  { a: OTHER, b: DEMO },
])('a token of $a.app against the records of $b.app', ({ a, b }) => {
  it('covers every API operation of the registry, and never reads, writes, counts or tags B', async () => {
    const m = mock({ rateLimit: 1_000_000_000 });
    const records = await populate(m, b);
    const aConversation = (JSON.parse(await exportOf(m, a.app)).conversations as { id: string }[])[0]?.id;
    const matrix = probes(records, aConversation);
    const apiRoutes = ROUTES.filter((r) => r.scope === 'app');
    // Probes of their own name only operations of the registry; every other one is probed by its example.
    expect(Object.keys(matrix).filter((id) => !apiRoutes.some((r) => r.operationId === id))).toEqual([]);
    for (const route of apiRoutes) matrix[route.operationId] ??= [exampleProbe(route)];

    const bBefore = await exportOf(m, b.app);
    // B's values that A's seeded data does not also hold (both apps have an ada-1, an acme, a VIP).
    const aValues = valuesOf(await exportOf(m, a.app));
    const markers = [...valuesOf(bBefore)].filter((v) => !aValues.has(v) && v.length >= 3);
    expect(markers).toEqual(expect.arrayContaining([records.user.id, records.tag.name, records.company.id, `canary-${b.app} secret value`, `<p>canary-${b.app} note</p>`, `canary-${b.app}_co_attr`]));

    let sent = '';
    for (const [operationId, list] of Object.entries(matrix)) {
      expect(list.length, operationId).toBeGreaterThan(0);
      for (const probe of list) {
        const where = `${operationId}: ${probe.method} ${probe.path} ${JSON.stringify(probe.body ?? '')}`;
        m.clock.advance(10);
        const res = await m.call(probe.method, probe.path, { token: a.token, ...(probe.body === undefined ? {} : { body: probe.body }), ...(probe.headers ? { headers: probe.headers } : {}) });
        expect(res.status, where).toBeLessThan(500);
        if (res.status >= 400) errorCodes(res);
        if (probe.missing) expect(res.status, where).toBe(404);
        // Nothing of B that A has not sent itself (and so may hold in records of its own) comes
        // back, in a record, a count or a message.
        sent += ` ${decodeURIComponent(probe.path)} ${JSON.stringify(probe.body ?? '')}`;
        const leaked = markers.filter((v) => !sent.includes(v) && res.text.includes(JSON.stringify(v)));
        expect(leaked, `${where} → ${res.status} ${res.text.slice(0, 200)}`).toEqual([]);
        for (const id of appIds(res.body)) expect(id, where).toBe(a.app);
        expect(await exportOf(m, b.app), `${where} changed ${b.app}`).toBe(bBefore);
      }
    }
    // And B still sees its own records as it left them.
    expect((await ok(m, 'GET', `/users/${records.user.id}`, b.token)).body.name).toBe(`canary-${b.app} person`);
    expect((await ok(m, 'GET', `/companies/${records.company.id}`, b.token)).body.tags.tags.map((t: any) => t.id)).toContain(records.tag.id);
  });
});

describe('the control plane\'s per-app routes', () => {
  /** demo and other each changed through the API, so a reset or restore has something to undo. */
  async function twoChangedApps() {
    const m = mock({ rateLimit: 1_000_000_000 });
    await ok(m, 'POST', '/users', DEMO.token, { user_id: 'changed-demo' });
    await ok(m, 'POST', '/users', OTHER.token, { user_id: 'changed-other', last_seen_ip: '8.8.8.8' });
    return m;
  }

  it.each([
    ['?app=demo', {}],
    ['', { authorization: 'Bearer demo-token' }],
  ])('state, reset and jobs named by %s act on demo only', async (query, headers) => {
    const m = await twoChangedApps();
    const otherBefore = await exportOf(m, 'other');
    const state = await m.call('GET', `/__admin/state${query}`, { token: null, headers });
    expect(state.body.app.id).toBe('demo');
    expect(state.text).not.toContain('changed-other');
    const reset = await m.call('POST', `/__admin/reset${query}`, { token: null, headers });
    expect(reset.body).toEqual({ reset: ['demo'] });
    expect((await m.call('GET', '/users?user_id=changed-demo')).status).toBe(404);
    // other's enrichment job is still pending after demo's jobs ran.
    expect((await m.call('POST', `/__admin/jobs/run${query}`, { token: null, headers })).body).toEqual({ ran: 0 });
    expect(await exportOf(m, 'other')).toBe(otherBefore);
    expect(JSON.parse(otherBefore).jobs).toHaveLength(1);
  });

  it('a snapshot of demo is demo\'s alone: other cannot list, restore or delete it, and restoring demo leaves other alone', async () => {
    const m = await twoChangedApps();
    expect((await m.call('POST', '/__admin/snapshots?app=demo', { token: null, body: { name: 'iso' } })).status).toBe(201);
    await ok(m, 'POST', '/users', DEMO.token, { user_id: 'after-snapshot' });
    await ok(m, 'POST', '/users', OTHER.token, { user_id: 'other-after-snapshot' });
    const otherBefore = await exportOf(m, 'other');
    expect((await m.call('GET', '/__admin/snapshots?app=other', { token: null })).body).toEqual({ snapshots: [] });
    for (const [method, path] of [['POST', '/__admin/snapshots/iso/restore?app=other'], ['DELETE', '/__admin/snapshots/iso?app=other']] as const) {
      const res = await m.call(method, path, { token: null });
      expect(res.status).toBe(404);
      expect(errorCodes(res)).toEqual(['not_found']);
    }
    expect((await m.call('POST', '/__admin/snapshots/iso/restore', { token: null, headers: { authorization: 'Bearer other-token' } })).status).toBe(404);
    expect((await m.call('POST', '/__admin/snapshots/iso/restore?app=demo', { token: null })).status).toBe(200);
    expect((await m.call('GET', '/users?user_id=after-snapshot')).status).toBe(404);
    expect(await exportOf(m, 'other')).toBe(otherBefore);
    expect((await m.call('GET', '/__admin/snapshots?app=demo', { token: null })).body.snapshots.map((s: any) => s.name)).toEqual(['iso']);
  });

  it('the journal of demo lists, counts and clears demo\'s requests only', async () => {
    const m = await twoChangedApps();
    const listed = (await m.call('GET', '/__admin/requests?app=demo', { token: null })).body.requests as { app: string }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(listed.map((e) => e.app))).toEqual(new Set(['demo']));
    expect((await m.call('POST', '/__admin/requests/count?app=demo', { token: null, body: {} })).body.count).toBe(listed.length);
    const otherCount = (await m.call('POST', '/__admin/requests/count?app=other', { token: null, body: {} })).body.count as number;
    expect(otherCount).toBeGreaterThan(0);
    expect((await m.call('DELETE', '/__admin/requests?app=demo', { token: null })).body).toEqual({ cleared: listed.length });
    expect((await m.call('POST', '/__admin/requests/count?app=other', { token: null, body: {} })).body.count).toBe(otherCount);
    expect((await m.call('GET', '/__admin/requests?app=other', { token: null })).body.requests.every((e: any) => e.app === 'other')).toBe(true);
  });

  it('a fault for demo answers demo\'s requests only, and other\'s lists and clears do not see it', async () => {
    const m = await twoChangedApps();
    const fault = await m.call('POST', '/__admin/faults?app=demo', { token: null, body: { error: 'server_error' } });
    expect(fault.status).toBe(201);
    expect((await m.call('GET', '/admins')).status).toBe(500);
    expect((await m.call('GET', '/admins', { token: OTHER.token })).status).toBe(200);
    expect((await m.call('GET', '/__admin/faults?app=other', { token: null })).body).toEqual({ faults: [] });
    expect((await m.call('DELETE', '/__admin/faults?app=other', { token: null })).body).toEqual({ removed: 0 });
    expect((await m.call('GET', '/__admin/faults?app=demo', { token: null })).body.faults.map((f: any) => f.id)).toEqual([fault.body.id]);
    expect((await m.call('GET', '/admins')).status).toBe(500);
  });

it('DELETE /__admin/faults/{id}?app=other cannot remove a fault of demo', async () => {
    const m = await twoChangedApps();
    const fault = await m.call('POST', '/__admin/faults?app=demo', { token: null, body: { error: 'server_error' } });
    const res = await m.call('DELETE', `/__admin/faults/${fault.body.id}?app=other`, { token: null });
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['not_found']);
    expect((await m.call('GET', '/admins')).status).toBe(500);
    expect((await m.call('DELETE', `/__admin/faults/${fault.body.id}?app=demo`, { token: null })).body).toEqual({ removed: 1 });
    expect((await m.call('GET', '/admins')).status).toBe(200);
  });

  it('seeding one app leaves the other exactly as it was', async () => {
    const m = await twoChangedApps();
    const otherBefore = await exportOf(m, 'other');
    const res = await m.call('POST', '/__admin/seed', { token: null, body: { app: { id: 'demo', tokens: ['demo-token'] }, customers: [{ id: 'fresh0001', user_id: 'ada-1' }] } });
    expect(res.status).toBe(200);
    expect(await exportOf(m, 'other')).toBe(otherBefore);
    expect((await m.call('GET', '/users?user_id=ada-1', { token: OTHER.token })).body.id).toBe('5a1b2c3d4e5f60718293b001');
  });

  it('a seed document cannot take over another app\'s token', async () => {
    const m = await twoChangedApps();
    const otherBefore = await exportOf(m, 'other');
    const res = await m.call('POST', '/__admin/seed', { token: null, body: { app: { id: 'thief', tokens: ['other-token'] } } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect((await m.call('GET', '/admins', { token: OTHER.token })).body.admins.map((x: any) => x.id)).toContain('42');
    expect(await exportOf(m, 'other')).toBe(otherBefore);
  });
});
