// A working example for every path parameter, query parameter and request body of every
// operation, drawn from the canonical demo records (fixtures/demo.json), so the docs page's
// "Try it out" answers 2xx without edits. The document carries them (openapi.ts);
// test/examples.test.ts sends each operation exactly as the docs page would and checks the answer.

/** What the docs page pre-fills for one operation. */
export interface RouteExamples {
  params?: Record<string, string>;
  /**
   * Every query parameter. An empty string is an example left blank, which the docs page does
   * not send: for a parameter that cannot be combined with one the example fills in
   * (`tag_id` with `segment_id`, the company lookups with the company list).
   */
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** The answer when it is not the operation's success status (an operation the API never had). */
  status?: number;
}

const ADA = '5714dd359a3fd47136000001';
const ACME = '5714dd359a3fd47136000101';
const GROUP_CONVERSATION = '5714dd359a3fd47136000501';
const ADMIN = '814860';
const VISITOR_USER_ID = '3f0b3a6c-7f6d-4d5e-9d2b-7a1c5e8f9a01';
const VISITOR = '5714dd359a3fd47136000009';
const LEAD = '5714dd359a3fd47136000007';
const LEAD_USER_ID = '8a88a590-e1c3-41e2-a502-e0649dbf721c';
const SECOND_LEAD = '5714dd359a3fd47136000008';
const FIRST_JOB = 'job_v2_7cc5ef46_4b1d_4b32_9af4_9f62b100b7a7';
/** The id the demo app gives its first subscription (createSubscription's example makes it). */
const SUBSCRIPTION = 'nsub_7cc5ef46-4b1d-4b32-9af4-9f62b100b7a7';
const leadUpdate = { name: 'Lena Lead', phone: '+44 20 7946 0001', custom_attributes: { plan_tier: 'pro' } };

