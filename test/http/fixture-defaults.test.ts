// What a seeded record gets for each member the document leaves out, as the export shows it: the
// reference time for timestamps, the earliest known time for the later ones, and empty values.

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REFERENCE_TIME } from '../../src/store/normalize.js';
import { mock, stateText } from '../helpers.js';

// A one-app store: these tests seed their own app and need none of the default fixtures.
const FIXTURES = fileURLToPath(new URL('../golden/fixtures', import.meta.url));

const T = REFERENCE_TIME;
const U = 'u0000000000000000000000a';

const doc = {
  app: { id: 'min', tokens: ['min-token'] },
  admins: [{ id: '1', name: 'Ann', email: 'ann@example.com' }],
  teams: [{ id: '10', name: 'Team' }],
  segments: [{ id: 's0000000000000000000000a', name: 'Seg' }, { id: 's0000000000000000000000b', name: 'Old seg', person_type: 'company', created_at: 100 }],
  tags: [{ id: '5', name: ' Cafe\u0301 ' }],
  data_attributes: [
    { name: 'plain', data_type: 'string' },
    { name: 'full', data_type: 'string', label: 'Full', options: ['a'], admin_id: '1', created_at: 100, archived: true, api_writable: false, ui_writable: false },
  ],
  companies: [{ id: 'c0000000000000000000000a', company_id: 'co-a' }, { id: 'c0000000000000000000000b', company_id: 'co-b', name: 'B', created_at: 100 }],
  customers: [{ id: U, email: ' Ann@Example.COM ' }, { id: 'u0000000000000000000000b', type: 'visitor', user_id: 'v-1', created_at: 100 }],
  conversations: [
    { id: 'v0000000000000000000000a', customers: [U], author: { type: 'user', id: U } },
    {
      id: 'v0000000000000000000000b',
      customers: [U],
      author: { type: 'user', id: U },
      created_at: 100,
      parts: [{ id: '1', author: { type: 'admin', id: '1' }, created_at: 200 }, { id: '2', author: { type: 'user', id: U } }],
    },
  ],
};

describe('a seeded document with members left out', () => {
  it('is completed with the documented defaults', async () => {
    const m = mock({ fixturesDir: FIXTURES });
    const seeded = await m.call('POST', '/__admin/seed', { token: null, body: doc });
    expect(seeded.status).toBe(200);
    const s = JSON.parse(await stateText(m, 'min'));
    expect(s.app).toEqual({ id: 'min', name: 'min', tokens: ['min-token'], rate_limit_per_minute: 500, api_version: '1.1' });
    expect(s.admins).toEqual([{ id: '1', name: 'Ann', email: 'ann@example.com', away_mode_enabled: false, away_mode_reassign: false }]);
    expect(s.teams).toEqual([{ id: '10', name: 'Team', away_mode_enabled: false, away_mode_reassign: false, admin_ids: [] }]);
    expect(s.segments).toEqual([
      { id: 's0000000000000000000000a', name: 'Seg', person_type: 'user', created_at: T, updated_at: T, rule_tags: [] },
      { id: 's0000000000000000000000b', name: 'Old seg', person_type: 'company', created_at: 100, updated_at: 100, rule_tags: [] },
    ]);
    expect(s.tags).toEqual([{ id: '5', name: 'Caf\u00e9' }]);
    expect(s.data_attributes).toEqual([
      { name: 'plain', label: 'plain', description: '', data_type: 'string', api_writable: true, ui_writable: true, archived: false, created_at: T, updated_at: T },
      { name: 'full', label: 'Full', description: '', data_type: 'string', api_writable: false, ui_writable: false, archived: true, created_at: 100, updated_at: 100, options: ['a'], admin_id: '1' },
    ]);
    const emptyCompany = { remote_created_at: null, last_request_at: null, monthly_spend: null, plan: null, size: null, website: null, industry: null, session_count: 0, tags: [], segments: [], custom_attributes: {} };
    expect(s.companies).toEqual([
      { id: 'c0000000000000000000000a', company_id: 'co-a', name: 'co-a', created_at: T, updated_at: T, ...emptyCompany },
      { id: 'c0000000000000000000000b', company_id: 'co-b', name: 'B', created_at: 100, updated_at: 100, ...emptyCompany },
    ]);
    const [visitor, user] = s.customers;
    expect(user).toEqual({
      type: 'user', id: U, user_id: null, anonymous: false, email: 'ann@example.com', phone: null, name: null, pseudonym: null,
      avatar_image_url: null, companies: [], tags: [], segments: [], location_data: null, last_request_at: null, last_seen_ip: null,
      created_at: T, remote_created_at: null, signed_up_at: null, updated_at: T, session_count: 0, social_profiles: [],
      unsubscribed_from_emails: false, marked_email_as_spam: false, has_hard_bounced: false, user_agent_data: null, referrer: null,
      utm_campaign: null, utm_content: null, utm_medium: null, utm_source: null, utm_term: null, owner_id: null, custom_attributes: {},
    });
    expect(visitor).toMatchObject({ type: 'visitor', id: 'u0000000000000000000000b', anonymous: true, created_at: 100, updated_at: 100 });
    const [bare, withParts] = s.conversations;
    expect(bare).toEqual({
      id: 'v0000000000000000000000a', created_at: T, updated_at: T, subject: '', body: '', author: { type: 'user', id: U },
      attachments: [], customers: [U], assignee: null, open: true, read: false, tags: [], parts: [],
    });
    // A part without a time takes the conversation's; the conversation's update is its last part's.
    expect(withParts).toMatchObject({ created_at: 100, updated_at: 100 });
    expect(withParts.parts).toEqual([
      { id: '1', part_type: 'comment', body: null, created_at: 200, updated_at: 200, notified_at: 200, assigned_to: null, author: { type: 'admin', id: '1' }, attachments: [] },
      { id: '2', part_type: 'comment', body: null, created_at: 100, updated_at: 100, notified_at: 100, assigned_to: null, author: { type: 'user', id: U }, attachments: [] },
    ]);
    expect(s.jobs).toEqual([]);
  });
});
