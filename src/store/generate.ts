// Faker-made bulk records appended to a fixture document. Everything is drawn from one Faker and
// one Random seeded from (store seed, app id), so the same seed always yields the same data set.

import { locationForIp } from '../core/cities.js';
import { machinePart, objectId } from '../core/ids.js';
import { hashSeed, Random } from '../core/random.js';
import type { Steps } from '../core/steps.js';
import type { AppLimits, Collections } from './app-state.js';
import type { Faker } from './faker.js';
import { FixtureError, type FixtureDocument, type GenerateSpec } from './fixture-doc.js';
import { emptyCompany, emptyCustomer, REFERENCE_TIME } from './normalize.js';
import { pseudonym } from './pseudonym.js';
import type { Author, Company, Conversation, ConversationPart, Customer, CustomAttributeValue, DataAttribute } from './types.js';

const YEAR = 365 * 24 * 3600;
const PLANS = ['free', 'starter', 'pro', 'enterprise'];

/**
 * Refuses bulk past the app's record limits before anything is generated, so one seed request
 * costs at most what the limits allow (each `generate` count is checked on its own and with the
 * others of its kind).
 */
export function checkGenerateCaps(spec: GenerateSpec, limits: AppLimits): void {
  let customers = 0;
  for (const key of ['users', 'leads', 'visitors'] as const) {
    customers += spec[key] ?? 0;
    if (customers > limits.customers) {
      throw new FixtureError(`generate.${key}`, `at most ${limits.customers} customers (users, leads and visitors together) may be generated: the app's record limit (--max-customers)`);
    }
  }
  if ((spec.companies ?? 0) > limits.companies) {
    throw new FixtureError('generate.companies', `at most ${limits.companies} companies may be generated: the app's record limit (--max-companies)`);
  }
  // Each generated conversation brings at least one part (up to five, counted as they are made).
  let parts = spec.conversations ?? 0;
  if (parts > limits.parts) throw partsOverLimit('generate.conversations', limits.parts);
  for (const [conversationId, count] of Object.entries(spec.parts ?? {})) {
    parts += count;
    if (parts > limits.parts) throw partsOverLimit(`generate.parts.${conversationId}`, limits.parts);
  }
}

/**
 * A merge lays records over an app that already holds some, so its generate caps alone would let
 * repeated merges grow the app without end: what the merge leaves must be within the limits too.
 */
export function checkMergedTotals(doc: FixtureDocument, spec: GenerateSpec | undefined, limits: AppLimits): void {
  const generated = (keys: readonly (keyof GenerateSpec)[]) => keys.find((k) => spec?.[k] !== undefined && spec[k] !== 0);
  const over = (count: number, limit: number, what: string, flag: string, field: string) => {
    if (count > limit) throw new FixtureError(field, `the merge would leave the app with ${count} ${what}: at most ${limit}, the app's record limit (${flag})`);
  };
  const customerKey = generated(['users', 'leads', 'visitors']);
  over(doc.customers.length + doc.archived_customers.length, limits.customers, 'customers', '--max-customers', customerKey ? `generate.${customerKey}` : 'customers');
  over(doc.companies.length, limits.companies, 'companies', '--max-companies', generated(['companies']) ? 'generate.companies' : 'companies');
  over(doc.notes.length, limits.notes, 'notes', 'limits.notes', 'notes');
  over(countParts(doc.conversations), limits.parts, 'conversation parts', '--max-parts', generated(['conversations', 'parts']) ? `generate.${generated(['conversations', 'parts'])}` : 'conversations');
}

export const countParts = (conversations: readonly { parts?: readonly unknown[] }[]): number =>
  conversations.reduce((sum, c) => sum + (c.parts?.length ?? 0), 0);

export function partsOverLimit(path: string, limit: number): FixtureError {
  return new FixtureError(path, `at most ${limit} conversation parts may be generated (a generated conversation brings 1 to 5): the app's record limit (--max-parts)`);
}

/** Identifiers an app already holds, which a merge's generated records must not reuse. */
export interface Taken {
  id(id: string): boolean;
  userId(userId: string): boolean;
  email(email: string): boolean;
  companyId(companyId: string): boolean;
}

export function takenIdentifiers(app: { data: Collections<'live'> }): Taken {
  const d = app.data;
  return {
    id: (id) => d.customers.has(id) || d.archived.has(id) || d.companies.has(id) || d.conversations.has(id),
    userId: (userId) => d.byUserId.has(userId) || d.archivedByUserId.has(userId),
    email: (email) => d.byEmail.has(email),
    companyId: (companyId) => d.byCompanyId.has(companyId),
  };
}