const customerBody = (identity: Record<string, unknown>) => ({
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

const faultFilter = { app: 'demo' };

export const EXAMPLES: Readonly<Record<string, RouteExamples>> = {
  scrollUsers: { query: { scroll_param: '' } },
  scrollLeads: { query: { scroll_param: '' } },
  scrollCompanies: { query: { scroll_param: '' } },
  getUser: { params: { id: ADA } },
  listUsers: { query: { user_id: '', email: '', tag_id: '17513', segment_id: '', created_since: 3650, sort: 'created_at', order: 'desc', page: 1, per_page: 50 } },
  archiveUserById: { params: { id: '5714dd359a3fd47136000003' } },
  archiveUser: { query: { id: '', user_id: 'alan-3', email: '' } },
  requestUserDeletion: { body: { intercom_user_id: SECOND_LEAD } },
  upsertUser: { body: customerBody({ user_id: 'ada-1', email: 'ada@example.com', remote_created_at: 1690000000 }) },
  upsertLead: {
    body: { email: 'lena.lead@example.com', name: 'Lena Lead', phone: '+44 20 7946 0001', last_request_at: 1700003600, last_seen_ip: '81.2.69.142', custom_attributes: { plan_tier: 'free' }, companies: [{ company_id: 'acme' }] },
  },
  getLead: { params: { id: LEAD } },
  listLeads: { query: { email: 'lead@example.com', user_id: '', phone: '', tag_id: '', segment_id: '', page: 1, per_page: 50 } },
  searchCustomers: {
    body: { query: { operator: 'AND', value: [{ field: 'role', operator: '=', value: 'user' }, { field: 'email', operator: '~', value: 'example.com' }] }, sort: { field: 'created_at', order: 'descending' }, pagination: { per_page: 10 } },
  },
  convertLead: { body: { contact: { user_id: LEAD_USER_ID }, user: { email: 'lena.converted@example.com' } } },
  deleteLeadById: { params: { id: SECOND_LEAD } },
  deleteLead: { query: { id: '', user_id: 'b1c2d3e4-0000-4000-8000-00000000c0de' } },
  updateLeadById: { params: { id: LEAD }, body: leadUpdate },
  updateLead: { body: { id: LEAD, ...leadUpdate } },
  getVisitor: { params: { id: VISITOR } },
  findVisitor: { query: { user_id: VISITOR_USER_ID } },
  deleteVisitor: { params: { id: '5714dd359a3fd4713600000a' } },
  updateVisitorById: { params: { id: VISITOR }, body: { name: 'Curious Visitor', custom_attributes: { plan_tier: 'free' } } },
  updateVisitor: { body: { user_id: VISITOR_USER_ID, name: 'Curious Visitor', custom_attributes: { plan_tier: 'free' } } },
  updateVisitorByPost: { body: { user_id: VISITOR_USER_ID, name: 'Curious Visitor', custom_attributes: { plan_tier: 'free' } } },
  convertVisitor: { body: { type: 'user', visitor: { user_id: VISITOR_USER_ID }, user: { email: 'visitor.converted@example.com' } } },
  findCompany: { query: { company_id: '', type: '', name: '', tag_id: '17516', segment_id: '', order: 'desc', page: 1, per_page: 50 } },
  upsertCompany: {
    body: { company_id: 'acme', name: 'Acme Corp', monthly_spend: 49, plan: 'Paid', size: 85, website: 'https://acme.example.com', industry: 'Manufacturing', remote_created_at: 1690000000, custom_attributes: { region: 'EMEA' } },
  },
  getCompany: { params: { id: ACME } },
  deleteCompany: { params: { id: ACME }, status: 404 },
  listCompanyUsers: { params: { id: ACME }, query: { page: 1, per_page: 50 } },
  listCustomerDataAttributes: { query: { include_archived: 'true' } },
  listCompanyDataAttributes: { query: { include_archived: 'true' } },
  listDataAttributes: { query: { model: 'customer', include_archived: 'true' } },
  getCounts: { query: { type: 'company', count: 'tag', per_page: 50, page: 1 } },
  listTags: { query: { name: 'VIP' } },
  getTag: { params: { id: '17513' } },
  renameTag: { params: { id: '17514' }, body: { name: 'At risk' } },
  deleteTag: { params: { id: '17515' } },
  listSegments: { query: { type: 'user', include_count: 'true' } },
  getSegment: { params: { id: '5714dd359a3fd47136000901' }, query: { include_count: 'true' } },
  updateSegment: { body: {}, status: 404 },
  saveTag: { body: { id: '17513', name: 'VIP', users: [{ id: ADA }], companies: [{ company_id: 'acme' }] } },
  listActivityLogs: { query: { created_at_after: 1700000000, created_at_before: 2000000000, page: 1, per_page: 20 } },
  getAdmin: { params: { id: ADMIN } },
  setAdminAway: { params: { id: ADMIN }, body: { away_mode_enabled: true, away_mode_reassign: false } },
  listTeams: {},
  getTeam: { params: { id: '1000001' } },
  createNote: { body: { admin_id: ADMIN, body: 'Called about the renewal; sending the quote today.', user: { id: ADA } } },
  listNotes: { query: { id: ADA, intercom_user_id: '', user_id: '', email: '', page: 1, per_page: 50 } },
  getNote: { params: { id: '1001' } },
  listConversations: {
    query: { type: 'admin', admin_id: ADMIN, id: '', intercom_user_id: '', user_id: '', email: '', open: 'true', unread: '', order: 'updated_at', sort: 'desc', display_as: 'plaintext', page: 1, per_page: 20 },
  },
  markConversationRead: { params: { id: GROUP_CONVERSATION }, body: { read: true } },
  markConversationReadByPost: { params: { id: GROUP_CONVERSATION }, body: { read: true } },
  markConversationReadByReplyPath: { params: { id: GROUP_CONVERSATION }, body: { read: true } },
  replyToLastConversation: { body: { type: 'admin', admin_id: ADMIN, intercom_user_id: ADA, message_type: 'comment', body: '<p>Following up on your last question.</p>' } },
  runAssignmentRules: { params: { id: '5714dd359a3fd47136000502' } },
  createMessage: {
    body: { message_type: 'email', subject: 'Your invoice', body: '<p>Your invoice is attached.</p>', template: 'plain', from: { type: 'admin', id: ADMIN }, to: { type: 'user', id: ADA } },
  },
  getConversation: { params: { id: GROUP_CONVERSATION }, query: { display_as: 'plaintext' } },
  addConversationCustomer: {
    params: { id: GROUP_CONVERSATION },
    body: { admin_id: ADMIN, customer: { intercom_user_id: '5714dd359a3fd47136000003' } },
  },
  replyToConversation: {
    params: { id: GROUP_CONVERSATION },
    body: { type: 'admin', admin_id: ADMIN, message_type: 'comment', body: '<p>Thanks, we are on it.</p>', attachment_urls: ['https://files.example.com/receipt.pdf'] },
  },
  submitEvent: {
    body: {
      event_name: 'placed-order',
      created_at: 1767225600,
      user_id: 'ada-1',
      metadata: { order_date: 1767225600, stripe_invoice: 'inv_3434343434', order_number: { value: '3434-3434', url: 'https://example.org/orders/3434-3434' }, price: { amount: 2999, currency: 'usd' } },
    },
  },
  listEvents: { query: { type: 'user', user_id: 'ada-1', email: '', intercom_user_id: '', per_page: 15, before: '', summary: 'false' } },
  bulkUsers: {
    body: {
      items: [
        { method: 'post', data_type: 'user', data: { user_id: 'bulk-25', email: 'alice@example.com', name: 'Alice' } },
        { method: 'delete', data_type: 'user', data: { user_id: 'grace-2' } },
      ],
    },
  },
  bulkEvents: { body: { items: [{ method: 'post', data_type: 'event', data: { event_name: 'invited-friend', created_at: 1767225600, email: 'ada@example.com' } }] } },
  // The job the bulkUsers example makes first in a fresh mock (ids come from the seeded stream).
  getJob: { params: { id: FIRST_JOB } },
  getJobErrors: { params: { id: FIRST_JOB } },
  updateJob: { params: { id: FIRST_JOB }, status: 404 },
  adminReset: { query: { app: 'demo', ids: 'rewind' } },
  adminSeed: {
    query: { mode: 'replace', ids: 'rewind' },
    body: {
      $schema: '/__admin/fixture.schema.json',
      description: 'A small app seeded from the docs page',
      app: { id: 'docs-example', name: 'Docs example', tokens: ['docs-example-token'], rate_limit_per_minute: 500, token_owners: { 'docs-example-token': '7001' } },
      admins: [{ id: '7001', name: 'Dora Docs', email: 'dora@example.com' }],
      teams: [{ id: '7101', name: 'Support', admin_ids: ['7001'] }],
      segments: [{ id: '5714dd359a3fd47136007901', name: 'Active', person_type: 'user' }],
      tags: [{ id: '7201', name: 'Seeded' }],
      data_attributes: [{ name: 'plan_tier', data_type: 'string' }],
      companies: [{ id: '5714dd359a3fd47136007301', company_id: 'docs-co', name: 'Docs Co' }],
      customers: [{ id: '5714dd359a3fd47136007401', type: 'user', user_id: 'docs-1', email: 'docs@example.com', companies: ['5714dd359a3fd47136007301'], tags: ['7201'] }],
      conversations: [],
      jobs: [],
      notes: [{ id: '7301', customer: '5714dd359a3fd47136007401', admin_id: '7001', body: '<p>Seeded from the docs page.</p>' }],
      company_data_attributes: [{ name: 'region', data_type: 'string' }],
      generate: { users: 10, leads: 2, visitors: 1, companies: 2, conversations: 2 },
    },
  },
  adminState: { query: { app: 'demo' } },
  adminSetClock: { body: { now: 1700000000, frozen: true } },
  adminRunJobs: { query: { app: 'demo' } },
  adminCreateSnapshot: { query: faultFilter, body: { name: 'before-test' } },
  adminListSnapshots: { query: faultFilter },
  adminRestoreSnapshot: { params: { name: 'before-test' }, query: { app: 'demo', ids: 'rewind' } },
  adminDeleteSnapshot: { params: { name: 'before-test' }, query: faultFilter },
  adminListRequests: { query: { app: 'demo', method: 'GET', path: '/users', operationId: 'listUsers', status: 200, since: 1, limit: 50, warnings: true, warning: 'unknown_parameter' } },
  adminCountRequests: { query: faultFilter, body: { app: 'demo', method: 'POST', path: '/users', operationId: 'upsertUser', status: 200, since: 1, limit: 50, warnings: true, warning: 'unused_field' } },
  adminContractReport: { query: { app: 'demo' } },
  adminClearContractReport: { query: { app: 'demo' } },
  adminClearRequests: { query: faultFilter },
  adminAddFault: {
    query: faultFilter,
    body: { operation_id: 'getUser', method: 'GET', path: '/users/{id}', latency_ms: 10, latency_max_ms: 20, error: 'service_unavailable', status: 503, rate_limit: false, drop_rate_limit_headers: false, count: 1, fraction: 1 },
  },
  adminListFaults: { query: faultFilter },
  adminClearFaults: { query: faultFilter },
  adminDeleteFault: { params: { id: '1' }, query: faultFilter },
  adminListApps: { query: { app: '', q: '', offset: 0, limit: 50 } },
  adminSearchCustomers: { query: { app: 'demo', type: 'user', email: '', user_id: '', name: 'ada', tag_id: '', offset: 0, limit: 50 } },
  adminGetCustomer: { params: { id: ADA }, query: faultFilter },
  adminListCompanies: { query: { app: 'demo', offset: 0, limit: 50 } },
  adminGetCompany: { params: { id: ACME }, query: { app: 'demo', offset: 0, limit: 50 } },
  adminListTags: { query: { app: 'demo', offset: 0, limit: 50 } },
  adminListSegments: { query: { app: 'demo', offset: 0, limit: 50 } },
  adminListConversations: { query: { app: 'demo', offset: 0, limit: 50 } },
  adminGetConversation: { params: { id: GROUP_CONVERSATION }, query: { app: 'demo', offset: 0, limit: 50 } },
  adminTailRequests: { query: { app: 'demo', after: 0, limit: 50, method: '', path: '', operationId: '', status: 200, warnings: false } },
  adminListCustomerNotes: { params: { id: ADA }, query: { app: 'demo', offset: 0, limit: 50 } },
  adminListCustomerEvents: { params: { id: ADA }, query: { app: 'demo', before: '', limit: 50 } },
  adminListBulkJobs: { query: { app: 'demo', offset: 0, limit: 50 } },
  adminListWebhookDeliveries: { query: { app: 'demo', subscription: '', offset: 0, limit: 20 } },
  createSubscription: { body: { url: 'http://127.0.0.1:8080/hooks', topics: ['user.created', 'conversation.user.replied'], hub_secret: 'change-me' } },
  listSubscriptions: {},
  getSubscription: { params: { id: SUBSCRIPTION } },
  updateSubscription: { params: { id: SUBSCRIPTION }, body: { topics: ['user.created', 'user.deleted'] } },
  replaceSubscription: { params: { id: SUBSCRIPTION }, body: { active: false } },
  deleteSubscription: { params: { id: SUBSCRIPTION } },
  pingSubscription: { params: { id: SUBSCRIPTION } },
  retrySubscription: { params: { id: SUBSCRIPTION } },
  adminTagConversationPart: { params: { id: GROUP_CONVERSATION, part_id: '1' }, query: { app: 'demo' }, body: { name: 'Refund' } },
  getSubscriptionSent: { params: { id: SUBSCRIPTION } },
  getSubscriptionError: { params: { id: SUBSCRIPTION } },
  getSubscriptionErrors: { params: { id: SUBSCRIPTION } },
};

/**
 * Operations whose example acts on something another operation's example makes first, as on the
 * docs page: restoring or deleting the snapshot "before-test" needs it taken, deleting fault 1
 * needs a fault added.
 */
export const EXAMPLE_PREREQUISITES: Readonly<Record<string, string>> = {
  adminRestoreSnapshot: 'adminCreateSnapshot',
  adminDeleteSnapshot: 'adminCreateSnapshot',
  adminDeleteFault: 'adminAddFault',
  getJob: 'bulkUsers',
  getJobErrors: 'bulkUsers',
  getSubscription: 'createSubscription',
  updateSubscription: 'createSubscription',
  replaceSubscription: 'createSubscription',
  deleteSubscription: 'createSubscription',
  pingSubscription: 'createSubscription',
  retrySubscription: 'createSubscription',
  getSubscriptionSent: 'createSubscription',
  getSubscriptionError: 'createSubscription',
  getSubscriptionErrors: 'createSubscription',
};
