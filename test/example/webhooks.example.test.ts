// The README's webhook example: a real receiver on 127.0.0.1 gets a signed notification.

import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { startMockServer } from '../../src/lib.js';

it('delivers a signed user.created notification to my handler', async () => {
  const received: { signature: string | undefined; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ signature: req.headers['x-hub-signature'] as string | undefined, body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/intercom`;

  const mock = await startMockServer({ port: 0 });
  const token = mock.testToken('webhooks');
  const headers = { ...mock.headers(token), 'content-type': 'application/json' };
  const post = (path: string, body: unknown) => fetch(`${mock.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect((await post('/subscriptions', { url: hook, topics: ['user.created'], hub_secret: 'shh' })).status).toBe(200);
  expect((await post('/users', { user_id: 'u-1', email: 'u1@example.com' })).status).toBe(200);
  await mock.control.runJobs({ token }); // delivers what is pending, answers once delivered

  expect(received).toHaveLength(1);
  const [{ signature, body }] = received as [(typeof received)[0]];
  expect(signature).toBe(`sha1=${createHmac('sha1', 'shh').update(body).digest('hex')}`);
  expect(JSON.parse(body)).toMatchObject({ type: 'notification_event', topic: 'user.created', data: { item: { type: 'user', user_id: 'u-1' } } });
  await mock.stop();
  receiver.close();
});
