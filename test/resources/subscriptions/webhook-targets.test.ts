// Where webhooks may go, on real listening servers (resources/subscriptions/targets.ts): never the mock itself,
// nowhere by default when it listens beyond loopback, and only an excerpt of what a receiver said.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DELIVERIES_IN_FLIGHT, MAX_RESPONSE_BYTES } from '../../../src/resources/subscriptions/send.js';
import { startMockServer, type MockServer } from '../../../src/testing.js';
import { warningCodesOf } from '../../helpers.js';
import { waitFor } from '../../real.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

async function call(mock: MockServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`${mock.url}${path}`, { method, headers: { ...mock.headers(), 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Subscribes url to user.created, creates a user, runs the jobs and waits for the sends. */
async function deliverOnce(mock: MockServer, url: string, userId: string): Promise<{ sub: string; warnings: string[] }> {
  const sub = await call(mock, 'POST', '/subscriptions', { url, topics: ['user.created'] });
  expect(sub.status).toBe(200);
  expect((await call(mock, 'POST', '/users', { user_id: userId })).status).toBe(200);
  expect((await fetch(`${mock.url}/__admin/jobs/run`, { method: 'POST' })).status).toBe(200);
  await mock.store.webhooks?.settled();
  return { sub: sub.body.id, warnings: warningCodesOf(sub.headers.get('x-mock-warning')) };
}

const errorEntities = async (mock: MockServer, sub: string) =>
  ((await call(mock, 'GET', `/subscriptions/${sub}/error`)).body.notifications as { http_request: { response_entity: string } }[]).map((n) => n.http_request.response_entity);

describe('webhook targets', () => {
  it('never delivers to the mock itself: its own port on a loopback name, whatever the path', async () => {
    const mock = await startMockServer({ now: 1_767_312_000 });
    try {
      const { port } = mock;
      const selves = [`http://127.0.0.1:${port}/__admin/reset`, `http://localhost:${port}/__admin/reset`, `http://[::1]:${port}/users`, `http://[::ffff:127.0.0.1]:${port}/__admin/reset`];
      for (const [i, url] of selves.entries()) {
        const { sub } = await deliverOnce(mock, url, `self-${i}`);
        expect(await errorEntities(mock, sub)).toEqual(["Target refused: the mock's own address (a webhook may not call the mock itself)"]);
      }
      // Nothing was reset: the users written are all still there.
      for (const i of selves.keys()) expect((await call(mock, 'GET', `/users?user_id=self-${i}`)).status).toBe(200);
    } finally {
      await mock.stop();
    }
  });

  it('listening beyond loopback, delivers nowhere unless --webhook-hosts says so; the subscription is kept with a warning', async () => {
    const mock = await startMockServer({ host: '0.0.0.0' });
    try {
      rx.received.length = 0;
      const { sub, warnings } = await deliverOnce(mock, `${rx.base}/beyond`, 'beyond-1');
      expect(warnings).toEqual(['undeliverable_target']);
      expect(rx.received).toEqual([]);
      expect(await errorEntities(mock, sub)).toEqual(['Target refused: the mock listens beyond loopback, so it delivers webhooks only when started with --webhook-hosts loopback or any']);
    } finally {
      await mock.stop();
    }
    const named = await startMockServer({ host: '0.0.0.0', webhookHosts: 'loopback' });
    try {
      rx.received.length = 0;
      const { warnings } = await deliverOnce(named, `${rx.base}/named`, 'beyond-2');
      expect(warnings).toEqual([]);
      expect(rx.received.map((r) => r.path)).toEqual(['/named']);
    } finally {
      await named.stop();
    }
  });

  it(`sends at most ${MAX_DELIVERIES_IN_FLIGHT} deliveries at once, over every subscription; the rest wait their turn`, async () => {
    const mock = await startMockServer({ now: 1_767_312_000 });
    try {
      let open: (v?: unknown) => void = () => undefined;
      const gate = new Promise((resolve) => (open = resolve));
      rx.received.length = 0;
      rx.plan.set('/held', [{ status: 200, gate }]);
      const subscriptions = MAX_DELIVERIES_IN_FLIGHT + 6;
      for (let i = 0; i < subscriptions; i++) expect((await call(mock, 'POST', '/subscriptions', { url: `${rx.base}/held`, topics: ['user.created'] })).status).toBe(200);
      expect((await call(mock, 'POST', '/users', { user_id: 'many-hooks' })).status).toBe(200);
      const ran = fetch(`${mock.url}/__admin/jobs/run`, { method: 'POST' });
      await waitFor(() => (rx.received.length === MAX_DELIVERIES_IN_FLIGHT ? true : undefined));
      expect(mock.store.webhooks?.inFlight()).toEqual({ sending: MAX_DELIVERIES_IN_FLIGHT, waiting: 6 });
      expect(rx.received).toHaveLength(MAX_DELIVERIES_IN_FLIGHT);
      open();
      expect((await ran).status).toBe(200);
      expect(rx.received).toHaveLength(subscriptions);
      expect(mock.store.webhooks?.inFlight()).toEqual({ sending: 0, waiting: 0 });
    } finally {
      rx.plan.clear();
      await mock.stop();
    }
  });

  it('under --webhook-hosts any, a name that does not resolve on the mock\'s port is refused as possibly the mock', async () => {
    const mock = await startMockServer({ now: 1_767_312_000, webhookHosts: 'any' });
    try {
      const { sub } = await deliverOnce(mock, `http://no-such-host.invalid:${mock.port}/__admin/reset`, 'unresolved-1');
      expect(await errorEntities(mock, sub)).toEqual(["Target refused: the mock's own address (a webhook may not call the mock itself)"]);
    } finally {
      await mock.stop();
    }
  });

  it('keeps at most 20 of the answer\'s headers, each cut to 256 characters, and never half a character of its body', async () => {
    const mock = await startMockServer();
    try {
      const headers = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`x-h${String(i).padStart(2, '0')}`, 'v'.repeat(300)]));
      rx.plan.set('/headers', [{ status: 500, headers, body: `${'a'.repeat(MAX_RESPONSE_BYTES - 1)}€ and more` }]);
      const { sub } = await deliverOnce(mock, `${rx.base}/headers`, 'headers-1');
      const [entry] = (await call(mock, 'GET', `/subscriptions/${sub}/error`)).body.notifications as { http_request: { response_headers: Record<string, string>; response_entity: string } }[];
      const kept = Object.entries(entry?.http_request.response_headers ?? {});
      expect(kept).toHaveLength(20);
      for (const [, value] of kept) expect(value.length).toBeLessThanOrEqual(256);
      expect(entry?.http_request.response_entity).toBe('a'.repeat(MAX_RESPONSE_BYTES - 1));
    } finally {
      rx.plan.clear();
      await mock.stop();
    }
  });

  it(`keeps only the first ${MAX_RESPONSE_BYTES} bytes of what a receiver answered`, async () => {
    const mock = await startMockServer();
    try {
      const page = `<html>${'internal service page '.repeat(5000)}</html>`;
      rx.plan.set('/chatty', [{ status: 500, body: page }]);
      const { sub } = await deliverOnce(mock, `${rx.base}/chatty`, 'chatty-1');
      expect(await errorEntities(mock, sub)).toEqual([page.slice(0, MAX_RESPONSE_BYTES)]);
    } finally {
      await mock.stop();
    }
  });
});