const NOTHING_TAKEN: Taken = { id: () => false, userId: () => false, email: () => false, companyId: () => false };

interface Ctx {
  doc: FixtureDocument;
  faker: Faker;
  random: Random;
  nextId: () => string;
  taken: ReturnType<typeof takenWithDocument>;
  /** Next number to try for `gen-user-N` and `gen-company-N`. */
  numbers: { user: number; company: number };
  /** The parts generation may add (the app's limit) and how many it has added. */
  parts: { cap: number; made: number };
  /** What records pick from, listed once per phase: per record, a walk of the document would make generation quadratic. */
  lists: Lists;
}

interface Lists {
  tagIds: string[];
  adminIds: string[];
  companySegments: string[];
  userSegments: string[];
  writableAttributes: DataAttribute[];
  /** Filled once the companies are made. */
  companyIds: string[];
  /** Users and leads, filled once the customers are made. */
  people: Customer[];
}

/** A taken check over what the app holds and what the document holds, updated as records are made. */
function takenWithDocument(doc: FixtureDocument, app: Taken): Taken & { add(kind: keyof Taken, value: string): void } {
  const sets = {
    id: new Set([...doc.customers, ...doc.archived_customers, ...doc.companies, ...doc.conversations].map((r) => r.id)),
    userId: new Set([...doc.customers, ...doc.archived_customers].map((c) => c.user_id).filter((u): u is string => u !== null)),
    email: new Set(doc.customers.map((c) => c.email).filter((e): e is string => e !== null)),
    companyId: new Set(doc.companies.map((c) => c.company_id)),
  };
  return {
    id: (v) => sets.id.has(v) || app.id(v),
    userId: (v) => sets.userId.has(v) || app.userId(v),
    email: (v) => sets.email.has(v) || app.email(v),
    companyId: (v) => sets.companyId.has(v) || app.companyId(v),
    add: (kind, value) => void sets[kind].add(value),
  };
}

/**
 * Appends generated records to `doc` and returns the next free object-id counter. Ids, user_ids,
 * emails and company_ids skip any the document or `appTaken` (the app a merge lands in) holds.
 * Yields every STEP_RECORDS records; what it draws depends only on its arguments, so pausing
 * changes nothing as long as nobody else draws from `faker` meanwhile.
 */
export function* generateSteps(
  doc: FixtureDocument,
  spec: GenerateSpec,
  faker: Faker,
  seed: number,
  counter: number,
  appTaken: Taken = NOTHING_TAKEN,
  partsCap = Infinity,
): Steps<number> {
  // A later batch (a merge into an app that already generated) draws new people, not the first batch again.
  const batch = counter === 1 ? [] : [counter];
  faker.seed(hashSeed(seed, doc.app.id, 'generate', ...batch));
  const random = new Random(hashSeed(seed, doc.app.id, 'generate-random', ...batch));
  const machine = machinePart(seed, doc.app.id);
  const taken = takenWithDocument(doc, appTaken);
  let n = counter;
  const nextId = (): string => {
    let id = objectId(REFERENCE_TIME - YEAR, machine, n++);
    while (taken.id(id)) id = objectId(REFERENCE_TIME - YEAR, machine, n++);
    return id;
  };
  const lists: Lists = {
    tagIds: doc.tags.map((t) => t.id),
    adminIds: doc.admins.map((a) => a.id),
    companySegments: doc.segments.filter((s) => s.person_type === 'company').map((s) => s.id),
    userSegments: doc.segments.filter((s) => s.person_type === 'user').map((s) => s.id),
    writableAttributes: doc.data_attributes.filter((a) => !a.archived),
    // Stryker disable next-line ArrayDeclaration: equivalent, set below before anything reads it
    companyIds: [],
    // Stryker disable next-line ArrayDeclaration: equivalent, as above
    people: [],
  };
  const ctx: Ctx = { doc, faker, random, nextId, taken, numbers: { user: 1, company: 1 }, parts: { cap: partsCap, made: 0 }, lists };

  yield* repeat('generating companies', spec.companies, () => doc.companies.push(makeCompany(ctx)));
  lists.companyIds = doc.companies.map((co) => co.id);
  yield* repeat('generating users', spec.users, (i) => doc.customers.push(makeCustomer(ctx, 'user', i)));
  yield* repeat('generating leads', spec.leads, (i) => doc.customers.push(makeCustomer(ctx, 'contact', i)));
  yield* repeat('generating visitors', spec.visitors, (i) => doc.customers.push(makeCustomer(ctx, 'visitor', i)));
  lists.people = doc.customers.filter((c) => c.type !== 'visitor');
  yield* repeat('generating conversations', spec.conversations, () => {
    const conversation = makeConversation(ctx);
    if (conversation) doc.conversations.push(conversation);
  });
  const conversationIndex = new Map(doc.conversations.map((c, i) => [c.id, i]));
  for (const [conversationId, count] of Object.entries(spec.parts ?? {})) {
    const index = conversationIndex.get(conversationId);
    const target = index === undefined ? undefined : doc.conversations[index];
    if (target && index !== undefined) doc.conversations[index] = withParts(ctx, target, count);
  }
  return n;
}

