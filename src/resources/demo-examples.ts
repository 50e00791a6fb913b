// The canonical demo records (fixtures/demo.json) the route definitions' examples name, so the
// docs page's "Try it out" answers 2xx without edits; test/examples.test.ts sends every example.

export const ADA = '5714dd359a3fd47136000001';
export const ACME = '5714dd359a3fd47136000101';
export const GROUP_CONVERSATION = '5714dd359a3fd47136000501';
export const ADMIN = '814860';
export const VISITOR_USER_ID = '3f0b3a6c-7f6d-4d5e-9d2b-7a1c5e8f9a01';
export const VISITOR = '5714dd359a3fd47136000009';
export const LEAD = '5714dd359a3fd47136000007';
export const LEAD_USER_ID = '8a88a590-e1c3-41e2-a502-e0649dbf721c';
export const SECOND_LEAD = '5714dd359a3fd47136000008';
export const FIRST_JOB = 'job_v2_7cc5ef46_4b1d_4b32_9af4_9f62b100b7a7';
/** The id the demo app gives its first subscription (createSubscription's example makes it). */
export const SUBSCRIPTION = 'nsub_7cc5ef46-4b1d-4b32-9af4-9f62b100b7a7';
export const leadUpdate = { name: 'Lena Lead', phone: '+44 20 7946 0001', custom_attributes: { plan_tier: 'pro' } };

export const customerBody = (identity: Record<string, unknown>) => ({
  ...identity,
  name: 'Ada Lovelace',
  phone: '+44 20 7946 0000',
  signed_up_at: 1700000000,
  last_request_at: 1700003600,
  last_seen_ip: '81.2.69.142',
  last_seen_user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
  unsubscribed_from_emails: false,
  update_last_request_at: true,
  new_session: true,
  custom_attributes: { plan_tier: 'pro' },
  companies: [{ company_id: 'acme', name: 'Acme Corp' }],
});

export const faultFilter = { app: 'demo' };
