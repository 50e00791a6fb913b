// The subscriptions' text cap at its exact bound: what a subscription counts (its url, hub_secret,
// topics without ping, and event names, in characters), an app's cap and every app's together,
// each reached exactly and passed by one character.

import { describe, expect, it } from 'vitest';
import { expectRejected, mock } from '../../helpers.js';

const WITH_NAMES = {
  url: 'http://127.0.0.1:9/text',
  hub_secret: 's3cret',
  topics: ['user.created', 'event.created', 'ping'],
  metadata: { event_names: ['e1', 'e22'] },
};
// 23 + 6 + (12 + 13) + (2 + 3): ping is always subscribed and counts nothing.
const WITH_NAMES_TEXT = 59;
const PLAIN = { url: 'http://127.0.0.1:9/plain', topics: ['user.created'] };
const PLAIN_TEXT = 24 + 12;

describe("an app's subscriptions' text", () => {
  it('may reach the cap exactly, by a create and by an update that keeps it there', async () => {
    const m = mock({ limits: { subscriptionText: WITH_NAMES_TEXT } });
    const res = await m.call('POST', '/subscriptions', { body: WITH_NAMES });
    expect(res.status, res.text).toBe(200);
    // The subscription updated is counted once: as it will be, not also as it was.
    expect((await m.call('POST', `/subscriptions/${res.body.id}`, { body: WITH_NAMES })).status).toBe(200);
    const over = await expectRejected(m, 'POST', '/subscriptions', { body: { url: 'http://127.0.0.1:9/x', topics: ['ping'] } }, 403, ['resource_limit_exceeded']);
    expect(over.body.errors[0].message).toBe(`This app's subscriptions would hold ${WITH_NAMES_TEXT + 20} characters of urls, secrets, topics and event names: at most ${WITH_NAMES_TEXT}; delete some, or name fewer event names.`);
    expect((await m.call('GET', '/subscriptions')).body.items).toHaveLength(1);
  });

  it('one character under what a subscription counts refuses it, and names the count', async () => {
    const m = mock({ limits: { subscriptionText: WITH_NAMES_TEXT - 1 } });
    const res = await expectRejected(m, 'POST', '/subscriptions', { body: WITH_NAMES }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors[0].message).toBe(`This app's subscriptions would hold ${WITH_NAMES_TEXT} characters of urls, secrets, topics and event names: at most ${WITH_NAMES_TEXT - 1}; delete some, or name fewer event names.`);
    expect((await m.call('GET', '/subscriptions')).body.items).toEqual([]);
  });

  it('counts no event names for a subscription without them', async () => {
    const m = mock({ limits: { subscriptionText: PLAIN_TEXT } });
    expect((await m.call('POST', '/subscriptions', { body: PLAIN })).status).toBe(200);
    const res = await expectRejected(m, 'POST', '/subscriptions', { body: PLAIN }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors[0].message).toContain(`would hold ${2 * PLAIN_TEXT} characters`);
  });
});

describe("every app's subscriptions' text together", () => {
  it('may reach the store-wide cap exactly; past it, refused', async () => {
    const m = mock({ limits: { allSubscriptionText: 2 * PLAIN_TEXT } });
    expect((await m.call('POST', '/subscriptions', { body: PLAIN })).status).toBe(200);
    expect((await m.call('POST', '/subscriptions', { body: PLAIN, token: 'test_text_exact' })).status).toBe(200);
    const res = await expectRejected(m, 'POST', '/subscriptions', { body: { url: 'http://127.0.0.1:9/', topics: ['ping'] }, token: 'test_text_exact' }, 403, ['resource_limit_exceeded']);
    expect(res.body.errors[0].message).toBe(`The mock's apps together would hold ${2 * PLAIN_TEXT + 19} characters of subscriptions: at most ${2 * PLAIN_TEXT}; reset apps or delete subscriptions.`);
  });
});
