// Turns a complete fixture document into the shared, immutable base of an app (records plus
// indexes), after checking that every reference in it points at something that exists.

import { longerThan, tagNameKey } from '../core/normal-text.js';
import { MAX_SHORT_TEXT } from '../schemas/fields.js';
import { companyTallyKeys, customerTallyKeys, type AppBase, type Collections } from './app-state.js';
import type { AppState } from './app-state.js';
import { registerCustomAttributes } from './data-attributes.js';
import { FixtureError, type FixtureDocument } from './fixture-doc.js';
import { exportArchived } from './archive.js';
import type { DataAttribute } from './types.js';
import { DELETE_REQUESTS_TALLY, formerCustomers } from './deletion.js';
import { baseLog, type JoinLog } from './join-log.js';
import { companyKeys, conversationKeys, customerKeys } from './memberships.js';
import { conversationTallyKeys } from './conversation-state.js';
import { exportJobs, seedJobs } from './bulk-jobs.js';
import { addBytes } from './byte-budget.js';
import { queuedJobs } from './jobs.js';
import { noteBytes } from './notes.js';
import { exportEvents, seedEvents, type EventMaps } from './events.js';
import { exportActivityLogs, MAX_ACTIVITY_LOGS, seedActivityLogs } from './activity-logs.js';
import { each, runSteps, sortSteps, STEP_RECORDS, type Steps } from '../core/steps.js';

function eventsOf(app: AppState): Pick<FixtureDocument, 'events' | 'event_summaries' | 'event_log'> {
  const { customers, archived } = app.data;
  const { events, summaries, log } = exportEvents(app.data, (id) => archived.has(id) || (customers.get(id)?.type ?? 'visitor') !== 'visitor');
  return log ? { events, event_summaries: summaries, event_log: log } : { events, event_summaries: summaries };
}

function check(ok: boolean, path: string, problem: string): void {
  if (!ok) throw new FixtureError(path, problem);
}

function uniqueIds(items: readonly { id: string }[], section: string): Set<string> {
  return runSteps(uniqueIdSteps(items, section));
}

function* uniqueIdSteps(items: readonly { id: string }[], section: string): Steps<Set<string>> {
  const seen = new Set<string>();
  yield* each(`checking ${section}`, items, (item, i) => {
    check(!seen.has(item.id), `${section}[${i}].id`, `duplicate id "${item.id}"`);
    seen.add(item.id);
  });
  return seen;
}

function refs(list: readonly string[], known: Set<string>, path: string, what: string): void {
  list.forEach((id, i) => check(known.has(id), `${path}[${i}]`, `unknown ${what} "${id}"`));
}