/** Records generated between two pause places: a generated record costs tens of microseconds. */
const GENERATE_STEP = 50;

/** `make(i)` for i below `count`, with a pause place every GENERATE_STEP. */
function* repeat(phase: string, count = 0, make: (i: number) => void): Steps<void> {
  for (let i = 0; i < count; i++) {
    make(i);
    if ((i + 1) % GENERATE_STEP === 0) yield { phase, done: i + 1, total: count };
  }
}

function past(ctx: Ctx, maxAgeSeconds: number): number {
  return REFERENCE_TIME - 1 - ctx.random.int(maxAgeSeconds);
}

function subset<T>(ctx: Ctx, items: readonly T[], max: number): T[] {
  const out = new Set<T>();
  const want = ctx.random.int(max + 1);
  for (let i = 0; i < want && items.length > 0; i++) out.add(ctx.random.pick(items));
  return [...out];
}

/** `<prefix>N` with the lowest N from `numbers[kind]` on that is not taken. */
function numbered(ctx: Ctx, kind: 'user' | 'company'): string {
  const check = kind === 'user' ? ctx.taken.userId : ctx.taken.companyId;
  let value = `gen-${kind}-${ctx.numbers[kind]++}`;
  while (check(value)) value = `gen-${kind}-${ctx.numbers[kind]++}`;
  // Stryker disable next-line all: equivalent, numbered values never repeat within a run (the counter moves on); the sets guard against the document's and the app's
  ctx.taken.add(kind === 'user' ? 'userId' : 'companyId', value);
  return value;
}

function uniqueUuid(ctx: Ctx): string {
  let value = ctx.random.uuid();
  while (ctx.taken.userId(value)) value = ctx.random.uuid();
  ctx.taken.add('userId', value);
  return value;
}

/** The faker-made address, or `<local>.<type><i>@…` when taken (then `-2`, `-3`… after it). */
function uniqueEmail(ctx: Ctx, email: string, type: Customer['type'], i: number): string {
  let value = email;
  for (let n = 1; ctx.taken.email(value); n++) value = email.replace('@', `.${type}${i}${n === 1 ? '' : `-${n}`}@`);
  ctx.taken.add('email', value);
  return value;
}

function makeCompany(ctx: Ctx): Company {
  const at = past(ctx, 3 * YEAR);
  return {
    ...emptyCompany(ctx.nextId(), numbered(ctx, 'company'), at),
    name: ctx.faker.company.name(),
    updated_at: at + ctx.random.int(REFERENCE_TIME - at),
    remote_created_at: at,
    monthly_spend: ctx.random.int(2000) * 5,
    plan: ctx.random.pick(PLANS),
    size: 1 + ctx.random.int(500),
    website: `https://${ctx.faker.internet.domainName()}`,
    industry: ctx.faker.commerce.department(),
    session_count: ctx.random.int(400),
    tags: subset(ctx, ctx.lists.tagIds, 2),
    segments: subset(ctx, ctx.lists.companySegments, 2),
  };
}

function publicIp(ctx: Ctx): string {
  // First octets chosen from public unicast ranges so the address always has a location.
  const first = ctx.random.pick([23, 31, 45, 52, 62, 81, 89, 101, 134, 151, 176, 185, 197, 203]);
  return `${first}.${ctx.random.int(256)}.${ctx.random.int(256)}.${1 + ctx.random.int(254)}`;
}

function attributeValue(ctx: Ctx, attr: DataAttribute): CustomAttributeValue {
  if (attr.options && attr.options.length > 0) return ctx.random.pick(attr.options);
  switch (attr.data_type) {
    case 'integer':
      return ctx.random.int(1000);
    case 'float':
      return Math.round(ctx.random.next() * 100_000) / 100;
    case 'boolean':
      return ctx.random.int(2) === 1;
    case 'date':
      return past(ctx, YEAR);
    default:
      return ctx.faker.word.noun();
  }
}

