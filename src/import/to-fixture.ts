// What the API answered, as a fixture document (fixtures/schema.ts): each record keeps its id,
// so what the mock serves from the file names the same records the workspace did.

import type { Raw, Read } from './read.js';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean => v === true;
const obj = (v: unknown): Raw => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {});
/** The ids of a `{type: 'x.list', x: [...]}` member. */
const idsIn = (v: unknown, key: string): string[] => ((obj(v)[key] as Raw[] | undefined) ?? []).map((x) => String(x.id));
const time = (v: unknown, fallback: number): number => num(v) ?? fallback;
const ref = (v: unknown): { type: string; id: string } => ({ type: String(obj(v).type ?? 'admin'), id: String(obj(v).id ?? '') });

const LOCATION_TEXT = ['city_name', 'continent_code', 'country_name', 'postal_code', 'region_name', 'timezone', 'country_code'] as const;

/** A person's location; latitude and longitude, which 1.4's answer leaves out, are 0. */
function location(v: unknown): Raw | null {
  const l = obj(v);
  if (LOCATION_TEXT.some((k) => typeof l[k] !== 'string')) return null;
  return { type: 'location_data', ...Object.fromEntries(LOCATION_TEXT.map((k) => [k, l[k]])), latitude: num(l.latitude) ?? 0, longitude: num(l.longitude) ?? 0 };
}

function customer(c: Raw, type: 'user' | 'contact'): Raw {
  const created = time(c.created_at, 0);
  return {
    type,
    id: String(c.id),
    user_id: str(c.user_id),
    anonymous: bool(c.anonymous),
    email: str(c.email),
    phone: str(c.phone),
    name: str(c.name),
    pseudonym: str(c.pseudonym),
    avatar_image_url: str(obj(c.avatar).image_url),
    companies: idsIn(c.companies, 'companies'),
    tags: idsIn(c.tags, 'tags'),
    segments: idsIn(c.segments, 'segments'),
    location_data: location(c.location_data),
    last_request_at: num(c.last_request_at),
    last_seen_ip: str(c.last_seen_ip),
    created_at: created,
    remote_created_at: num(c.remote_created_at),
    signed_up_at: num(c.signed_up_at),
    updated_at: time(c.updated_at, created),
    session_count: num(c.session_count) ?? 0,
    social_profiles: ((obj(c.social_profiles).social_profiles as Raw[] | undefined) ?? []).map((p) => ({ type: 'social_profile', name: String(p.name ?? ''), id: str(p.id), username: String(p.username ?? ''), url: String(p.url ?? '') })),
    unsubscribed_from_emails: bool(c.unsubscribed_from_emails),
    marked_email_as_spam: bool(c.marked_email_as_spam),
    has_hard_bounced: bool(c.has_hard_bounced),
    user_agent_data: str(c.user_agent_data),
    referrer: str(c.referrer),
    utm_campaign: str(c.utm_campaign),
    utm_content: str(c.utm_content),
    utm_medium: str(c.utm_medium),
    utm_source: str(c.utm_source),
    utm_term: str(c.utm_term),
    owner_id: num(c.owner_id),
    custom_attributes: obj(c.custom_attributes),
  };
}

function company(c: Raw): Raw {
  const created = time(c.created_at, 0);
  return {
    id: String(c.id),
    company_id: String(c.company_id),
    name: String(c.name ?? c.company_id),
    created_at: created,
    updated_at: time(c.updated_at, created),
    remote_created_at: num(c.remote_created_at),
    last_request_at: num(c.last_request_at),
    monthly_spend: num(c.monthly_spend),
    plan: str(obj(c.plan).name),
    size: num(c.size),
    website: str(c.website),
    industry: str(c.industry),
    session_count: num(c.session_count) ?? 0,
    tags: idsIn(c.tags, 'tags'),
    segments: idsIn(c.segments, 'segments'),
    custom_attributes: obj(c.custom_attributes),
  };
}

function conversation(c: Raw): Raw {
  const message = obj(c.conversation_message);
  const created = time(c.created_at, 0);
  const parts = ((obj(c.conversation_parts).conversation_parts as Raw[] | undefined) ?? []).map((p) => {
    const at = time(p.created_at, created);
    return {
      id: String(p.id),
      part_type: String(p.part_type ?? 'comment'),
      body: str(p.body),
      created_at: at,
      updated_at: time(p.updated_at, at),
      notified_at: time(p.notified_at, at),
      assigned_to: p.assigned_to ? ref(p.assigned_to) : null,
      author: ref(p.author),
      attachments: ((p.attachments as Raw[] | undefined) ?? []).map((a) => ({ name: String(a.name ?? ''), url: String(a.url ?? '') })),
    };
  });
  const customers = ((c.customers as Raw[] | undefined) ?? []).map((x) => String(x.id));
  return {
    id: String(c.id),
    created_at: created,
    updated_at: time(c.updated_at, created),
    subject: str(message.subject) ?? '',
    body: str(message.body) ?? '',
    author: ref(message.author),
    attachments: ((message.attachments as Raw[] | undefined) ?? []).map((a) => ({ name: String(a.name ?? ''), url: String(a.url ?? '') })),
    customers: customers.length > 0 ? customers : [String(obj(c.user).id)],
    // Unassigned: 1.4 says {"type": "nobody_admin", "id": null}.
    assignee: obj(c.assignee).id !== undefined && obj(c.assignee).id !== null ? ref(c.assignee) : null,
    open: bool(c.open),
    read: bool(c.read),
    tags: idsIn(c.tags, 'tags'),
    parts,
    ...(typeof c.state === 'string' ? { state: c.state } : {}),
    snoozed_until: num(c.snoozed_until),
    waiting_since: num(c.waiting_since),
  };
}