function* checkReferences(doc: FixtureDocument): Steps<void> {
  const admins = uniqueIds(doc.admins, 'admins');
  const teams = uniqueIds(doc.teams, 'teams');
  const segments = uniqueIds(doc.segments, 'segments');
  const tags = uniqueIds(doc.tags, 'tags');
  const companies = uniqueIds(doc.companies, 'companies');
  const customers = yield* uniqueIdSteps(doc.customers, 'customers');
  uniqueIds(doc.conversations, 'conversations');
  for (const id of teams) check(!admins.has(id), 'teams', `id "${id}" is used by an admin and a team`);

  doc.teams.forEach((t, i) => refs(t.admin_ids, admins, `teams[${i}].admin_ids`, 'admin'));
  const tagNames = new Set<string>();
  doc.tags.forEach((t, i) => {
    // Names are stored trimmed and in NFC (normalize.ts): limits hold for that form, as for API writes.
    check(t.name !== '', `tags[${i}].name`, 'a tag name cannot be blank');
    check(!longerThan(t.name, MAX_SHORT_TEXT), `tags[${i}].name`, `longer than ${MAX_SHORT_TEXT} characters once trimmed and normalised (NFC)`);
    const key = tagNameKey(t.name);
    check(!tagNames.has(key), `tags[${i}].name`, `tag names are case-insensitive: "${t.name}" is taken`);
    tagNames.add(key);
  });
  doc.segments.forEach((s, i) => refs(s.rule_tags, tags, `segments[${i}].rule_tags`, 'tag'));
  const companyIds = new Set<string>();
  doc.companies.forEach((c, i) => {
    check(!companyIds.has(c.company_id), `companies[${i}].company_id`, `duplicate company_id "${c.company_id}"`);
    companyIds.add(c.company_id);
    refs(c.tags, tags, `companies[${i}].tags`, 'tag');
    refs(c.segments, segments, `companies[${i}].segments`, 'segment');
  });
  const archived = uniqueIds(doc.archived_customers, 'archived_customers');
  doc.archived_customers.forEach((c, i) => {
    check(!customers.has(c.id), `archived_customers[${i}].id`, `id "${c.id}" is also a live customer`);
    check(c.type === 'user', `archived_customers[${i}].type`, 'only users are archived');
  });
  const userIds = new Set<string>();
  const checkCustomer = (c: FixtureDocument['customers'][number], at: string) => {
    if (c.type === 'user') check(c.user_id !== null || c.email !== null, at, 'a user needs a user_id or an email');
    else check(c.user_id !== null, `${at}.user_id`, `a ${c.type === 'contact' ? 'lead' : 'visitor'} needs a user_id`);
    if (c.user_id !== null) {
      check(!userIds.has(c.user_id), `${at}.user_id`, `duplicate user_id "${c.user_id}"`);
      userIds.add(c.user_id);
    }
    check(c.type !== 'visitor' || c.email === null, `${at}.email`, 'a visitor has no email (an email makes it a lead)');
    if (c.email !== null) check(!longerThan(c.email, MAX_SHORT_TEXT), `${at}.email`, `longer than ${MAX_SHORT_TEXT} characters once trimmed, lower-cased and normalised (NFC)`);
    refs(c.companies, companies, `${at}.companies`, 'company');
    refs(c.tags, tags, `${at}.tags`, 'tag');
    refs(c.segments, segments, `${at}.segments`, 'segment');
  };
  yield* each('checking customers', doc.customers, (c, i) => checkCustomer(c, `customers[${i}]`));
  doc.archived_customers.forEach((c, i) => checkCustomer(c, `archived_customers[${i}]`));
  // Conversations outlive the people in them: archived ones, and deleted ones (former_customers).
  const former = new Set(doc.former_customers);
  const known = new Set([...archived, ...former]);
  yield* each('checking conversations', doc.customers, (c) => known.add(c.id));
  const authorOk = (a: { type: string; id: string }) =>
    a.type === 'admin' ? admins.has(a.id) : a.type === 'team' ? teams.has(a.id) : a.type === 'user' || a.type === 'lead' ? known.has(a.id) : true;
  yield* each('checking conversations', doc.conversations, (c, i) => {
    const at = `conversations[${i}]`;
    refs(c.customers, known, `${at}.customers`, 'customer');
    refs(c.tags, tags, `${at}.tags`, 'tag');
    check(authorOk(c.author), `${at}.author.id`, `unknown ${c.author.type} "${c.author.id}"`);
    if (c.assignee) check(authorOk(c.assignee), `${at}.assignee.id`, `unknown ${c.assignee.type} "${c.assignee.id}"`);
    const partIds = new Set<string>();
    c.parts.forEach((p, j) => {
      check(!partIds.has(p.id), `${at}.parts[${j}].id`, `duplicate part id "${p.id}"`);
      partIds.add(p.id);
      check(authorOk(p.author), `${at}.parts[${j}].author.id`, `unknown ${p.author.type} "${p.author.id}"`);
    });
  });
  const subscriptions = uniqueIds(doc.subscriptions ?? [], 'subscriptions');
  uniqueIds(doc.activity_logs ?? [], 'activity_logs');
  check((doc.activity_logs?.length ?? 0) <= MAX_ACTIVITY_LOGS, 'activity_logs', `at most ${MAX_ACTIVITY_LOGS} entries, the log's cap`);
  const tasks = new Set<string>();
  doc.bulk_jobs.forEach((j, i) =>
    j.tasks.forEach((t, k) => {
      check(!tasks.has(`${j.id}\u0000${t.id}`), `bulk_jobs[${i}].tasks[${k}].id`, `duplicate task id "${t.id}" in job "${j.id}"`);
      tasks.add(`${j.id}\u0000${t.id}`);
    }),
  );
  const queued = new Set<string>();
  doc.jobs.forEach((j, i) => {
    if (j.kind === 'bulk_task') check(tasks.has(`${j.job_id}\u0000${j.task_id}`), `jobs[${i}].task_id`, `unknown bulk task "${j.task_id}" of job "${j.job_id}"`);
    else if (j.kind === 'webhook') check(subscriptions.has(j.subscription_id), `jobs[${i}].subscription_id`, `unknown subscription "${j.subscription_id}"`);
    else check(customers.has(j.customer_id) || archived.has(j.customer_id), `jobs[${i}].customer_id`, `unknown customer "${j.customer_id}"`);
    if (j.kind === 'bulk_task') queued.add(`${j.job_id}\u0000${j.task_id}`);
  });
  // A pending task nothing will run would hold its job unfinished, and the app's job cap shut, for good.
  doc.bulk_jobs.forEach((j, i) =>
    j.tasks.forEach((t, k) => {
      check(t.state !== 'pending' || queued.has(`${j.id}\u0000${t.id}`), `bulk_jobs[${i}].tasks[${k}]`, `pending task "${t.id}" has no jobs entry of kind bulk_task to run it`);
    }),
  );
  const tokens = new Set(doc.app.tokens);
  for (const [token, admin] of Object.entries(doc.app.token_owners ?? {})) {
    check(tokens.has(token), 'app.token_owners', `"${token.slice(0, 100)}" is not one of the app's tokens`);
    check(admins.has(admin), 'app.token_owners', `unknown admin "${admin}" for token "${token.slice(0, 100)}"`);
  }
  const noteIds = new Set<string>();
  const people = new Map<string, string>();
  yield* each('checking notes', doc.customers, (c) => people.set(c.id, c.type));
  yield* each('checking notes', doc.notes, (n, i) => {
    check(!noteIds.has(n.id), `notes[${i}].id`, `duplicate id "${n.id}"`);
    noteIds.add(n.id);
    const type = people.get(n.customer) ?? (archived.has(n.customer) ? 'user' : undefined);
    check(type !== undefined && type !== 'visitor', `notes[${i}].customer`, `unknown user or lead "${n.customer}"`);
    check(admins.has(n.admin_id), `notes[${i}].admin_id`, `unknown admin "${n.admin_id}"`);
  });
  uniqueIds(doc.bulk_jobs, 'bulk_jobs');
  const attributeNames = new Set<string>();
  doc.data_attributes.forEach((a, i) => {
    check(!attributeNames.has(a.name), `data_attributes[${i}].name`, `duplicate data attribute "${a.name}"`);
    attributeNames.add(a.name);
  });
  const companyAttributeNames = new Set<string>();
  doc.company_data_attributes.forEach((a, i) => {
    check(!companyAttributeNames.has(a.name), `company_data_attributes[${i}].name`, `duplicate data attribute "${a.name}"`);
    companyAttributeNames.add(a.name);
  });
}

