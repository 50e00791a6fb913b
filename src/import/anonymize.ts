// --anonymize: every name, email, phone, IP, user_id, company name and company_id, tag and segment
// name, avatar URL, attachment, custom attribute and event metadata text and message and note body
// replaced by a stand-in drawn from an HMAC
// of the value under the user's key: the same value always gets the same stand-in (so references
// and repeated values stay consistent, and the file can be committed and made again), and without
// the key the stand-ins say nothing of the originals. Ids, times and numbers stay as they were.

import { createHmac } from 'node:crypto';
import { createFaker, type Faker } from '../fixtures/faker.js';
import type { FixtureOut } from './to-fixture.js';

type Rec = Record<string, unknown>;

export class Anonymizer {
  private readonly key: string;
  private readonly faker: Faker;

  constructor(key: string) {
    this.key = key;
    this.faker = createFaker(1, 1_700_000_000);
  }

  /** 64 bits of the value's HMAC under the key, for `kind` (so a name and an email never share). */
  private digest(kind: string, value: string): string {
    return createHmac('sha256', this.key).update(`${kind}\u0000${value}`).digest('hex');
  }

  /** The Faker seeded from the value, for stand-ins that read like the real thing. */
  private seeded(kind: string, value: string): Faker {
    this.faker.seed(Number.parseInt(this.digest(kind, value).slice(0, 12), 16));
    return this.faker;
  }

  // An empty value stays empty: a stand-in would make something out of nothing.
  name = (v: string | null): string | null => (v === null || v === '' ? v : this.seeded('name', v).person.fullName());
  email = (v: string | null): string | null => (v === null || v === '' ? v : `user-${this.digest('email', v.toLowerCase()).slice(0, 16)}@example.com`);
  phone = (v: string | null): string | null => (v === null || v === '' ? v : `+1555${String(Number.parseInt(this.digest('phone', v).slice(0, 10), 16) % 10_000_000).padStart(7, '0')}`);
  ip = (v: string | null): string | null => {
    if (v === null || v === '') return v;
    const n = Number.parseInt(this.digest('ip', v).slice(0, 4), 16);
    // TEST-NET-2, documentation addresses only.
    return `198.51.100.${(n % 254) + 1}`;
  };
  userId = (v: string | null): string | null => (v === null || v === '' ? v : `anon-${this.digest('user_id', v).slice(0, 16)}`);
  company = (v: string): string => this.seeded('company', v).company.name();
  label = (kind: string, v: string): string => `${kind}-${this.digest(kind, v.toLowerCase()).slice(0, 10)}`;
  url = (v: string | null): string | null => (v === null || v === '' ? v : `https://example.com/files/${this.digest('url', v).slice(0, 16)}`);
  text = (v: string): string => (v === '' ? '' : `<p>${this.seeded('text', v).lorem.sentence()}</p>`);
  /** A custom attribute's or event metadata's value: text (and a link's URL and text) replaced, numbers, booleans and dates kept. */
  attribute = (v: unknown): unknown => {
    if (typeof v === 'string') return v === '' ? v : `anon-${this.digest('attribute', v).slice(0, 12)}`;
    if (v !== null && typeof v === 'object' && 'url' in v) {
      const link = v as { url: string; value?: string };
      return { ...link, url: this.url(link.url), ...(typeof link.value === 'string' ? { value: this.attribute(link.value) } : {}) };
    }
    return v;
  };
  /** An attachment: its name and URL replaced, the file's extension kept. */
  attachment = (a: Rec): Rec => {
    const name = String(a.name ?? '');
    const ext = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? '';
    return { name: `file-${this.digest('file', name).slice(0, 10)}${ext}`, url: this.url(String(a.url ?? '')) };
  };

  /** The document with every covered value replaced, in place. */
  apply(doc: FixtureOut): FixtureOut {
    const each = (key: string, fn: (r: Rec) => void) => ((doc[key] as Rec[] | undefined) ?? []).forEach(fn);
    const attributes = (r: Rec) => {
      r.custom_attributes = Object.fromEntries(Object.entries((r.custom_attributes as Rec) ?? {}).map(([k, v]) => [k, this.attribute(v)]));
    };
    each('admins', (a) => {
      a.name = this.name(a.name as string);
      a.email = this.email(a.email as string);
    });
    each('teams', (t) => (t.name = this.label('team', t.name as string)));
    each('tags', (t) => (t.name = this.label('tag', t.name as string)));
    each('segments', (s) => (s.name = this.label('segment', s.name as string)));
    each('companies', (c) => {
      c.name = this.company(c.name as string);
      c.company_id = this.label('company', c.company_id as string);
      c.website = c.website === null ? null : `https://${this.label('site', c.website as string)}.example.com`;
      attributes(c);
    });
    each('customers', (c) => {
      c.name = this.name(c.name as string | null);
      c.email = this.email(c.email as string | null);
      c.phone = this.phone(c.phone as string | null);
      c.last_seen_ip = this.ip(c.last_seen_ip as string | null);
      c.user_id = this.userId(c.user_id as string | null);
      c.avatar_image_url = this.url(c.avatar_image_url as string | null);
      // Where a person is and what they run and came from say as much as their name.
      c.location_data = null;
      c.user_agent_data = null;
      c.referrer = null;
      c.social_profiles = [];
      for (const k of ['utm_campaign', 'utm_content', 'utm_medium', 'utm_source', 'utm_term']) c[k] = null;
      attributes(c);
    });
    each('conversations', (c) => {
      c.subject = c.subject === '' ? '' : this.label('subject', c.subject as string);
      c.body = this.text(c.body as string);
      c.attachments = ((c.attachments as Rec[]) ?? []).map(this.attachment);
      for (const p of (c.parts as Rec[]) ?? []) {
        p.body = p.body === null ? null : this.text(p.body as string);
        p.attachments = ((p.attachments as Rec[]) ?? []).map(this.attachment);
      }
    });
    each('notes', (n) => (n.body = this.text(n.body as string) || '<p>-</p>'));
    each('events', (e) => {
      e.metadata = Object.fromEntries(Object.entries((e.metadata as Rec) ?? {}).map(([k, v]) => [k, this.attribute(v)]));
    });
    return doc;
  }
}
