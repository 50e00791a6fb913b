// What an app keeps is bounded: tags under a count cap (limits.tags), as customers, companies and
// notes are. A write past a cap is 403 resource_limit_exceeded and changes nothing.

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/state/limits.js';
import { expectRejected, mock } from '../helpers.js';

describe('the tags cap', () => {
  it('refuses the tag past limits.tags, by POST /tags and by tagging, changing nothing; renaming and deleting still work', async () => {
    const seeded = (await mock().call('GET', '/tags')).body.tags.length as number;
    const m = mock({ limits: { tags: seeded + 1 } });
    expect((await m.call('POST', '/tags', { body: { name: 'one more' } })).status).toBe(200);
    const res = await expectRejected(m, 'POST', '/tags', { body: { name: 'past the cap' } }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors[0].message).toBe(`This app already holds the most tags the mock allows (${seeded + 1}); reset it or raise the limit.`);
    await expectRejected(m, 'POST', '/tags', { body: { name: 'by tagging', users: [{ user_id: 'ada-1' }] } }, 403, ['resource_limit_exceeded']);
    const tags = (await m.call('GET', '/tags')).body.tags as { id: string; name: string }[];
    expect(tags).toHaveLength(seeded + 1);
    const last = tags.find((t) => t.name === 'one more') as { id: string };
    expect((await m.call('POST', '/tags', { body: { id: last.id, name: 'renamed' } })).status).toBe(200);
    expect((await m.call('POST', '/tags', { body: { name: 'renamed', users: [{ user_id: 'ada-1' }] } })).status).toBe(200);
    expect((await m.call('DELETE', `/tags/${last.id}`)).status).toBe(200);
    expect((await m.call('POST', '/tags', { body: { name: 'room again' } })).status).toBe(200);
  });

  it('holds 10,000 tags an app, and 100,000 over every app, by default', async () => {
    expect(mock().store.limits).toMatchObject({ tags: 10_000, allTags: 100_000, subscriptionText: 131_072, allSubscriptionText: 16_777_216 });
  });

  it('refuses a new tag past limits.allTags over every app together, whichever app asks', async () => {
    const seeded = (await mock().call('GET', '/tags')).body.tags.length as number;
    // Every app (the fixture apps and one test app) holds its seeded tags.
    const probe = mock();
    expect((await probe.call('GET', '/tags', { token: 'test_all_tags' })).status).toBe(200);
    const apps = (await probe.call('GET', '/__admin/health', { token: null })).body.apps as string[];
    const held = await Promise.all(apps.map(async (id) => (JSON.parse((await probe.call('GET', `/__admin/state?app=${id}`, { token: null })).text).tags as unknown[]).length));
    const total = held.reduce((a, b) => a + b, 0);
    const m = mock({ limits: { allTags: total + 1 } });
    expect((await m.call('GET', '/tags', { token: 'test_all_tags' })).status).toBe(200);
    expect((await m.call('POST', '/tags', { body: { name: 'the last one' } })).status).toBe(200);
    const res = await expectRejected(m, 'POST', '/tags', { body: { name: 'one too many' }, token: 'test_all_tags' }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors[0].message).toBe(`The mock's apps together already hold the most tags it allows (${total + 1}); reset apps or delete tags.`);
    expect((await m.call('GET', '/tags', { token: 'test_all_tags' })).body.tags).toHaveLength(seeded);
  });
});

const MAX_SUBSCRIPTION_TEXT = DEFAULT_LIMITS.subscriptionText;