/** Appends in place while the base is being built (a copy per member made seeding quadratic in a company's size). */
function append(index: Map<string, string[]>, key: string, id: string): void {
  const list = index.get(key);
  if (list) list.push(id);
  else index.set(key, [id]);
}

function* logsOf(index: Map<string, string[]>): Steps<Map<string, JoinLog>> {
  const out = new Map<string, JoinLog>();
  let done = 0;
  for (const [key, ids] of index) {
    out.set(key, baseLog(ids));
    if (++done % STEP_RECORDS === 0) yield { phase: 'indexing', done, total: index.size };
  }
  return out;
}

const byId = <T extends { id: string }>(items: readonly T[]): Map<string, T> => new Map(items.map((x) => [x.id, x]));

/** `byId` for the lists that grow with the app. */
function* byIdSteps<T extends { id: string }>(items: readonly T[]): Steps<Map<string, T>> {
  const out = new Map<string, T>();
  yield* each('indexing', items, (x) => out.set(x.id, x));
  return out;
}

export const buildBase = (doc: FixtureDocument, objectCounter: number, keepOrder = false): AppBase => runSteps(buildBaseSteps(doc, objectCounter, keepOrder));

function numericMax(doc: FixtureDocument): number {
  let max = 0;
  for (const list of [doc.tags, doc.admins, doc.teams, doc.notes]) {
    for (const { id } of list) {
      const n = Number(id);
      if (Number.isSafeInteger(n) && n > max) max = n;
    }
  }
  return max;
}

