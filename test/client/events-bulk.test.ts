// Events and bulk jobs through the official Node client (intercom-client 2.11) on a real listening
// mock: events.create and listBy, users.bulk and events.bulk, and what the jobs then show.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADA, LEAD } from '../fixture-ids.js';
import { TEST_NOW } from '../helpers.js';
import { officialClientMock, type OfficialClientMock } from './official.js';

const T = TEST_NOW - 3600;

describe('official Node client: events and bulk jobs', () => {
  let m: OfficialClientMock;
  beforeAll(async () => (m = await officialClientMock()));
  afterAll(() => m.close());

  /** One app per test, so the tests do not see each other's events and jobs. */
  const client = (name: string) => m.client(`test_events_${name}`);
  const runJobs = (app: string) => fetch(`${m.url}/__admin/jobs/run?app=test_events_${app}`, { method: 'POST' });

  it('events.create answers the empty 202 and listBy reads the events back, newest first', async () => {
    const c = client('create');
    const created = await c.events.create({ event_name: 'invited-friend', created_at: T, user_id: 'ada-1', metadata: { invitee_email: 'pi@example.org', price: { amount: 2999, currency: 'usd' } } });
    expect(created.statusCode).toBe(202);
    expect(created.body).toBeUndefined();
    await c.events.create({ event_name: 'ordered-item', created_at: T + 60, email: 'ada@example.com' });
    await c.events.create({ event_name: 'ordered-item', created_at: T + 60, user_id: 'ada-1' });
    await c.events.create({ event_name: 'lead-signed-up', created_at: T, id: LEAD });
    const listed = (await c.events.listBy({ type: 'user', user_id: 'ada-1' })).body;
    expect(listed.type).toBe('event.list');
    expect(listed.events.map((e: any) => [e.event_name, e.intercom_user_id])).toEqual([
      ['ordered-item', ADA],
      ['invited-friend', ADA],
    ]);
    expect(listed.events[1].metadata).toEqual({ invitee_email: 'pi@example.org', price: { amount: 2999, currency: 'usd' } });
    expect((await c.events.listBy({ type: 'user', intercom_user_id: LEAD })).body.events[0].event_name).toBe('lead-signed-up');
    const summary = (await c.events.listBy({ type: 'user', email: 'ada@example.com', summary: true })).body;
    expect(summary.events.map((e: any) => [e.name, e.count])).toEqual([
      ['invited-friend', 1],
      ['ordered-item', 1],
    ]);
  });

  it('follows pages.next with the client\'s nextPage', async () => {
    const c = client('pages');
    for (let i = 0; i < 5; i++) await c.events.create({ event_name: `e${i}`, created_at: T + i, user_id: 'ada-1' });
    const first = (await c.events.listBy({ type: 'user', user_id: 'ada-1', per_page: 2 })).body;
    expect(first.pages.next).toMatch(new RegExp(`^${m.url}/events\\?`));
    const names = first.events.map((e: any) => e.event_name);
    let pages = first.pages;
    while (pages.next) {
      const page = (await c.nextPage(pages)).body;
      names.push(...page.events.map((e: any) => e.event_name));
      pages = page.pages;
    }
    expect(names).toEqual(['e4', 'e3', 'e2', 'e1', 'e0']);
  });

  it('rejects an unknown user with the API\'s 404', async () => {
    const c = client('unknown');
    await expect(c.events.create({ event_name: 'x', created_at: T, user_id: 'nobody' })).rejects.toMatchObject({ statusCode: 404, message: 'User Not Found' });
    await expect(c.events.listBy({ type: 'user', user_id: 'nobody' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('users.bulk answers the job; once run, the users exist and the archived one is gone', async () => {
    const c = client('users');
    const res = await c.users.bulk([{ create: { user_id: 'bulk-1', email: 'bulk-1@example.com' } }, { post: { user_id: 'bulk-2' } }, { delete: { user_id: 'grace-2' } }]);
    expect(res.statusCode).toBe(202);
    expect(res.body).toMatchObject({ type: 'job', state: 'running', name: 'api_bulk_job', links: { self: `${m.url}/jobs/${res.body.id}` } });
    expect((await runJobs('users')).status).toBe(200);
    expect((await c.users.find({ user_id: 'bulk-1' })).body.email).toBe('bulk-1@example.com');
    await expect(c.users.find({ user_id: 'grace-2' })).rejects.toMatchObject({ statusCode: 404 });
    const job = (await fetch(res.body.links.self, { headers: { authorization: 'Bearer test_events_users' } }).then((r) => r.json())) as { state: string };
    expect(job.state).toBe('completed');
  });

  it('events.bulk answers the job; once run, the events are listed and failures are in the error feed', async () => {
    const c = client('bulk');
    const res = await c.events.bulk([{ create: { event_name: 'bulk-a', created_at: T, user_id: 'ada-1' } }, { create: { event_name: 'bulk-b', created_at: T, user_id: 'nobody' } }]);
    expect(res.statusCode).toBe(202);
    await runJobs('bulk');
    expect((await c.events.listBy({ type: 'user', user_id: 'ada-1' })).body.events.map((e: any) => e.event_name)).toEqual(['bulk-a']);
    const feed = (await fetch(res.body.links.error, { headers: { authorization: 'Bearer test_events_bulk' } }).then((r) => r.json())) as { items: unknown[] };
    expect(feed.items).toHaveLength(1);
    expect(feed.items[0]).toMatchObject({ method: 'post', data_type: 'event', data: { user_id: 'nobody' }, error: 'not_found: User Not Found' });
  });
});