describe('the subscriptions\' text cap', () => {
  const names = (n: number, tag: string) => Array.from({ length: 100 }, (_, i) => `${tag}-${i}-${'e'.repeat(n)}`);

  it(`refuses a create or an update that would take the app's subscriptions past ${MAX_SUBSCRIPTION_TEXT} characters, changing nothing`, async () => {
    const m = mock();
    const made: string[] = [];
    // Each holds about 100 × 250 characters of event names: the cap is passed within a few.
    for (let i = 0; ; i++) {
      const res = await m.call('POST', '/subscriptions', { body: { url: `http://127.0.0.1:9/${i}`, topics: ['event.created'], metadata: { event_names: names(240, `s${i}`) } } });
      if (res.status !== 200) {
        expect([res.status, res.body.errors[0].code]).toEqual([403, 'resource_limit_exceeded']);
        expect(res.body.errors[0].message).toMatch(new RegExp(`^This app's subscriptions would hold \\d+ characters of urls, secrets, topics and event names: at most ${MAX_SUBSCRIPTION_TEXT}; delete some, or name fewer event names\\.$`));
        break;
      }
      made.push(res.body.id);
    }
    expect(made.length).toBeGreaterThan(2);
    expect(made.length).toBeLessThan(10);
    expect((await m.call('GET', '/subscriptions')).body.items).toHaveLength(made.length);
    // Shrinking one makes room; growing it back past the cap is refused.
    expect((await m.call('POST', `/subscriptions/${made[0]}`, { body: { metadata: { event_names: ['one'] } } })).status).toBe(200);
    expect((await m.call('POST', '/subscriptions', { body: { url: 'http://127.0.0.1:9/after', topics: ['event.created'], metadata: { event_names: names(240, 'after') } } })).status).toBe(200);
    await expectRejected(m, 'POST', `/subscriptions/${made[0]}`, { body: { metadata: { event_names: names(240, 'grow') } } }, 403, ['resource_limit_exceeded']);
  });

  it('refuses a subscription past limits.allSubscriptionText over every app together', async () => {
    const m = mock({ limits: { allSubscriptionText: 60_000 } });
    const body = { url: 'http://127.0.0.1:9/x', topics: ['event.created'], metadata: { event_names: names(240, 'all') } };
    expect((await m.call('POST', '/subscriptions', { body })).status).toBe(200);
    expect((await m.call('POST', '/subscriptions', { body, token: 'test_sub_text' })).status).toBe(200);
    const res = await expectRejected(m, 'POST', '/subscriptions', { body, token: 'test_sub_text' }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors[0].message).toMatch(/^The mock's apps together would hold \d+ characters of subscriptions: at most 60000; reset apps or delete subscriptions\.$/);
  });

  it('leaves room for the 250 ordinary subscriptions the real API allowed', async () => {
    const m = mock({ rateLimit: 1_000_000 });
    for (let i = 0; i < 250; i++) {
      const res = await m.call('POST', '/subscriptions', { body: { url: `https://hooks.example.test/intercom/${'p'.repeat(60)}/${i}`, topics: ['user.created', 'user.deleted', 'conversation.user.created', 'conversation.admin.replied', 'contact.created'], hub_secret: 's'.repeat(40) } });
      expect(res.status, res.text).toBe(200);
    }
  });
});

describe('the data-attribute registry follows the records', () => {
  const listed = async (m: ReturnType<typeof mock>) =>
    ((await m.call('GET', '/data_attributes/customer')).body.data_attributes as { full_name: string }[]).map((a) => a.full_name).filter((n) => n.startsWith('custom_attributes.one_off_'));

  it('lets go of names no customer holds any more, and takes them back with a customer that holds them again', async () => {
    const m = mock();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await m.call('POST', '/users', { body: { user_id: `one-off-${i}`, custom_attributes: { [`one_off_${i}`]: i, shared_one_off_x: 1 } } });
      ids.push(res.body.id);
    }
    expect(await listed(m)).toHaveLength(20);
    // Permanently deleted: gone from the registry and its list, as the records are.
    for (const id of ids.slice(0, 10)) expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: id } })).status).toBe(200);
    expect(await listed(m)).toEqual(Array.from({ length: 10 }, (_, i) => `custom_attributes.one_off_${i + 10}`));
    // Archived: its names go while no live record holds them, and come back with the user.
    expect((await m.call('DELETE', `/users/${ids[10]}`)).status).toBe(200);
    expect(await listed(m)).not.toContain('custom_attributes.one_off_10');
    expect((await m.call('POST', '/users', { body: { user_id: 'one-off-10' } })).status).toBe(200);
    expect(await listed(m)).toContain('custom_attributes.one_off_10');
    // A name others still hold stays.
    const names = ((await m.call('GET', '/data_attributes/customer')).body.data_attributes as { name: string }[]).map((a) => a.name);
    expect(names).toContain('shared_one_off_x');
  });

  it('a name a seed lists only because a record held it (an export seeded back) still goes when none does', async () => {
    const m = mock();
    const user = await m.call('POST', '/users', { body: { user_id: 'exported-holder', custom_attributes: { one_off_exported: 1 } } });
    const exported = JSON.parse((await m.call('GET', '/__admin/state?app=demo', { token: null })).text);
    expect(exported.data_attributes.map((a: { name: string }) => a.name)).toContain('one_off_exported');
    expect((await m.call('POST', '/__admin/seed', { token: null, body: exported })).status).toBe(200);
    expect(await listed(m)).toEqual(['custom_attributes.one_off_exported']);
    expect((await m.call('POST', '/user_delete_requests', { body: { intercom_user_id: user.body.id } })).status).toBe(200);
    expect(await listed(m)).toEqual([]);
  });

  it('keeps a name the fixture declares, held or not', async () => {
    const m = mock();
    const seeded = await m.call('POST', '/__admin/seed', {
      token: null,
      body: { app: { id: 'declares', tokens: ['declares-token'] }, data_attributes: [{ name: 'one_off_declared', label: 'Declared', description: 'kept', data_type: 'string', api_writable: true, ui_writable: true, archived: false, created_at: 1, updated_at: 1 }] },
    });
    expect(seeded.status, seeded.text.slice(0, 300)).toBe(200);
    const user = await m.call('POST', '/users', { token: 'declares-token', body: { user_id: 'holder', custom_attributes: { one_off_declared: 'x', one_off_passing: 'y' } } });
    expect((await m.call('POST', '/user_delete_requests', { token: 'declares-token', body: { intercom_user_id: user.body.id } })).status).toBe(200);
    const names = ((await m.call('GET', '/data_attributes/customer', { token: 'declares-token' })).body.data_attributes as { name: string }[]).map((a) => a.name);
    expect(names).toContain('one_off_declared');
    expect(names).not.toContain('one_off_passing');
  });
});