/** `keepOrder`: the document lists customers in the app's own order (a --data-dir save), kept as it is. */
/**
 * An attribute exactly as a customer's write registers it (label = name, no description, no
 * options, writable, not archived): what an export or a save lists for a name only records held.
 * Anything more was declared, and stays when no record holds it.
 */
const isPlainRegistration = (a: DataAttribute): boolean =>
  a.label === a.name && a.description === '' && a.options === undefined && a.admin_id === undefined && a.api_writable && a.ui_writable && !a.archived;

/** Builds the base, pausing every STEP_RECORDS records of each pass. */
export function* buildBaseSteps(doc: FixtureDocument, objectCounter: number, keepOrder = false): Steps<AppBase> {
  yield* checkReferences(doc);
  // Customers are kept oldest first (and seeded company members join in that order), so lists are
  // read in store order instead of sorted on every request.
  if (!keepOrder) yield* sortSteps('sorting customers', doc.customers, (a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const dataAttributes = yield* registerCustomAttributes(doc.data_attributes, doc.customers);
  const byUserId = new Map<string, string>();
  const byEmail = new Map<string, string[]>();
  const members = new Map<string, string[]>();
  const byPhone = new Map<string, string[]>();
  yield* each('indexing customers', doc.customers, (c) => {
    if (c.user_id !== null) byUserId.set(c.user_id, c.id);
    if (c.email !== null) append(byEmail, c.email, c.id);
    if (c.phone) append(byPhone, c.phone, c.id);
    for (const companyId of c.companies) append(members, companyId, c.id);
  });
  // Seeded holders of a tag or segment are in list order (customers oldest first), then fixture order.
  const holders = new Map<string, string[]>();
  const hold = (keys: readonly string[], id: string) => {
    for (const key of new Set(keys)) append(holders, key, id);
  };
  yield* each('indexing customers', doc.customers, (c) => hold(customerKeys(c), c.id));
  yield* each('indexing companies', doc.companies, (c) => hold(companyKeys(c), c.id));
  yield* each('indexing conversations', doc.conversations, (c) => hold(conversationKeys(c), c.id));
  const tallies = new Map<string, number>();
  const count = (keys: readonly string[]) => {
    for (const k of keys) tallies.set(k, (tallies.get(k) ?? 0) + 1);
  };
  yield* each('counting customers', doc.customers, (c) => count(customerTallyKeys(c)));
  yield* each('counting companies', doc.companies, (c) => count(companyTallyKeys(c)));
  yield* each('counting conversations', doc.conversations, (c) => count(conversationTallyKeys(c)));
  if (doc.user_delete_requests > 0) tallies.set(DELETE_REQUESTS_TALLY, doc.user_delete_requests);
  const conversationsOf = new Map<string, string[]>();
  for (const c of doc.conversations) for (const id of c.customers) append(conversationsOf, id, c.id);
  const archivedEmails = new Map<string, string[]>();
  for (const c of doc.archived_customers) if (c.email !== null) append(archivedEmails, c.email, c.id);
  // Notes are kept in creation (id) order, so each person's log lists them oldest first.
  doc.notes.sort((a, b) => Number(a.id) - Number(b.id));
  const notesOf = new Map<string, string[]>();
  for (const n of doc.notes) append(notesOf, n.customer, n.id);
  for (const n of doc.notes) addBytes(tallies, 'notes', noteBytes(n));
  const eventMaps = { events: new Map(), eventKeys: new Map(), eventIds: new Map(), eventPeople: new Map(), eventSummaries: new Map(), tallies } satisfies EventMaps;
  const people = new Set<string>();
  yield* each('indexing customers', doc.customers, (c) => {
    if (c.type !== 'visitor') people.add(c.id);
  });
  for (const c of doc.archived_customers) people.add(c.id);
  const problem = seedEvents(eventMaps, doc, (id) => people.has(id));
  if (problem) throw new FixtureError(problem.path, problem.problem);
  const customers = yield* byIdSteps(doc.customers);
  const companies = yield* byIdSteps(doc.companies);
  const conversations = yield* byIdSteps(doc.conversations);
  const emailLogs = yield* logsOf(byEmail);
  const memberLogs = yield* logsOf(members);
  const holderLogs = yield* logsOf(holders);
  const phoneLogs = yield* logsOf(byPhone);
  const conversationLogs = yield* logsOf(conversationsOf);
  const notes = yield* byIdSteps(doc.notes);
  const noteLogs = yield* logsOf(notesOf);
  const archived = yield* byIdSteps(doc.archived_customers);
  const archivedEmailLogs = yield* logsOf(archivedEmails);
  const companyAttributes = yield* registerCustomAttributes(doc.company_data_attributes, doc.companies);
  const data: Collections<'base'> = {
    customers,
    companies,
    tags: byId(doc.tags),
    segments: byId(doc.segments),
    admins: byId(doc.admins),
    teams: byId(doc.teams),
    dataAttributes: new Map(dataAttributes.map((a) => [a.name, a])),
    conversations,
    byUserId,
    byEmail: emailLogs,
    emailSeqs: new Map(),
    byCompanyId: new Map(doc.companies.map((c) => [c.company_id, c.id])),
    members: memberLogs,
    memberSeqs: new Map(),
    tagByName: new Map(doc.tags.map((t) => [tagNameKey(t.name), t.id])),
    tallies,
    holders: holderLogs,
    holderSeqs: new Map(),
    byPhone: phoneLogs,
    phoneSeqs: new Map(),
    archived,
    archivedByUserId: new Map(doc.archived_customers.flatMap((c) => (c.user_id === null ? [] : [[c.user_id, c.id] as const]))),
    archivedEmails: archivedEmailLogs,
    archivedEmailSeqs: new Map(),
    conversationsOf: conversationLogs,
    conversationSeqs: new Map(),
    notes,
    notesOf: noteLogs,
    noteSeqs: new Map(),
    companyAttributes: new Map(companyAttributes.map((a) => [a.name, a])),
    ...seedJobs(doc.bulk_jobs, tallies),
    events: eventMaps.events,
    subscriptions: byId(doc.subscriptions ?? []),
    webhookFeeds: new Map(),
    feedLog: new Map(),
    activityLogs: seedActivityLogs(doc.activity_logs ?? [], tallies),
    eventKeys: eventMaps.eventKeys,
    eventIds: eventMaps.eventIds,
    eventPeople: eventMaps.eventPeople,
    eventSummaries: eventMaps.eventSummaries,
  };
  const jobs = [...doc.jobs].sort((a, b) => a.due_at - b.due_at || a.id - b.id);
  return {
    config: doc.app,
    data,
    jobs,
    counters: { object: objectCounter, numeric: numericMax(doc) + 1, job: jobs.reduce((m, j) => Math.max(m, j.id), 0) + 1 },
    partsTotal: doc.conversations.reduce((sum, c) => sum + c.parts.length, 0),
    declaredAttributes: new Set(doc.data_attributes.filter((a) => !isPlainRegistration(a)).map((a) => a.name)),
  };
}

/** The app's current state as a complete fixture document. */
export function exportState(app: AppState): FixtureDocument {
  const d = app.data;
  return {
    app: { ...app.config },
    admins: [...d.admins.values()],
    teams: [...d.teams.values()],
    segments: [...d.segments.values()],
    tags: [...d.tags.values()],
    data_attributes: [...d.dataAttributes.values()],
    companies: [...d.companies.values()],
    customers: [...d.customers.values()],
    conversations: [...d.conversations.values()],
    // A deleted customer's pending job would do nothing when due, so it is not kept.
    jobs: queuedJobs(app).filter((j) => j.kind === 'bulk_task' || j.kind === 'webhook' || d.customers.has(j.customer_id) || d.archived.has(j.customer_id)),
    archived_customers: exportArchived(app),
    user_delete_requests: app.tally(DELETE_REQUESTS_TALLY),
    former_customers: formerCustomers(app),
    notes: [...d.notes.values()],
    company_data_attributes: [...d.companyAttributes.values()],
    ...eventsOf(app),
    bulk_jobs: exportJobs(app),
    // Only when there are some, so the exports of apps without webhooks stay as they were.
    ...(d.subscriptions.size > 0 ? { subscriptions: [...d.subscriptions.values()] } : {}),
    ...(d.activityLogs.size > 0 ? { activity_logs: exportActivityLogs(app) } : {}),
  };
}