export interface FixtureOut {
  app: { id: string; name: string; tokens: string[]; api_version: string };
  [member: string]: unknown;
}

/**
 * References the lists do not hold go: a tag, segment or company the API names on a record but
 * did not list. People a conversation names but the API does not list (visitors, archived or
 * deleted users) are kept as former customers, so the conversation stays whole.
 */
function keepKnown(doc: FixtureOut, people: Set<string>): FixtureOut {
  const known = (key: string) => new Set(((doc[key] as Raw[] | undefined) ?? []).map((x) => String(x.id)));
  const tags = known('tags');
  const segments = known('segments');
  const companies = known('companies');
  const only = (ids: unknown, set: Set<string>) => (ids as string[]).filter((id) => set.has(id));
  for (const r of [...(doc.customers as Raw[]), ...(doc.companies as Raw[])]) {
    r.tags = only(r.tags, tags);
    r.segments = only(r.segments, segments);
    if (r.companies) r.companies = only(r.companies, companies);
  }
  // An admin or team the API no longer lists (deleted) stands as nobody: the fixture lists none.
  const staff = new Set([...known('admins'), ...known('teams')]);
  const person = (a: unknown): unknown => {
    const r = obj(a);
    return (r.type === 'admin' || r.type === 'team') && !staff.has(String(r.id)) ? { type: 'nobody_admin', id: String(r.id) } : a;
  };
  const admins = known('admins');
  for (const t of doc.teams as Raw[]) t.admin_ids = only(t.admin_ids, admins);
  doc.notes = (doc.notes as Raw[]).filter((n) => staff.has(String(n.admin_id)) && people.has(String(n.customer)));
  const former = new Set<string>();
  for (const c of doc.conversations as Raw[]) {
    c.tags = only(c.tags, tags);
    c.author = person(c.author);
    if (c.assignee) c.assignee = person(c.assignee);
    for (const p of (c.parts as Raw[]) ?? []) {
      p.author = person(p.author);
      if (p.assigned_to) p.assigned_to = person(p.assigned_to);
    }
    const named = [...(c.customers as string[]), ...[c.author, ...((c.parts as Raw[]) ?? []).map((p) => p.author)].filter((a) => ['user', 'lead'].includes(String(obj(a).type))).map((a) => String(obj(a).id))];
    for (const id of named) if (!people.has(id)) former.add(id);
  }
  doc.former_customers = [...former];
  return doc;
}

/** The fixture document of what was read; the app answers to `token` only. */
export function toFixture(read: Read, appId: string, token: string): FixtureOut {
  const people = new Set([...read.users, ...read.leads].map((c) => String(c.id)));
  return keepKnown({
    app: { id: appId, name: appId, tokens: [token], api_version: '1.4' },
    admins: read.admins.filter((a) => a.type !== 'team').map((a) => ({ id: String(a.id), name: String(a.name ?? ''), email: String(a.email ?? ''), away_mode_enabled: bool(a.away_mode_enabled), away_mode_reassign: bool(a.away_mode_reassign) })),
    teams: read.admins.filter((a) => a.type === 'team').map((t) => ({ id: String(t.id), name: String(t.name ?? ''), admin_ids: ((t.admin_ids as unknown[] | undefined) ?? []).map(String) })),
    tags: read.tags.map((t) => ({ id: String(t.id), name: String(t.name) })),
    segments: read.segments.map((s) => ({ id: String(s.id), name: String(s.name), person_type: s.person_type === 'company' ? 'company' : 'user', ...(num(s.created_at) !== null ? { created_at: s.created_at } : {}), ...(num(s.updated_at) !== null ? { updated_at: s.updated_at } : {}) })),
    companies: read.companies.map(company),
    customers: [...read.users.map((c) => customer(c, 'user')), ...read.leads.map((c) => customer(c, 'contact'))],
    conversations: read.conversations.map(conversation),
    notes: read.notes.map((n) => ({ id: String(n.id), customer: String(obj(n.user).id), admin_id: String(obj(n.author).id), body: String(n.body ?? ''), created_at: time(n.created_at, 0) })),
    events: read.events
      .filter((e) => people.has(String(e.intercom_user_id)))
      .map((e) => ({ id: String(e.id), customer_id: String(e.intercom_user_id), event_name: String(e.event_name), created_at: time(e.created_at, 0), metadata: obj(e.metadata) })),
  }, people);
}