function makeCustomer(ctx: Ctx, type: Customer['type'], i: number): Customer {
  const at = past(ctx, 2 * YEAR);
  const id = ctx.nextId();
  const c = emptyCustomer(type, id, at);
  const first = ctx.faker.person.firstName();
  const last = ctx.faker.person.lastName();
  const ip = publicIp(ctx);
  const location = locationForIp(ip);
  const seenAt = at + ctx.random.int(REFERENCE_TIME - at);
  const writable = ctx.lists.writableAttributes;
  const customAttributes: Record<string, CustomAttributeValue> = {};
  for (const attr of subset(ctx, writable, writable.length)) customAttributes[attr.name] = attributeValue(ctx, attr);
  c.updated_at = seenAt;
  c.last_seen_ip = ip;
  c.location_data = location;
  c.last_request_at = seenAt;
  c.user_agent_data = ctx.faker.internet.userAgent();
  c.tags = subset(ctx, ctx.lists.tagIds, 2);
  c.custom_attributes = customAttributes;
  if (type === 'visitor') {
    c.user_id = uniqueUuid(ctx);
    c.pseudonym = pseudonym(ctx.faker, ctx.random);
    return c;
  }
  c.email = uniqueEmail(ctx, ctx.faker.internet.email({ firstName: first, lastName: last, provider: 'example.com' }).toLowerCase(), type, i);
  c.companies = subset(ctx, ctx.lists.companyIds, 2);
  c.segments = subset(ctx, ctx.lists.userSegments, 2);
  c.phone = ctx.random.int(3) === 0 ? ctx.faker.phone.number({ style: 'international' }) : null;
  if (type === 'contact') {
    c.user_id = uniqueUuid(ctx);
    c.pseudonym = pseudonym(ctx.faker, ctx.random);
    return c;
  }
  c.user_id = numbered(ctx, 'user');
  c.name = `${first} ${last}`;
  c.signed_up_at = at;
  c.remote_created_at = at;
  c.session_count = 1 + ctx.random.int(200);
  c.avatar_image_url = `https://static.example.com/avatars/${id}.png`;
  return c;
}

function makeConversation(ctx: Ctx): Conversation | null {
  const { people, adminIds } = ctx.lists;
  if (people.length === 0 || adminIds.length === 0) return null;
  const customer = ctx.random.pick(people);
  const author: Author = { type: customer.type === 'user' ? 'user' : 'lead', id: customer.id };
  const at = past(ctx, YEAR);
  const conversation: Conversation = {
    id: ctx.nextId(),
    created_at: at,
    updated_at: at,
    subject: '',
    body: `<p>${ctx.faker.lorem.sentence()}</p>`,
    author,
    attachments: [],
    customers: [customer.id],
    assignee: { type: 'admin', id: ctx.random.pick(adminIds) },
    open: ctx.random.int(3) > 0,
    read: ctx.random.int(2) === 0,
    tags: subset(ctx, ctx.lists.tagIds, 1),
    parts: [],
  };
  return withParts(ctx, conversation, 1 + ctx.random.int(5));
}

/** Appends `count` parts, alternating the assignee and the customer, each a little after the last. */
function withParts(ctx: Ctx, conversation: Conversation, count: number): Conversation {
  ctx.parts.made += count;
  if (ctx.parts.made > ctx.parts.cap) throw partsOverLimit('generate.conversations', ctx.parts.cap);
  const parts: ConversationPart[] = [...conversation.parts];
  let at = parts.at(-1)?.created_at ?? conversation.created_at;
  const admin: Author = conversation.assignee ?? { type: 'admin', id: ctx.doc.admins[0]?.id ?? '1' };
  for (let i = 0; i < count; i++) {
    at += 30 + ctx.random.int(600);
    const fromAdmin = i % 2 === 0;
    parts.push({
      id: String(parts.length + 1),
      part_type: fromAdmin && i % 7 === 6 ? 'note' : 'comment',
      body: `<p>${ctx.faker.lorem.sentence()}</p>`,
      created_at: at,
      updated_at: at,
      notified_at: at,
      assigned_to: null,
      author: fromAdmin ? admin : conversation.author,
      attachments: [],
    });
  }
  return { ...conversation, parts, updated_at: Math.max(conversation.updated_at, at) };
}
