// What a write must not do, and what it must do to the records it does not name: enrichment is
// queued only when the IP or the email changes; removing one company keeps the others; a company
// the customer already has is not added twice.

import { describe, expect, it } from 'vitest';
import { mock, type TestMock } from '../helpers.js';
import { ACME, ADA, GRACE } from '../fixture-ids.js';

const GLOBEX = '5714dd359a3fd47136000102';
const post = (m: TestMock, body: unknown) => m.call('POST', '/users', { body });
const runJobs = async (m: TestMock) => (await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).body;
const pendingJobs = async (m: TestMock) => JSON.parse((await m.call('GET', '/__admin/state?app=demo', { token: null })).text).jobs;
const companyIds = async (m: TestMock, id: string) => (await m.call('GET', `/users/${id}`)).body.companies.companies.map((c: { id: string }) => c.id);
const memberIds = async (m: TestMock, companyId: string) => (await m.call('GET', `/companies/${companyId}/users`)).body.users.map((u: { id: string }) => u.id);

describe('enrichment is queued only when the IP or the email changes', () => {
  async function drained(): Promise<TestMock> {
    const m = mock();
    await runJobs(m);
    expect(await pendingJobs(m)).toEqual([]);
    return m;
  }

  it('queues nothing for a write that changes other attributes', async () => {
    const m = await drained();
    expect((await post(m, { user_id: 'ada-1', name: 'Ada King', custom_attributes: { plan: 'pro' } })).status).toBe(200);
    expect(await pendingJobs(m)).toEqual([]);
    expect(await runJobs(m)).toEqual({ ran: 0 });
  });

  it('queues nothing when the email sent is the stored one in other letter case', async () => {
    const m = await drained();
    expect((await post(m, { user_id: 'ada-1', email: 'ADA@Example.COM' })).status).toBe(200);
    expect(await runJobs(m)).toEqual({ ran: 0 });
  });

  it('queues nothing for an empty last_seen_ip', async () => {
    const m = await drained();
    expect((await post(m, { user_id: 'ada-1', last_seen_ip: '' })).status).toBe(200);
    expect(await runJobs(m)).toEqual({ ran: 0 });
  });

  it('queues one job for a new email, due after the job delay', async () => {
    const m = await drained();
    expect((await post(m, { user_id: 'ada-1', email: 'ada.king@example.com' })).status).toBe(200);
    const jobs = await pendingJobs(m);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ kind: 'enrich_customer', customer_id: ADA, due_at: m.clock.now() + m.store.jobDelaySeconds });
    expect(await runJobs(m)).toEqual({ ran: 1 });
    expect((await m.call('GET', `/users/${ADA}`)).body.social_profiles.social_profiles[0]).toMatchObject({ username: 'adaking' });
  });

  it('queues one job for an IP, even the stored one', async () => {
    const m = await drained();
    expect((await post(m, { user_id: 'ada-1', last_seen_ip: '8.8.8.8' })).status).toBe(200);
    expect((await post(m, { user_id: 'grace-2', last_seen_ip: '8.8.8.8' })).status).toBe(200);
    expect(await runJobs(m)).toEqual({ ran: 2 });
    expect((await post(m, { user_id: 'ada-1', last_seen_ip: '8.8.8.8' })).status).toBe(200);
    expect(await runJobs(m)).toEqual({ ran: 1 });
  });

  it('runs only the jobs that are due when a request reaches the app', async () => {
    const m = await drained();
    await post(m, { user_id: 'ada-1', last_seen_ip: '8.8.8.8' });
    m.clock.advance(1);
    await post(m, { user_id: 'grace-2', last_seen_ip: '8.8.4.4' });
    m.clock.advance(m.store.jobDelaySeconds - 1);
    // This request makes Ada's job due, not Grace's.
    expect((await m.call('GET', `/users/${ADA}`)).body.location_data.city_name).toEqual(expect.any(String));
    expect(await pendingJobs(m)).toMatchObject([{ customer_id: GRACE }]);
    expect((await m.call('GET', `/users/${GRACE}`)).body.location_data).toEqual({ type: 'location_data' });
  });
});

describe('a customer write\'s companies', () => {
  it('removing one company keeps the others, and the company itself', async () => {
    const m = mock();
    expect(await companyIds(m, GRACE)).toEqual([ACME, GLOBEX]);
    const res = await post(m, { user_id: 'grace-2', companies: [{ company_id: 'acme', remove: true }] });
    expect(res.status).toBe(200);
    expect(res.body.companies.companies.map((c: { id: string }) => c.id)).toEqual([GLOBEX]);
    expect(await companyIds(m, GRACE)).toEqual([GLOBEX]);
    expect(await memberIds(m, ACME)).not.toContain(GRACE);
    expect(await memberIds(m, ACME)).toContain(ADA);
    expect(await memberIds(m, GLOBEX)).toContain(GRACE);
    expect((await m.call('GET', `/companies/${ACME}`)).status).toBe(200);
  });

  it('removing a company the customer is not in, or that does not exist, changes nothing and creates nothing', async () => {
    const m = mock();
    const companies = (await m.call('GET', '/companies?per_page=60')).body.total_count;
    const res = await post(m, { user_id: 'ada-1', companies: [{ company_id: 'globex', remove: true }, { company_id: 'no-such-co', remove: true }] });
    expect(res.status).toBe(200);
    expect(await companyIds(m, ADA)).toEqual([ACME]);
    expect((await m.call('GET', '/companies?per_page=60')).body.total_count).toBe(companies);
    expect((await m.call('GET', '/companies?company_id=no-such-co')).status).toBe(404);
  });

  it('adding a company the customer is in keeps one membership, in its place', async () => {
    const m = mock();
    const res = await post(m, { user_id: 'grace-2', companies: [{ company_id: 'acme', name: 'Acme Renamed' }, { company_id: 'globex' }] });
    expect(res.status).toBe(200);
    expect(await companyIds(m, GRACE)).toEqual([ACME, GLOBEX]);
    expect((await m.call('GET', `/companies/${ACME}`)).body.name).toBe('Acme Renamed');
  });

  it('removes and adds in the order sent: a company removed then added stays, added then removed goes', async () => {
    const m = mock();
    await post(m, { user_id: 'ada-1', companies: [{ company_id: 'acme', remove: true }, { company_id: 'acme' }] });
    expect(await companyIds(m, ADA)).toEqual([ACME]);
    await post(m, { user_id: 'ada-1', companies: [{ company_id: 'globex' }, { company_id: 'globex', remove: true }] });
    expect(await companyIds(m, ADA)).toEqual([ACME]);
  });
});
